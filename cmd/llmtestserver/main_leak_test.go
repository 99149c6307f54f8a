package main

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

// TestMain fails the package if a test leaves a goroutine behind, such as
// an eviction loop that outlives its server.
func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
