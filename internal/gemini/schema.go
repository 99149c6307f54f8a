package gemini

// The messages of the request bodies, as the API's v1beta protos define
// them (wire.md Part 3 §2.2 lists what genai sends; the REST reference
// the rest). Fields the server reads are typed; fields it only accepts
// (safety settings, media, speech) are checked for their shape.

var (
	blobMessage     = msg("Blob", map[string]*field{"mimeType": str(), "data": bytesField(), "displayName": str()})
	fileDataMessage = msg("FileData", map[string]*field{"mimeType": str(), "fileUri": str(), "displayName": str()})

	functionCallMessage = msg("FunctionCall", map[string]*field{"id": str(), "name": str(), "args": structField()})

	functionResponseMessage = msg("FunctionResponse", map[string]*field{
		"id": str(), "name": str(), "response": structField(), "parts": list(value()), "willContinue": boolean(),
		"scheduling": enum("FunctionResponse.Scheduling", "SCHEDULING_UNSPECIFIED", "SILENT", "WHEN_IDLE", "INTERRUPT"),
	})

	partMessage = msg("Part", map[string]*field{
		"text": str(), "thought": boolean(), "thoughtSignature": bytesField(),
		"inlineData": of(blobMessage), "fileData": of(fileDataMessage),
		"functionCall": of(functionCallMessage), "functionResponse": of(functionResponseMessage),
		"executableCode": structField(), "codeExecutionResult": structField(), "videoMetadata": structField(),
		"toolCall": structField(), "toolResponse": structField(), "partMetadata": structField(), "mediaResolution": value(),
		// Preprocessing of an inline or file document, sheet or audio
		// (genai v1.78.0 on).
		"documentMetadata": structField(), "spreadsheetMetadata": structField(), "audioMetadata": structField(),
	})

	contentMessage = msg("Content", map[string]*field{"role": str(), "parts": list(of(partMessage))})

	functionDeclarationMessage = msg("FunctionDeclaration", map[string]*field{
		"name": str(), "description": str(), "parameters": structField(), "parametersJsonSchema": value(),
		"response": structField(), "responseJsonSchema": value(),
		"behavior": enum("FunctionDeclaration.Behavior", "UNSPECIFIED", "BLOCKING", "NON_BLOCKING"),
	})

	toolMessage = msg("Tool", map[string]*field{
		"functionDeclarations": list(of(functionDeclarationMessage)),
		"googleSearch":         structField(), "googleSearchRetrieval": structField(), "codeExecution": structField(),
		"urlContext": structField(), "googleMaps": structField(), "fileSearch": structField(),
		"computerUse": structField(), "mcpServers": list(structField()),
	})

	functionCallingConfigMessage = msg("FunctionCallingConfig", map[string]*field{
		"mode":                 enum("FunctionCallingConfig.Mode", "MODE_UNSPECIFIED", "AUTO", "ANY", "NONE", "VALIDATED"),
		"allowedFunctionNames": list(str()),
	})

	toolConfigMessage = msg("ToolConfig", map[string]*field{
		"functionCallingConfig": of(functionCallingConfigMessage), "retrievalConfig": structField(),
		"includeServerSideToolInvocations": boolean(),
	})

	harmCategory = enum("HarmCategory", "HARM_CATEGORY_UNSPECIFIED", "HARM_CATEGORY_DEROGATORY", "HARM_CATEGORY_TOXICITY",
		"HARM_CATEGORY_VIOLENCE", "HARM_CATEGORY_SEXUAL", "HARM_CATEGORY_MEDICAL", "HARM_CATEGORY_DANGEROUS",
		"HARM_CATEGORY_HARASSMENT", "HARM_CATEGORY_HATE_SPEECH", "HARM_CATEGORY_SEXUALLY_EXPLICIT",
		"HARM_CATEGORY_DANGEROUS_CONTENT", "HARM_CATEGORY_CIVIC_INTEGRITY", "HARM_CATEGORY_IMAGE_HATE",
		"HARM_CATEGORY_IMAGE_DANGEROUS_CONTENT", "HARM_CATEGORY_IMAGE_HARASSMENT", "HARM_CATEGORY_IMAGE_SEXUALLY_EXPLICIT",
		"HARM_CATEGORY_JAILBREAK")

	safetySettingMessage = msg("SafetySetting", map[string]*field{
		"category": harmCategory,
		"threshold": enum("SafetySetting.HarmBlockThreshold", "HARM_BLOCK_THRESHOLD_UNSPECIFIED", "BLOCK_LOW_AND_ABOVE",
			"BLOCK_MEDIUM_AND_ABOVE", "BLOCK_ONLY_HIGH", "BLOCK_NONE", "OFF"),
	})

	thinkingConfigMessage = msg("ThinkingConfig", map[string]*field{
		"includeThoughts": boolean(), "thinkingBudget": integer(),
		"thinkingLevel": enum("ThinkingConfig.ThinkingLevel", "THINKING_LEVEL_UNSPECIFIED", "MINIMAL", "LOW", "MEDIUM", "HIGH"),
	})

	generationConfigMessage = msg("GenerationConfig", map[string]*field{
		"temperature": float(), "topP": float(), "topK": integer(), "candidateCount": integer(),
		"maxOutputTokens": integer(), "stopSequences": list(str()), "seed": integer(),
		"presencePenalty": float(), "frequencyPenalty": float(), "responseLogprobs": boolean(), "logprobs": integer(),
		"responseMimeType": str(), "responseSchema": structField(), "responseJsonSchema": value(),
		"responseModalities": list(enum("GenerationConfig.Modality", "MODALITY_UNSPECIFIED", "TEXT", "IMAGE", "AUDIO", "VIDEO")),
		"mediaResolution":    value(), "speechConfig": structField(), "imageConfig": structField(),
		"enableEnhancedCivicAnswers": boolean(), "thinkingConfig": of(thinkingConfigMessage),
	})

	generateRequestMessage = msg("GenerateContentRequest", map[string]*field{
		"model": str(), "contents": list(of(contentMessage)), "systemInstruction": of(contentMessage),
		"tools": list(of(toolMessage)), "toolConfig": of(toolConfigMessage), "safetySettings": list(of(safetySettingMessage)),
		"generationConfig": of(generationConfigMessage), "cachedContent": str(), "labels": labels(),
		"serviceTier": value(), "store": boolean(), "continuationToken": bytesField(),
	})

	countRequestMessage = msg("CountTokensRequest", map[string]*field{
		"contents": list(of(contentMessage)), "generateContentRequest": of(generateRequestMessage),
	})
)
