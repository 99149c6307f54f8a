package dashboard

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
