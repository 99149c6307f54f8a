package tokens

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// ordinaryTexts are samples of what prompts hold: prose, code, JSON,
// markdown, numbers, contractions, several scripts and whitespace mixes.
var ordinaryTexts = []string{
	"The quick brown fox jumps over the lazy dog. It's 12:45, isn't it? They'll say we'd've known.",
	"func main() {\n\tfmt.Println(\"hello, world\")\n\tfor i := 0; i < 10; i++ {\n\t\tx[i] = i * 2\n\t}\n}\n",
	`{"model":"gpt-4o","messages":[{"role":"user","content":"Hi!"}],"temperature":0.7,"n":1234567}`,
	"# Title\n\n- item one\n- item two\n\n```python\ndef f(x):\n    return x ** 2\n```\n\n> quoted   text\r\n\r\nEnd.",
	"Prices: $1,234.56 or €7.890,12; call +1 (555) 010-2030 ext. 4. Version v2.10.3-rc1, ID 000123456789.",
	"Ünïcödé façade naïve café — “quotes” ‘single’ … 日本語のテキストです。中文文本。한국어 텍스트. Привет, мир! مرحبا بالعالم",
	"e\u0301 combining marks a\u0308\u0301 and emoji 🎉👩‍👩‍👧 with ZWJ; tabs\tand\u00a0nbsp\u2028line sep",
	"CamelCaseIdentifiersLikeHTTPServerAndJSONDecoder and snake_case_names, /usr/local/bin/go, C:\\Windows\\path",
	"   leading spaces\n\n\n  \t \n indented\n    four\n\t\ttabs   \n \n \n trailing   ",
	"Line one.\n/slash after newline\n.\n/ also\n\n//comment\n",
	"I'M SHOUTING, YOU'RE NOT; 'quoted' 'S 'll 'D o'clock rock'n'roll",
	"https://example.com/a/b?c=d&e=f#g mail@example.org 192.168.0.1:8080",
	"invalid \xff\xfe bytes \xc3 in the middle\xe2\x82",
	strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 40),
}

// randomTexts draws strings from an alphabet of every character class the
// split regexps tell apart, so that all their transitions occur.
func randomTexts(n int) []string {
	alphabet := []string{" ", " ", "\n", "\r", "\t", "\u00a0", "a", "b", "Z", "Q", "é", "\u0301", "中",
		"1", "2", "٣", ".", "!", "/", "'", "s", "t", "re", "ll", "-", "🎉", "\xff"}
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([]string, n)
	for i := range out {
		var sb strings.Builder
		for range 1 + rng.IntN(40) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		out[i] = sb.String()
	}
	return out
}

// piecesAtSafeCuts cuts text at every safe cut.
func piecesAtSafeCuts(text string) []string {
	var out []string
	start := 0
	boundaries(text, func(i int, safe bool) bool {
		if safe {
			out = append(out, text[start:i])
			start = i
		}
		return true
	})
	return out
}

// Tokenizing text piece by piece, cut at every safe cut, gives the very
// tokens the library gives for the whole text.
func TestSafeCutsKeepTheLibrarysTokens(t *testing.T) {
	texts := append(slices.Clone(ordinaryTexts), randomTexts(3000)...)
	for _, enc := range []Encoding{O200kBase, Cl100kBase} {
		c := codec(enc)
		for _, text := range texts {
			_, want, _ := c.Encode(text)
			var got []string
			for _, p := range piecesAtSafeCuts(text) {
				_, toks, _ := c.Encode(p)
				got = append(got, toks...)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %q\n cut: %q\nwhole: %q", enc, text, got, want)
			}
		}
	}
}

