// Package gemini holds runnable examples of llmtestserver with Google's Go
// SDK for Gemini, google.golang.org/genai. It is a module of its own so that
// the SDK never enters the module graph of a user of llmtestserver.
//
// The SDK appends its API version (v1 by default from genai v1.78.0 on,
// v1beta before) to its base URL itself, so a client is pointed at the session's GeminiBaseURL; a client
// that brings its own HTTPClient needs no Google credentials:
//
//	client, err := genai.NewClient(ctx, &genai.ClientConfig{
//		APIKey:      "provider-key",
//		Backend:     genai.BackendGeminiAPI,
//		HTTPClient:  sess.HTTPClient(),
//		HTTPOptions: genai.HTTPOptions{BaseURL: sess.GeminiBaseURL()},
//	})
package gemini
