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
	// The two encodings cut this text differently, so a cache that confused
	// them would answer one encoding with the other's count.
	text := strings.Repeat("日本語のテキストです。 naïve façade — cache me if you can! ", 20)
	o200k, _ := codec(O200kBase).Count(text)
	cl100k, _ := codec(Cl100kBase).Count(text)
	if o200k == cl100k {
		t.Fatalf("both encodings count %d tokens: pick a text they count differently", o200k)
	}
	if got := Count("gpt-4o", text); got != o200k {
		t.Errorf("o200k count = %d, want %d", got, o200k)
	}
	if allocs := testing.AllocsPerRun(50, func() { Count("gpt-4o", text) }); allocs != 0 {
		t.Errorf("a cached count allocates %v times", allocs)
	}
	if got := Count("gpt-4", text); got != cl100k {
		t.Errorf("cl100k count after the o200k one was cached = %d, want %d: the cache confused encodings", got, cl100k)
	}
	if got := Count("gpt-4o", text); got != o200k {
		t.Errorf("cached o200k count = %d, want %d", got, o200k)
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
