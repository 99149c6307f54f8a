package openai_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
)

func TestModelsRoutes(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.OnlyModels("gpt-4.1-mini", "my-fine-tune"))
	client := e2e.ClientFor(sess, "k")
	page, err := client.Models.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range page.Data {
		ids = append(ids, m.ID)
	}
	if strings.Join(ids, ",") != "gpt-4.1-mini,my-fine-tune" {
		t.Errorf("models = %v, want the session's two", ids)
	}
	m, err := client.Models.Get(context.Background(), "gpt-4.1-mini")
	if err != nil || m.ID != "gpt-4.1-mini" || m.OwnedBy != "system" || m.Created == 0 {
		t.Errorf("Get = %+v, %v", m, err)
	}
	_, err = client.Models.Get(context.Background(), "gpt-4o")
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Code != "model_not_found" {
		t.Errorf("unserved model: %v, want 404 model_not_found", err)
	}
}
