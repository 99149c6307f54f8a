package openai

import "time"

// The catalog: every chat, reasoning, embedding and video model that
// openai-go v3.102.0's model constants name (shared.ChatModel*,
// shared.ResponsesModel*, EmbeddingModel*, VideoModel*), each alias with the
// dated snapshots the SDK names for it. TestCatalogServesTheSDKModels fails
// when the SDK names a model the catalog lacks.
//
// Where the real values are known (the models of 2024 and 2025, and
// gpt-5.4 onwards from OpenAI's model pages: 1,050,000 tokens of context
// and 128,000 of output), they are used. Inferred, and marked so below:
// the limits of models no page describes (taken from their family), the
// snapshot an alias points to where the SDK names several, and the created
// times of models added here, which are the release day at midnight UTC
// rather than the second the real list reports.
var catalogFamilies = []family{
	// GPT-4.1 and GPT-4o: chat models.
	chat("gpt-4.1", 1744316542, 1047576, 32768, at("gpt-4.1-2025-04-14")),
	chat("gpt-4.1-mini", 1744318173, 1047576, 32768, at("gpt-4.1-mini-2025-04-14")),
	chat("gpt-4.1-nano", 1744321707, 1047576, 32768, at("gpt-4.1-nano-2025-04-14")),
	chat("gpt-4o", 1715367049, 128000, 16384, at("gpt-4o-2024-08-06"), at("gpt-4o-2024-11-20"),
		snapshot{id: "gpt-4o-2024-05-13", output: 4096}),
	chat("gpt-4o-mini", 1721172741, 128000, 16384, at("gpt-4o-mini-2024-07-18")),
	chat("chatgpt-4o-latest", day("2024-08-13"), 128000, 16384),
	// The audio and search previews are chat models too. Which snapshot
	// gpt-4o-audio-preview and gpt-audio-mini point to is inferred (the
	// newest the SDK names).
	chat("gpt-4o-audio-preview", day("2024-10-01"), 128000, 16384,
		at("gpt-4o-audio-preview-2025-06-03"), at("gpt-4o-audio-preview-2024-12-17"), at("gpt-4o-audio-preview-2024-10-01")),
	chat("gpt-4o-mini-audio-preview", day("2024-12-17"), 128000, 16384, at("gpt-4o-mini-audio-preview-2024-12-17")),
	chat("gpt-audio-mini", day("2025-10-06"), 128000, 16384, at("gpt-audio-mini-2025-12-15")),
	chat("gpt-4o-search-preview", day("2025-03-11"), 128000, 16384, at("gpt-4o-search-preview-2025-03-11")),
	chat("gpt-4o-mini-search-preview", day("2025-03-11"), 128000, 16384, at("gpt-4o-mini-search-preview-2025-03-11")),
	// The -chat-latest models are the non-reasoning models of ChatGPT.
	chat("gpt-5-chat-latest", day("2025-08-07"), 128000, 16384),
	chat("gpt-5.1-chat-latest", day("2025-11-13"), 128000, 16384),
	chat("gpt-5.2-chat-latest", day("2025-12-11"), 128000, 16384),
	chat("gpt-5.3-chat-latest", day("2026-03-03"), 128000, 16384), // limits and date inferred from gpt-5.2-chat-latest

	// The o-series: reasoning models.
	reasoning("o1", 1734375816, 200000, 100000, at("o1-2024-12-17")),
	reasoning("o1-preview", day("2024-09-12"), 128000, 32768, at("o1-preview-2024-09-12")),
	reasoning("o1-mini", day("2024-09-12"), 128000, 65536, at("o1-mini-2024-09-12")),
	reasoning("o1-pro", day("2025-03-19"), 200000, 100000, at("o1-pro-2025-03-19")),
	reasoning("o3", 1744225308, 200000, 100000, at("o3-2025-04-16")),
	reasoning("o3-mini", 1737146383, 200000, 100000, at("o3-mini-2025-01-31")),
	reasoning("o3-pro", day("2025-06-10"), 200000, 100000, at("o3-pro-2025-06-10")),
	reasoning("o3-deep-research", day("2025-06-26"), 200000, 100000, at("o3-deep-research-2025-06-26")),
	reasoning("o4-mini", 1744225351, 200000, 100000, at("o4-mini-2025-04-16")),
	reasoning("o4-mini-deep-research", day("2025-06-26"), 200000, 100000, at("o4-mini-deep-research-2025-06-26")),
	reasoning("codex-mini-latest", day("2025-05-16"), 200000, 100000),
	// computer-use-preview answers with reasoning items; its kind is
	// inferred from that.
	reasoning("computer-use-preview", day("2025-03-11"), 8192, 1024, at("computer-use-preview-2025-03-11")),

	// The GPT-5 family: reasoning models.
	reasoning("gpt-5", 1754425777, 400000, 128000, at("gpt-5-2025-08-07")),
	reasoning("gpt-5-mini", 1754425928, 400000, 128000, at("gpt-5-mini-2025-08-07")),
	reasoning("gpt-5-nano", 1754426384, 400000, 128000, at("gpt-5-nano-2025-08-07")),
	reasoning("gpt-5-codex", day("2025-09-15"), 400000, 128000),
	reasoning("gpt-5-pro", day("2025-10-06"), 400000, 272000, at("gpt-5-pro-2025-10-06")),
	reasoning("gpt-5.1", day("2025-11-13"), 400000, 128000, at("gpt-5.1-2025-11-13")),
	reasoning("gpt-5.1-codex", day("2025-11-13"), 400000, 128000),
	reasoning("gpt-5.1-codex-max", day("2025-11-19"), 400000, 128000),
	reasoning("gpt-5.1-mini", day("2025-11-13"), 400000, 128000), // limits and date inferred from gpt-5-mini
	reasoning("gpt-5.2", day("2025-12-11"), 400000, 128000, at("gpt-5.2-2025-12-11")),
	reasoning("gpt-5.2-pro", day("2025-12-11"), 400000, 128000, at("gpt-5.2-pro-2025-12-11")),
	reasoning("gpt-5.4", day("2026-03-05"), 1050000, 128000),
	reasoning("gpt-5.4-mini", day("2026-03-17"), 400000, 128000, at("gpt-5.4-mini-2026-03-17")),
	reasoning("gpt-5.4-nano", day("2026-03-17"), 400000, 128000, at("gpt-5.4-nano-2026-03-17")),
	reasoning("gpt-5.5", day("2026-04-23"), 1050000, 128000, at("gpt-5.5-2026-04-23")),
	reasoning("gpt-5.5-pro", day("2026-04-23"), 1050000, 128000, at("gpt-5.5-pro-2026-04-23")),
	// Limits and dates of gpt-5.6 inferred from gpt-5.5 and gpt-6.
	reasoning("gpt-5.6-sol", day("2026-07-01"), 1050000, 128000),
	reasoning("gpt-5.6-terra", day("2026-07-01"), 1050000, 128000),
	reasoning("gpt-5.6-luna", day("2026-07-01"), 1050000, 128000),
	reasoning("gpt-5.6-cyber", day("2026-07-01"), 1050000, 128000),

	// GPT-6: reasoning models.
	reasoning("gpt-6-astra", day("2026-09-03"), 1050000, 128000),
	reasoning("gpt-6-sol", day("2026-09-22"), 1050000, 128000),
	reasoning("gpt-6-luna", day("2026-09-22"), 1050000, 128000),
	// Limits and dates of these inferred from gpt-6-sol.
	reasoning("gpt-6.1-sol", day("2026-11-01"), 1050000, 128000),
	reasoning("gpt-6.1-terra", day("2026-11-01"), 1050000, 128000),
	// openai-go v3.101.0 (2026-11-17) added these; limits inferred from
	// gpt-6-sol, the date from that release.
	reasoning("gpt-6.2-sol", day("2026-11-17"), 1050000, 128000),
	reasoning("gpt-6.2-astra", day("2026-11-17"), 1050000, 128000),
	reasoning("gpt-6.2-astra-law", day("2026-11-17"), 1050000, 128000),
	reasoning("gpt-6-cyber", day("2026-10-01"), 1050000, 128000),
	reasoning("gpt-6-rosalind", day("2026-10-01"), 1050000, 128000),
	reasoning("gpt-rosalind-research", day("2026-10-01"), 1050000, 128000),
	reasoning("gpt-daybreak-blue-latest", day("2026-10-01"), 1050000, 128000),
	reasoning("gpt-daybreak-red-latest", day("2026-10-01"), 1050000, 128000),

	// GPT-4 and GPT-3.5: chat models of the cl100k_base vocabulary.
	legacy("gpt-4-turbo", 1712361441, "system", 128000, 4096, at("gpt-4-turbo-2024-04-09")),
	legacy("gpt-4-turbo-preview", day("2024-01-25"), "system", 128000, 4096, snapshot{id: "gpt-4-0125-preview", date: "2024-01-25"}),
	legacy("gpt-4-1106-preview", day("2023-11-06"), "system", 128000, 4096),
	legacy("gpt-4-vision-preview", day("2023-11-06"), "system", 128000, 4096),
	legacy("gpt-4", 1687882411, "openai", 8192, 8192,
		snapshot{id: "gpt-4-0613", date: "2023-06-13"}, snapshot{id: "gpt-4-0314", date: "2023-03-14"}),
	legacy("gpt-4-32k", day("2023-06-13"), "openai", 32768, 32768,
		snapshot{id: "gpt-4-32k-0613", date: "2023-06-13"}, snapshot{id: "gpt-4-32k-0314", date: "2023-03-14"}),
	legacy("gpt-3.5-turbo", 1677610602, "openai", 16385, 4096,
		snapshot{id: "gpt-3.5-turbo-0125", date: "2024-01-25"}, snapshot{id: "gpt-3.5-turbo-1106", date: "2023-11-06"},
		snapshot{id: "gpt-3.5-turbo-0613", date: "2023-06-13", window: 4096}, snapshot{id: "gpt-3.5-turbo-0301", date: "2023-03-01", window: 4096}),
	legacy("gpt-3.5-turbo-16k", day("2023-05-10"), "openai-internal", 16385, 4096,
		snapshot{id: "gpt-3.5-turbo-16k-0613", date: "2023-06-13"}),

	// Embeddings: the real API echoes the name a request gives, and these
	// have no snapshots.
	embedding("text-embedding-3-small", 1705948997, "system", 1536, true),
	embedding("text-embedding-3-large", 1705953180, "system", 3072, true),
	embedding("text-embedding-ada-002", 1671217299, "openai-internal", 1536, false),

	// Videos. Which snapshot sora-2 points to is inferred (the newest).
	video("sora-2", 1759708615, at("sora-2-2025-12-08"), at("sora-2-2025-10-06")),
	video("sora-2-pro", 1759708663, at("sora-2-pro-2025-10-06")),
}

