package rootmodule_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allowed are the root module's direct requirements, as the design names
// them.
var allowed = []string{
	"github.com/google/uuid",
	"github.com/openai/openai-go/v3",
	"github.com/stretchr/testify",
	"github.com/tiktoken-go/tokenizer",
}

// kept out are modules that must not appear anywhere in the root module's
// go.mod or go.sum.
var keptOut = []string{
	"github.com/sashabaranov/go-openai",
	"github.com/anthropics/anthropic-sdk-go",
	"go.uber.org/goleak",
}

func TestRootModuleRequiresOnlyTheDesignsModules(t *testing.T) {
	out, err := exec.Command("go", "mod", "edit", "-json", "../../go.mod").Output()
	require.NoError(t, err)
	var mod struct {
		Module  struct{ Path string }
		Require []struct {
			Path     string
			Indirect bool
		}
	}
	require.NoError(t, json.Unmarshal(out, &mod))
	require.Equal(t, "github.com/llmtestserver/llmtestserver", mod.Module.Path)

	var direct []string
	for _, r := range mod.Require {
		if !r.Indirect {
			direct = append(direct, r.Path)
		}
	}
	slices.Sort(direct)
	assert.Equal(t, allowed, direct)
}

func TestRootModuleGraphLacksTheCompatSDKs(t *testing.T) {
	for _, file := range []string{"../../go.mod", "../../go.sum"} {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		for _, path := range keptOut {
			assert.False(t, strings.Contains(string(data), path), "%s mentions %s", file, path)
		}
	}
}
