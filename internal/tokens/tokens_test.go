package tokens

import (
	"strings"
	"testing"
)

func TestCountKnownStrings(t *testing.T) {
	tests := []struct {
		name, model, text string
		want              int
	}{
		{"o200k hello world", "gpt-4o", "hello world", 2},
		{"cl100k hello world", "gpt-4", "hello world", 2},
		{"o200k sentence", "gpt-4.1-mini", "The quick brown fox jumps over the lazy dog.", 10},
		{"empty", "gpt-4o", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Count(tt.model, tt.text); got != tt.want {
				t.Errorf("Count(%q, %q) = %d, want %d", tt.model, tt.text, got, tt.want)
			}
		})
	}
}

func TestEncodingFor(t *testing.T) {
	for model, want := range map[string]Encoding{
		"gpt-4.1-mini": O200kBase, "gpt-4o-mini": O200kBase, "gpt-5": O200kBase, "o3-mini": O200kBase,
		"gpt-4-turbo": Cl100kBase, "gpt-3.5-turbo": Cl100kBase, "text-embedding-3-small": Cl100kBase,
		"some-custom-model": O200kBase,
	} {
		if got := EncodingFor(model); got != want {
			t.Errorf("EncodingFor(%q) = %s, want %s", model, got, want)
		}
	}
}

func TestSplitJoinsBack(t *testing.T) {
	text := "Streaming replies arrive token by token — even émojis 🎉 survive."
	pieces := Split("gpt-4o", text)
	if len(pieces) < 5 {
		t.Fatalf("Split gave %d pieces, want a piece per token", len(pieces))
	}
	if got := strings.Join(pieces, ""); got != text {
		t.Errorf("joined pieces = %q, want %q", got, text)
	}
}

func TestCountIsCached(t *testing.T) {
	text := strings.Repeat("cache me if you can ", 50)
	first := Count("gpt-4o", text)
	if allocs := testing.AllocsPerRun(50, func() { Count("gpt-4o", text) }); allocs != 0 {
		t.Errorf("a cached count allocates %v times", allocs)
	}
	if again := Count("gpt-4o", text); again != first {
		t.Errorf("cached count %d, first count %d", again, first)
	}
	if other := Count("gpt-4", text); other == 0 {
		t.Error("the cache confused encodings")
	}
}

func TestSplitIsCached(t *testing.T) {
	text := strings.Repeat("split me once ", 40)
	first := Split("gpt-4o", text)
	if allocs := testing.AllocsPerRun(50, func() { Split("gpt-4o", text) }); allocs != 0 {
		t.Errorf("a cached split allocates %v times", allocs)
	}
	if got := strings.Join(Split("gpt-4o", text), ""); got != text || len(Split("gpt-4o", text)) != len(first) {
		t.Error("the cached split differs from the first")
	}
}