// family is a catalog alias and the dated snapshots of it; the first
// snapshot is the one the alias points to, the one the real API names in
// its answers.
type family struct {
	alias     ModelInfo
	snapshots []snapshot
}

// snapshot is a dated version of a family. It has the family's limits
// unless it sets its own.
type snapshot struct {
	id string
	// date is the day it was published, "2006-01-02"; empty for IDs that
	// end with it.
	date           string
	window, output int
}

// at is the snapshot id, whose last ten characters are its date.
func at(id string) snapshot { return snapshot{id: id} }

// day is the Unix time of midnight UTC on date ("2006-01-02").
func day(date string) int64 {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		panic("openai: catalog date " + date + ": " + err.Error())
	}
	return t.Unix()
}

func chat(id string, created int64, window, output int, snapshots ...snapshot) family {
	return family{ModelInfo{ID: id, Created: created, OwnedBy: "system", Kind: KindChat, Encoding: encodingO200k,
		ContextWindow: window, MaxOutputTokens: output}, snapshots}
}

func reasoning(id string, created int64, window, output int, snapshots ...snapshot) family {
	f := chat(id, created, window, output, snapshots...)
	f.alias.Kind = KindReasoning
	return f
}

func legacy(id string, created int64, owner string, window, output int, snapshots ...snapshot) family {
	f := chat(id, created, window, output, snapshots...)
	f.alias.OwnedBy, f.alias.Encoding = owner, encodingCl100k
	return f
}

