package sdkwarm

import (
	"context"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// Session opens a session on a new in-memory server, for a warm-up's
// requests; done closes both.
func Session() (sess *session.Session, done func(), err error) {
	srv, err := llmtest.New(llmtest.WithInMemory())
	if err != nil {
		return nil, nil, err
	}
	sess, err = srv.OpenSession()
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return sess, func() { sess.Close(); srv.Close() }, nil
}

// OpenAIGo makes one request of each kind the package's tests make through
// openai-go (chat and Responses, plain and streamed, embeddings, and an
// error) against an in-memory server, and closes the server.
func OpenAIGo() error {
	sess, done, err := Session()
	if err != nil {
		return err
	}
	defer done()
	sess.Chat("warm").When(scenario.UserContains("hi")).Responds("warm").Repeat()
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
	ctx := context.Background()

	chat := openai.ChatCompletionNewParams{Model: openai.ChatModelGPT4_1Mini,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("s"), openai.UserMessage("hi")}}
	if _, err := client.Chat.Completions.New(ctx, chat); err != nil {
		return fmt.Errorf("sdkwarm: chat: %w", err)
	}
	chunks := client.Chat.Completions.NewStreaming(ctx, chat)
	var acc openai.ChatCompletionAccumulator
	for chunks.Next() {
		acc.AddChunk(chunks.Current())
	}
	if err := errors.Join(chunks.Err(), chunks.Close()); err != nil {
		return fmt.Errorf("sdkwarm: chat stream: %w", err)
	}

	resp := responses.ResponseNewParams{Model: openai.ChatModelGPT4_1Mini,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hi")}}
	if _, err := client.Responses.New(ctx, resp); err != nil {
		return fmt.Errorf("sdkwarm: responses: %w", err)
	}
	events := client.Responses.NewStreaming(ctx, resp)
	for events.Next() {
		_ = events.Current()
	}
	if err := errors.Join(events.Err(), events.Close()); err != nil {
		return fmt.Errorf("sdkwarm: responses stream: %w", err)
	}

	if _, err := client.Embeddings.New(ctx, openai.EmbeddingNewParams{Model: openai.EmbeddingModelTextEmbedding3Small,
		Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String("hi")}}); err != nil {
		return fmt.Errorf("sdkwarm: embeddings: %w", err)
	}

	sess.Chat("refused").When(scenario.UserContains("refuse me")).
		Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit}})
	chat.Messages = []openai.ChatCompletionMessageParamUnion{openai.UserMessage("refuse me")}
	var apiErr *openai.Error
	if _, err := client.Chat.Completions.New(ctx, chat); !errors.As(err, &apiErr) {
		return fmt.Errorf("sdkwarm: want an API error, got %v", err)
	}
	return nil
}
