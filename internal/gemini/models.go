package gemini

import "strings"

// Methods a model supports, as the models API lists them
// (supportedGenerationMethods).
const (
	methodGenerate      = "generateContent"
	methodCount         = "countTokens"
	methodCache         = "createCachedContent"
	methodBatchGenerate = "batchGenerateContent"
	methodEmbed         = "embedContent"
	methodAsyncEmbed    = "asyncBatchEmbedContent"
	methodBidi          = "bidiGenerateContent"
)

// ModelInfo describes one Gemini model: what the models API lists, the
// limits requests are checked against, and the shortest prefix implicit
// caching reports.
type ModelInfo struct {
	ID, DisplayName, Description string
	// Version is the model's version ("001" for a stable model, "3.1-pro-preview-…"
	// for a preview, as the API lists them).
	Version string
	// InputTokenLimit is the context window the prompt must fit;
	// OutputTokenLimit the largest maxOutputTokens.
	InputTokenLimit, OutputTokenLimit int
	// Methods are the supported generation methods.
	Methods []string
	// Thinking reports a thinking model: it spends thoughtsTokenCount and
	// shows its thoughts when thinkingConfig.includeThoughts asks.
	Thinking bool
	// MinCacheTokens is the shortest prompt prefix implicit caching
	// reports; 0 for a model without it.
	MinCacheTokens int
	// Dimensions is an embedding model's default vector length.
	Dimensions int
	// AliasOf is the model an alias (gemini-flash-latest) points at.
	AliasOf string
}

var (
	generative = []string{methodGenerate, methodCount, methodCache, methodBatchGenerate}
	imaging    = []string{methodGenerate, methodCount, methodBatchGenerate}
	embedding  = []string{methodEmbed, methodCount, methodAsyncEmbed}
	live       = []string{methodBidi, methodCount}
)

// catalog is the Gemini lineup as genai v1.77.0 names it (its docs, tests
// and the interactions Model enum; wire.md Part 3 §8), the models the
// Gemini API listed in December 2026. Token limits are the model pages':
// 1,048,576 in and 65,536 out for the text models; the image, speech,
// robotics and omni models' limits, which no page we could read gives, are
// inferred from their families, as are the descriptions and versions.
// gemini-4-argon shares one budget between input and output (its page);
// its output limit is the streamed segment's. Implicit caching starts at
// 2,048 tokens on 2.5 and 4,096 on 3.x and 4 (the caching docs).
var releases = []ModelInfo{
	text("gemini-2.5-flash", "Gemini 2.5 Flash", "001", true, 2048),
	text("gemini-2.5-pro", "Gemini 2.5 Pro", "2.5", true, 2048),
	text("gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", "001", true, 2048),
	image("gemini-2.5-flash-image", "Nano Banana", 32_768, 32_768),
	text("gemini-3-flash-preview", "Gemini 3 Flash Preview", "3-flash-preview-12-2025", true, 4096),
	text("gemini-3-pro-preview", "Gemini 3 Pro Preview", "3-pro-preview-11-2025", true, 4096),
	image("gemini-3-pro-image", "Nano Banana Pro", 65_536, 32_768),
	text("gemini-3.1-pro-preview", "Gemini 3.1 Pro Preview", "3.1-pro-preview-02-2026", true, 4096),
	text("gemini-3.1-pro-preview-customtools", "Gemini 3.1 Pro Preview Custom Tools", "3.1-pro-preview-02-2026", true, 4096),
	text("gemini-3.1-flash-lite", "Gemini 3.1 Flash-Lite", "001", true, 4096),
	image("gemini-3.1-flash-lite-image", "Gemini 3.1 Flash-Lite Image", 65_536, 32_768),
	image("gemini-3.1-flash-image", "Nano Banana 2", 131_072, 32_768),
	speech("gemini-3.1-flash-tts-preview", "Gemini 3.1 Flash TTS Preview"),
	text("gemini-3.5-flash", "Gemini 3.5 Flash", "001", true, 4096),
	text("gemini-3.5-flash-lite", "Gemini 3.5 Flash-Lite", "001", true, 4096),
	text("gemini-3.6-flash", "Gemini 3.6 Flash", "001", true, 4096),
	text("gemini-3.7-flash", "Gemini 3.7 Flash", "001", true, 4096),
	text("gemini-3.8-flash", "Gemini 3.8 Flash", "001", true, 4096),
	speech("gemini-3.8-flash-tts", "Gemini 3.8 Flash TTS"),
	speech("gemini-3.8-flash-lite-tts", "Gemini 3.8 Flash-Lite TTS"),
	text("gemini-4-argon", "Gemini 4 Argon", "001", true, 4096),
	image("gemini-nano-banana-2.1", "Nano Banana 2.1", 131_072, 32_768),
	text("gemini-omni-1.1-flash", "Gemini Omni 1.1 Flash", "001", true, 4096),
	text("gemini-omni-flash-preview", "Gemini Omni Flash Preview", "omni-flash-preview", true, 4096),
	text("gemini-robotics-er-1.6-preview", "Gemini Robotics-ER 1.6 Preview", "1.6-preview", true, 4096),
	text("gemini-robotics-er-2-preview", "Gemini Robotics-ER 2 Preview", "2-preview", true, 4096),
	{ID: "gemini-embedding-001", DisplayName: "Gemini Embedding 001", Version: "001", Description: "Obtain a distributed representation of a text.",
		InputTokenLimit: 2048, OutputTokenLimit: 1, Methods: embedding, Dimensions: 3072},
	{ID: "gemini-embedding-2-preview", DisplayName: "Gemini Embedding 2 Preview", Version: "2-preview", Description: "Obtain a distributed representation of text, images, audio and video.",
		InputTokenLimit: 8192, OutputTokenLimit: 1, Methods: embedding, Dimensions: 3072},
	{ID: "gemini-live-2.5-flash-native-audio", DisplayName: "Gemini 2.5 Flash Live Native Audio", Version: "001", Description: "Low-latency bidirectional voice and video.",
		InputTokenLimit: 131_072, OutputTokenLimit: 8192, Methods: live, Thinking: true},
}