func embedding(id string, created int64, owner string, dimensions int, acceptsDimensions bool) family {
	return family{alias: ModelInfo{ID: id, Created: created, OwnedBy: owner, Kind: KindEmbedding, Encoding: encodingCl100k,
		ContextWindow: 8192, Dimensions: dimensions, AcceptsDimensions: acceptsDimensions}}
}

func video(id string, created int64, snapshots ...snapshot) family {
	return family{ModelInfo{ID: id, Created: created, OwnedBy: "system", Kind: KindVideo, Encoding: encodingO200k}, snapshots}
}

// flatten lists every alias followed by its snapshots, in the order of
// families, each alias with the snapshot it points to.
func flatten(families []family) []ModelInfo {
	var out []ModelInfo
	for _, f := range families {
		alias := f.alias
		alias.Snapshot = alias.ID
		if len(f.snapshots) > 0 {
			alias.Snapshot = f.snapshots[0].id
		}
		out = append(out, alias)
		for _, s := range f.snapshots {
			m := f.alias
			m.ID, m.Snapshot, m.Alias = s.id, s.id, f.alias.ID
			date := s.date
			if date == "" {
				date = s.id[len(s.id)-len(time.DateOnly):]
			}
			m.Created = day(date)
			if s.window > 0 {
				m.ContextWindow = s.window
			}
			if s.output > 0 {
				m.MaxOutputTokens = s.output
			}
			out = append(out, m)
		}
	}
	return out
}