// Ordinary text is cut only at safe cuts, so Count agrees with the library.
func TestCountEqualsTheLibraryOnOrdinaryText(t *testing.T) {
	long := strings.Join(ordinaryTexts, "\n\n")
	for _, enc := range []Encoding{O200kBase, Cl100kBase} {
		for _, text := range append(slices.Clone(ordinaryTexts), long, strings.Repeat(long, 5)) {
			want, _ := codec(enc).Count(text)
			if got, err := count(context.Background(), enc, text); got != want || err != nil {
				t.Errorf("%s: count = %d, %v; the library counts %d for %.60q…", enc, got, err, want, text)
			}
		}
	}
}

// pathological are inputs on which the library's regexp is slow or that
// offer no safe cut for long stretches.
var pathological = map[string]string{
	"space newline":   " \n",
	"spaces":          " ",
	"newlines":        "\n",
	"tab crlf":        "\t\r\n",
	"letters":         "a",
	"upper letters":   "A",
	"digits":          "7",
	"punctuation":     "!?.,;:-_=+*&^%$#@~|<>[]{}()",
	"apostrophes":     "a'",
	"ideographs":      "中",
	"marks":           "a\u0301",
	"nbsp newline":    "\u00a0\n",
	"space slash":     " \n/",
	"mixed classes":   "aB1 \n!'",
	"long words":      "Supercalifragilisticexpialidocious" + strings.Repeat("x", 300) + " ",
	"spaces then one": strings.Repeat(" ", 4000) + "x",
}

func TestChunksJoinBackWithinTheBound(t *testing.T) {
	for name, unit := range pathological {
		text := strings.Repeat(unit, (64<<10)/len(unit))
		var got []string
		chunks(text, func(p string) bool {
			if len(p) == 0 || len(p) > maxChunkBytes {
				t.Fatalf("%s: chunk of %d bytes, want 1 to %d", name, len(p), maxChunkBytes)
			}
			got = append(got, p)
			return true
		})
		if strings.Join(got, "") != text {
			t.Errorf("%s: the chunks do not join back to the text", name)
		}
	}
}

// Before the text was cut, " \n" repeated over 128 KiB took 18 s and 1 MiB
// of it minutes: the library's regexp is quadratic on such runs. Linearity
// is the chunk bound's (TestChunksJoinBackWithinTheBound: no chunk handed
// to the library exceeds maxChunkBytes, so each costs at most a constant);
// this counts every pathological input end to end through count, which
// must give a count and no error.
func TestCountsPathologicalInput(t *testing.T) {
	for name, unit := range pathological {
		text := strings.Repeat(unit, (64<<10)/len(unit))
		n, err := count(context.Background(), O200kBase, text)
		if n == 0 || err != nil {
			t.Errorf("%s: count = %d, %v", name, n, err)
		}
	}
	// Runs of " \n" have a safe cut after every newline: their count is
	// still exactly the library's.
	text := strings.Repeat(" \n", 4<<10)
	want, _ := codec(O200kBase).Count(text)
	if got, _ := count(context.Background(), O200kBase, text); got != want {
		t.Errorf(`count of " \n" runs = %d, the library counts %d`, got, want)
	}
}

func TestCountContextStopsWhenCancelled(t *testing.T) {
	cause := errors.New("session deleted")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	text := strings.Repeat(" \n", 1<<20) // minutes of work if it ran
	if _, err := CountContext(ctx, "gpt-4o", text); !errors.Is(err, cause) {
		t.Errorf("CountContext after cancel: err = %v, want the cause %v", err, cause)
	}
	if p, err := SplitContext(ctx, "gpt-4o", text); p != nil || !errors.Is(err, cause) {
		t.Errorf("SplitContext after cancel: %d pieces, err = %v; want none and the cause", len(p), err)
	}
	// Nothing was cached: a live context counts the text for real.
	short := strings.Repeat(" \n", 100)
	if _, err := CountContext(ctx, "gpt-4o", short); err == nil {
		t.Fatal("a cancelled count succeeded")
	}
	if n, err := CountContext(context.Background(), "gpt-4o", short); n != 100 || err != nil {
		t.Errorf("count after a cancelled one = %d, %v; want 100", n, err)
	}
}
