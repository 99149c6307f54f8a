package openai

// The parameters the server knows, per JSON object of a request body, in one
// place. A field outside these lists is refused as the real API refuses it
// (see params_check.go), unless the session allows unknown parameters for
// clients newer than the lists. Every field openai-go v3.98.0 and go-openai
// v1.43.0 can send is listed (the tests walk both SDKs' request types by
// reflection); fields only one SDK sends, such as go-openai's
// chat_template_kwargs and guided_choice (for servers that are not
// OpenAI's), are listed too, so that no SDK call is refused here.
//
// Which nested objects the real API checks is partly seen and partly
// inferred: real bodies show "Unknown parameter" for members of input items
// ('input[0].content', 'input[4].action.query'), and on Chat Completions for
// 'messages[1].tool_calls[0].index'; that tools, text.format, reasoning,
// content parts, response_format and stream_options are checked the same way
// is inferred. Objects whose shape depends on a type this server does not
// model (hosted tools, other item types) are not looked into.

// chatParams are the top-level fields of POST /v1/chat/completions.
var chatParams = fieldSpec(
	"audio", "chat_template_kwargs", "frequency_penalty", "function_call", "functions", "guided_choice", "logit_bias",
	"logprobs", "max_completion_tokens", "max_tokens", "messages", "metadata", "modalities", "model",
	"moderation", "n", "parallel_tool_calls", "prediction", "presence_penalty", "prompt_cache_key",
	"prompt_cache_options", "prompt_cache_retention", "reasoning_effort", "response_format",
	"safety_identifier", "seed", "service_tier", "stop", "store", "stream", "stream_options",
	"temperature", "tool_choice", "tools", "top_logprobs", "top_p", "user", "verbosity",
	"web_search_options",
).with("messages", fieldSpec(
	// One list for every role: fields of another role are the role
	// checks' business, not an unknown parameter. annotations is on every
	// answer's message, and users of the Node and Python SDKs send that
	// message back whole; that the real API takes it is inferred from how
	// common that is.
	"annotations", "audio", "content", "function_call", "name", "reasoning_content", "refusal", "role",
	"tool_call_id", "tool_calls",
).with("content", fieldSpec(
	"file", "image_url", "input_audio", "prompt_cache_breakpoint", "refusal", "text", "type",
).with("image_url", fieldSpec("detail", "url")).
	with("input_audio", fieldSpec("data", "format")).
	with("file", fieldSpec("file_data", "file_id", "filename")),
).with("tool_calls", fieldSpec(
	// index is what a streamed tool call delta carries; go-openai keeps it
	// on the ToolCall a caller sends back.
	"custom", "function", "id", "index", "type",
).with("function", fieldSpec("arguments", "name")).
	with("custom", fieldSpec("input", "name")),
)).with("tools", fieldSpec("custom", "function", "type").
	with("function", fieldSpec("description", "name", "parameters", "strict")).
	with("custom", fieldSpec("description", "format", "name")),
).with("response_format", fieldSpec("json_schema", "type").
	with("json_schema", fieldSpec("description", "name", "schema", "strict")),
).with("stream_options", fieldSpec("include_obfuscation", "include_usage"))

// responsesParams are the top-level fields of POST /v1/responses. messages,
// reasoning_effort and response_format are Chat Completions' fields, which
// the API refuses with a hint of their own rather than as unknown.
var responsesParams = fieldSpec(
	"access_programs", "background", "background_options", "context_management", "conversation", "image", "include", "input",
	"instructions", "max_output_tokens", "max_tool_calls", "messages", "metadata", "model", "moderation",
	"parallel_tool_calls", "previous_response_id", "prompt", "prompt_cache_key", "prompt_cache_options",
	"prompt_cache_retention", "reasoning", "reasoning_effort", "response_format", "safety_identifier",
	"service_tier", "store", "stream", "stream_options", "temperature", "text", "tool_choice", "tools",
	"top_logprobs", "top_p", "truncation", "user",
).with("input", typedSpec("message", map[string]*objectSpec{
	"message": fieldSpec("content", "id", "phase", "role", "status", "type").
		with("content", responsesPartSpec),
	"function_call": fieldSpec("arguments", "async", "call_id", "caller", "id", "name", "namespace", "status", "type"),
	"function_call_output": fieldSpec("call_id", "caller", "id", "name", "namespace", "output", "status", "type").
		with("output", responsesPartSpec),
	"item_reference": fieldSpec("id", "type"),
	// created_by is on the compaction item the API outputs, which clients
	// send back whole.
	"compaction": fieldSpec("created_by", "encrypted_content", "id", "type"),
})).with("tools", typedSpec("", map[string]*objectSpec{
	"function": fieldSpec("allowed_callers", "async", "defer_loading", "description", "name",
		"output_schema", "parameters", "strict", "type"),
})).with("text", fieldSpec("format", "verbosity").
	with("format", fieldSpec("description", "name", "schema", "strict", "type")),
).with("reasoning", fieldSpec("context", "effort", "generate_summary", "mode", "summary")).
	with("stream_options", fieldSpec("include_obfuscation")).
	with("background_options", fieldSpec("completion_window", "continuation_id"))

// compactParams are the top-level fields of POST /v1/responses/compact
// (openai-go's ResponseCompactParams), its input items checked as those of
// POST /v1/responses.
var compactParams = fieldSpec(
	"image", "input", "instructions", "model", "previous_response_id", "prompt_cache_key",
	"prompt_cache_options", "prompt_cache_retention", "service_tier",
).with("input", responsesParams.fields["input"]).
	with("image", fieldSpec("context_compression")).
	with("prompt_cache_options", fieldSpec("mode", "ttl"))

// responsesPartSpec lists the fields of the content parts of a message (and
// of a function_call_output's output), one list for every part type.
var responsesPartSpec = fieldSpec(
	"annotations", "detail", "file_data", "file_id", "file_url", "filename", "image_url", "logprobs",
	"prompt_cache_breakpoint", "refusal", "text", "type",
)

// responsesMovedParams are Chat Completions parameters the Responses API
// refuses with the name of their new place, in the real API's words (seen
// for reasoning_effort and response_format; messages worded the same,
// with the closing sentence on the documentation, is inferred).
var responsesMovedParams = map[string]string{
	"messages":         "input",
	"reasoning_effort": "reasoning.effort",
	"response_format":  "text.format",
}
