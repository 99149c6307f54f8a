package anthropicsdk_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/anthropic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sdkDir is the directory of the anthropic-sdk-go this module builds with.
func sdkDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/anthropics/anthropic-sdk-go/v2").Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// sdkConstants are the string values of the constants of type typ that
// file of the SDK declares.
func sdkConstants(t *testing.T, file, typ string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(sdkDir(t), file), nil, 0)
	require.NoError(t, err)
	var values []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != typ {
				continue
			}
			for _, v := range vs.Values {
				if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, err := strconv.Unquote(lit.Value)
					require.NoError(t, err)
					values = append(values, s)
				}
			}
		}
	}
	return values
}

// The anthropic-beta values the server accepts are exactly the SDK's
// AnthropicBeta constants (plus the Node SDK's own): a beta a newer SDK
// adds fails here before a user's request is refused for it.
func TestKnownBetasAreTheSDKs(t *testing.T) {
	t.Parallel()
	sdk := sdkConstants(t, "beta.go", "AnthropicBeta")
	require.NotEmpty(t, sdk)
	slices.Sort(sdk)
	ours := anthropic.SDKBetas()
	slices.Sort(ours)
	assert.Equal(t, sdk, ours)
}
