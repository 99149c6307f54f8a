package e2e

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// ClientFor returns an openai-go client that talks to sess with apiKey and
// never retries, so every call is one request.
func ClientFor(sess *session.Session, apiKey string) openai.Client {
	return openai.NewClient(
		option.WithBaseURL(sess.BaseURL()),
		option.WithAPIKey(apiKey),
		option.WithHTTPClient(sess.HTTPClient()),
		option.WithMaxRetries(0))
}

// UserTurn builds chat parameters with one user message.
func UserTurn(model, text string) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:    model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(text)},
	}
}

// ChatTool is a chat function tool of this name, without parameters.
func ChatTool(name string) openai.ChatCompletionToolUnionParam {
	return openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: name})
}

// StructuredParams builds chat parameters with one user message that ask
// for a strict json_schema answer: the weather in a city.
func StructuredParams(user string) openai.ChatCompletionNewParams {
	p := UserTurn(ReplyModel, user)
	p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
		OfJSONSchema: &openai.ResponseFormatJSONSchemaParam{JSONSchema: openai.ResponseFormatJSONSchemaJSONSchemaParam{
			Name: "weather", Schema: weatherSchema(), Strict: openai.Bool(true),
		}},
	}
	return p
}

// weatherSchema is the structured output StructuredParams asks for, made
// anew for each request so that no test can change another's.
func weatherSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"city":  map[string]any{"type": "string"},
			"temp":  map[string]any{"type": "number"},
			"sunny": map[string]any{"type": "boolean"},
		},
		"required":             []string{"city", "temp", "sunny"},
		"additionalProperties": false,
	}
}

// ReadChatStream reads a whole openai-go chat stream into an accumulator
// and returns it with the chunks' content deltas.
func ReadChatStream(t testing.TB, s interface {
	Next() bool
	Current() openai.ChatCompletionChunk
	Err() error
	Close() error
}) (openai.ChatCompletionAccumulator, []string) {
	t.Helper()
	defer s.Close()
	var acc openai.ChatCompletionAccumulator
	var deltas []string
	for s.Next() {
		chunk := s.Current()
		if !acc.AddChunk(chunk) {
			t.Fatalf("the accumulator refused chunk %s", chunk.RawJSON())
		}
		if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
			deltas = append(deltas, chunk.Choices[0].Delta.Content)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return acc, deltas
}

// OpenAIError returns err as openai-go's API error, failing the test if it
// is nil or not one.
func OpenAIError(t testing.TB, err error) *openai.Error {
	t.Helper()
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v (%T), want *openai.Error", err, err)
	}
	return apiErr
}

// OpenAIAPI is one of openai-go's two conversational APIs, called once,
// streamed or not: Call returns the text received and the call's error.
type OpenAIAPI struct {
	Name string
	Call func(ctx context.Context, c openai.Client, stream bool) (string, error)
}

// OpenAIAPIs returns chat completions and Responses, so that a test of
// what any conversational request meets (a fault, a rate limit) runs over
// both.
func OpenAIAPIs() []OpenAIAPI {
	return []OpenAIAPI{
		{"chat", func(ctx context.Context, c openai.Client, stream bool) (string, error) {
			params := UserTurn("gpt-4o-mini", "Hi")
			if !stream {
				out, err := c.Chat.Completions.New(ctx, params)
				if err != nil {
					return "", err
				}
				return out.Choices[0].Message.Content, nil
			}
			s := c.Chat.Completions.NewStreaming(ctx, params)
			defer s.Close()
			var text strings.Builder
			for s.Next() {
				if ch := s.Current(); len(ch.Choices) > 0 {
					text.WriteString(ch.Choices[0].Delta.Content)
				}
			}
			return text.String(), s.Err()
		}},
		{"responses", func(ctx context.Context, c openai.Client, stream bool) (string, error) {
			params := responses.ResponseNewParams{Model: "gpt-4.1-mini",
				Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}}
			if !stream {
				out, err := c.Responses.New(ctx, params)
				if err != nil {
					return "", err
				}
				return out.OutputText(), nil
			}
			s := c.Responses.NewStreaming(ctx, params)
			defer s.Close()
			var text strings.Builder
			for s.Next() {
				ev := s.Current()
				switch ev.Type {
				case "response.output_text.delta":
					text.WriteString(ev.Delta)
				case "response.failed":
					f := ev.AsResponseFailed().Response.Error
					return text.String(), errors.New("response.failed: " + string(f.Code) + ": " + f.Message)
				}
			}
			return text.String(), s.Err()
		}},
	}
}
