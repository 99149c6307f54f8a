package openai

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sdkModelTypes are the openai-go types whose constants name the models the
// catalog must serve; audio, realtime, image, speech and transcription
// models are out of its scope.
var sdkModelTypes = map[string]ModelKind{
	"ChatModel":      "", // chat or reasoning
	"ResponsesModel": "",
	"EmbeddingModel": KindEmbedding,
	"VideoModel":     KindVideo,
}

// sdkModels reads the model constants of the openai-go module this module
// builds with from its source, so that a newer SDK's models fail the test
// until the catalog has them.
func sdkModels(t *testing.T) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-json", "github.com/openai/openai-go/v3").Output()
	require.NoError(t, err, "go list of openai-go")
	var mod struct{ Dir, Version string }
	require.NoError(t, json.Unmarshal(out, &mod))
	require.NotEmpty(t, mod.Dir, "openai-go %s is not in the module cache", mod.Version)
	files, err := filepath.Glob(filepath.Join(mod.Dir, "*.go"))
	require.NoError(t, err)
	shared, err := filepath.Glob(filepath.Join(mod.Dir, "shared", "*.go"))
	require.NoError(t, err)
	models := map[string]string{} // model ID -> its type
	fset := token.NewFileSet()
	for _, name := range append(files, shared...) {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				typ, ok := vs.Type.(*ast.Ident)
				if !ok {
					continue
				}
				if _, wanted := sdkModelTypes[typ.Name]; !wanted {
					continue
				}
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						id, err := strconv.Unquote(lit.Value)
						require.NoError(t, err)
						models[id] = typ.Name
					}
				}
			}
		}
	}
	require.Greater(t, len(models), 100, "too few model constants found in %s: has the SDK moved them?", mod.Dir)
	return models
}

func TestCatalogServesTheSDKModels(t *testing.T) {
	for id, typ := range sdkModels(t) {
		info, ok := LookupModel(id)
		if !assert.True(t, ok, "openai-go's %s %q is not in the catalog", typ, id) {
			continue
		}
		switch want := sdkModelTypes[typ]; want {
		case "":
			assert.Contains(t, []ModelKind{KindChat, KindReasoning}, info.Kind, "%s %q", typ, id)
		default:
			assert.Equal(t, want, info.Kind, "%s %q", typ, id)
		}
	}
}

// Every alias points to a snapshot of its own family, which points to
// itself and names the alias; a model without snapshots is its own.
func TestCatalogSnapshots(t *testing.T) {
	for _, id := range CatalogIDs() {
		info, _ := LookupModel(id)
		snap, ok := LookupModel(info.Snapshot)
		require.True(t, ok, "%s points to %q, outside the catalog", id, info.Snapshot)
		assert.Equal(t, snap.ID, snap.Snapshot, "%s: a snapshot is its own", snap.ID)
		if info.Alias != "" {
			assert.Equal(t, id, info.Snapshot, "%s is a snapshot", id)
			alias, ok := LookupModel(info.Alias)
			require.True(t, ok)
			assert.Equal(t, info.Kind, alias.Kind, "%s: kind of its alias", id)
			assert.Empty(t, alias.Alias, "%s: alias of an alias", id)
		} else if info.Snapshot != id {
			assert.Equal(t, id, snap.Alias, "%s points to a snapshot of another family", id)
		}
	}
	for alias, want := range map[string]string{
		"gpt-4o-mini": "gpt-4o-mini-2024-07-18", "gpt-5": "gpt-5-2025-08-07", "gpt-4.1-mini": "gpt-4.1-mini-2025-04-14",
		"gpt-4o": "gpt-4o-2024-08-06", "o3": "o3-2025-04-16", "gpt-5.5": "gpt-5.5-2026-04-23",
		"gpt-5-2025-08-07": "gpt-5-2025-08-07", "gpt-5-chat-latest": "gpt-5-chat-latest",
		"text-embedding-3-small": "text-embedding-3-small", "ft:gpt-4o:acme::x": "ft:gpt-4o:acme::x",
	} {
		assert.Equal(t, want, SnapshotOf(alias), "SnapshotOf(%q)", alias)
	}
	assert.Equal(t, "gpt-4o", AliasOf("gpt-4o-2024-05-13"))
	assert.Empty(t, AliasOf("gpt-4o"))
}

// The o-series and the GPT-5 and later families reason; the -chat-latest
// models and GPT-4 and earlier do not.
func TestCatalogKinds(t *testing.T) {
	for id, want := range map[string]ModelKind{
		"gpt-5": KindReasoning, "gpt-5-2025-08-07": KindReasoning, "gpt-5.1": KindReasoning, "gpt-6-sol": KindReasoning,
		"o1-mini": KindReasoning, "o4-mini-deep-research": KindReasoning, "gpt-5.5-pro": KindReasoning,
		"gpt-5-chat-latest": KindChat, "gpt-5.2-chat-latest": KindChat, "chatgpt-4o-latest": KindChat,
		"gpt-4o-mini-2024-07-18": KindChat, "gpt-4o-audio-preview": KindChat, "gpt-3.5-turbo-0125": KindChat,
		"sora-2-2025-10-06": KindVideo,
	} {
		info, ok := LookupModel(id)
		require.True(t, ok, id)
		assert.Equal(t, want, info.Kind, id)
	}
	for id, window := range map[string]int{"gpt-3.5-turbo-0613": 4096, "gpt-3.5-turbo": 16385, "gpt-5.5-2026-04-23": 1050000} {
		info, _ := LookupModel(id)
		assert.Equal(t, window, info.ContextWindow, id)
	}
}
