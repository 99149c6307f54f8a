package sdkwarm_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/sdkwarm"
)

func TestOpenAIGo(t *testing.T) {
	if err := sdkwarm.OpenAIGo(); err != nil {
		t.Fatal(err)
	}
}