func text(id, name, version string, thinking bool, minCache int) ModelInfo {
	return ModelInfo{ID: id, DisplayName: name, Version: version, Description: name + ", a multimodal model that supports up to 1 million tokens.",
		InputTokenLimit: 1_048_576, OutputTokenLimit: 65_536, Methods: generative, Thinking: thinking, MinCacheTokens: minCache}
}

func image(id, name string, in, out int) ModelInfo {
	return ModelInfo{ID: id, DisplayName: name, Version: "001", Description: name + ", a model that generates and edits images.",
		InputTokenLimit: in, OutputTokenLimit: out, Methods: imaging}
}

func speech(id, name string) ModelInfo {
	return ModelInfo{ID: id, DisplayName: name, Version: "001", Description: name + ", a text-to-speech model.",
		InputTokenLimit: 8192, OutputTokenLimit: 16_384, Methods: imaging}
}

// catalog is the releases and then the aliases the API serves, each
// described as the model it points at (inferred: the API lists the
// aliases with their target's limits).
var catalog = withAliases(releases, [][3]string{
	{"gemini-flash-latest", "Gemini Flash Latest", "gemini-3.8-flash"},
	{"gemini-flash-lite-latest", "Gemini Flash-Lite Latest", "gemini-3.5-flash-lite"},
	{"gemini-pro-latest", "Gemini Pro Latest", "gemini-3.1-pro-preview"},
})

func withAliases(models []ModelInfo, aliases [][3]string) []ModelInfo {
	out := append([]ModelInfo(nil), models...)
	for _, a := range aliases {
		for _, m := range models {
			if m.ID == a[2] {
				m.ID, m.DisplayName, m.AliasOf = a[0], a[1], a[2]
				m.Description = "Latest release of " + strings.TrimSuffix(a[1], " Latest") + " (" + a[2] + ")."
				out = append(out, m)
			}
		}
	}
	return out
}

// lookup finds id in the catalog.
func lookup(id string) (ModelInfo, bool) {
	for _, m := range catalog {
		if m.ID == id {
			return m, true
		}
	}
	return ModelInfo{}, false
}

// Lookup returns the model an ID names; "models/x" names x.
func Lookup(id string) (ModelInfo, bool) {
	return lookup(strings.TrimPrefix(id, "models/"))
}

// Supports reports whether m supports method.
func (m ModelInfo) Supports(method string) bool {
	for _, s := range m.Methods {
		if s == method {
			return true
		}
	}
	return false
}

// CatalogIDs lists every ID the catalog serves, in the catalog's order.
func CatalogIDs() []string {
	ids := make([]string, len(catalog))
	for i, m := range catalog {
		ids[i] = m.ID
	}
	return ids
}

// catalogIDs is the catalog's IDs, listed once.
var catalogIDs = CatalogIDs()
