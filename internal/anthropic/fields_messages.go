package anthropic

// The specs of a Messages body, from anthropic-sdk-go v2.17.0's params
// types (see fields.go). The beta specs are the GA ones plus what only the
// Beta params carry: one list for both would accept beta fields on the GA
// route, which the real API refuses (tools.0.custom.defer_loading,
// anthropics/claude-code#31033, was sent without the beta that allows it).

// serverToolNames are the dated server tool types of the SDK's
// ToolUnionParam (and, in betaServerToolNames, BetaToolUnionParam's extra
// ones), by the name each must carry ("" for a toolset, which has none).
var serverToolNames = map[string]string{
	"bash_20250124":                   "bash",
	"code_execution_20250522":         "code_execution",
	"code_execution_20250825":         "code_execution",
	"code_execution_20260120":         "code_execution",
	"code_execution_20260521":         "code_execution",
	"browser_toolset_20260801":        "",
	"memory_20250818":                 "memory",
	"computer_toolset_20260801":       "",
	"text_editor_20250124":            "str_replace_editor",
	"text_editor_20250429":            "str_replace_based_edit_tool",
	"text_editor_20250728":            "str_replace_based_edit_tool",
	"web_search_20250305":             "web_search",
	"web_fetch_20250910":              "web_fetch",
	"web_search_20260209":             "web_search",
	"web_fetch_20260209":              "web_fetch",
	"web_fetch_20260309":              "web_fetch",
	"web_search_20260318":             "web_search",
	"web_fetch_20260318":              "web_fetch",
	"tool_search_tool_bm25_20251119":  "tool_search_tool_bm25",
	"tool_search_tool_bm25":           "tool_search_tool_bm25",
	"tool_search_tool_regex_20251119": "tool_search_tool_regex",
	"tool_search_tool_regex":          "tool_search_tool_regex",
}

var betaServerToolNames = map[string]string{
	"bash_20241022":        "bash",
	"computer_20241022":    "computer",
	"computer_20250124":    "computer",
	"computer_20251124":    "computer",
	"text_editor_20241022": "str_replace_editor",
	"advisor_20260301":     "advisor",
	"mcp_toolset":          "",
}

// ServerToolName returns the name a server tool of type typ must carry,
// and whether typ is a server tool's type on the beta or GA route.
func ServerToolName(beta bool, typ string) (string, bool) {
	if n, ok := serverToolNames[typ]; ok {
		return n, true
	}
	if beta {
		n, ok := betaServerToolNames[typ]
		return n, ok
	}
	return "", false
}

// opaqueBlocks are the content block types the server keeps raw: the
// replays of server tool calls and results, and the others it does not
// read.
var opaqueBlocks = []string{
	"search_result", "server_tool_use", "web_search_tool_result", "web_fetch_tool_result",
	"code_execution_tool_result", "bash_code_execution_tool_result",
	"text_editor_code_execution_tool_result", "tool_search_tool_result", "container_upload",
}

// betaOpaqueBlocks are the block types only the Beta params have.
var betaOpaqueBlocks = []string{
	"advisor_tool_result", "compaction", "fallback", "mcp_tool_listing", "mcp_tool_result",
	"mcp_tool_use", "tool_addition", "tool_removal",
}

func cacheControlSpec() *objectSpec {
	return union("", map[string]*objectSpec{"ephemeral": fieldSpec("type", "ttl")})
}

func textBlockSpec() *objectSpec {
	return fieldSpec("type", "text", "cache_control", "citations").with("cache_control", cacheControlSpec())
}

func imageBlockSpec() *objectSpec {
	src := union("", map[string]*objectSpec{
		"base64": fieldSpec("type", "media_type", "data"),
		"url":    fieldSpec("type", "url"),
		"file":   fieldSpec("type", "file_id"),
	})
	return fieldSpec("type", "source", "cache_control", "transformations").
		with("source", src).with("cache_control", cacheControlSpec())
}

func documentBlockSpec() *objectSpec {
	src := union("", map[string]*objectSpec{
		"base64":  fieldSpec("type", "media_type", "data"),
		"text":    fieldSpec("type", "media_type", "data"),
		"content": fieldSpec("type", "content"),
		"url":     fieldSpec("type", "url"),
		"file":    fieldSpec("type", "file_id"),
	})
	return fieldSpec("type", "source", "cache_control", "citations", "context", "title").
		with("source", src).with("cache_control", cacheControlSpec())
}

// toolResultContentSpec is the union of a tool_result's content blocks
// (see toolResultContent).
func toolResultContentSpec() *objectSpec {
	return union("", map[string]*objectSpec{
		"text": textBlockSpec(), "image": imageBlockSpec(), "document": documentBlockSpec(),
	}, "search_result", "tool_reference", "browser_state")
}

func contentSpec(beta bool) *objectSpec {
	blocks := map[string]*objectSpec{
		"text":              textBlockSpec(),
		"image":             imageBlockSpec(),
		"document":          documentBlockSpec(),
		"thinking":          fieldSpec("type", "thinking", "signature"),
		"redacted_thinking": fieldSpec("type", "data"),
		"tool_use": fieldSpec("type", "id", "name", "input", "cache_control", "caller", "toolset_name").
			with("cache_control", cacheControlSpec()),
		"tool_result": fieldSpec("type", "tool_use_id", "content", "is_error", "cache_control", "toolset_name").
			with("content", toolResultContentSpec()).with("cache_control", cacheControlSpec()),
	}
	opaque := opaqueBlocks
	if beta {
		opaque = append(append([]string(nil), opaqueBlocks...), betaOpaqueBlocks...)
	}
	return union("", blocks, opaque...)
}

func toolsSpec(beta bool) *objectSpec {
	custom := fieldSpec("type", "name", "description", "input_schema", "cache_control", "strict",
		"eager_input_streaming", "defer_loading", "allowed_callers", "input_examples").
		with("cache_control", cacheControlSpec())
	byType := map[string]*objectSpec{"custom": custom}
	for t := range serverToolNames {
		byType[t] = nil
	}
	if beta {
		for t := range betaServerToolNames {
			byType[t] = nil
		}
	}
	return union("custom", byType)
}

// threadSpec is BetaMessageThreadParamUnion's.
func threadSpec() *objectSpec {
	return union("", map[string]*objectSpec{
		"create": fieldSpec("type"), "continue": fieldSpec("type", "previous_message_id"),
	})
}

func thinkingSpec(beta bool) *objectSpec {
	enabled, adaptive := fieldSpec("type", "budget_tokens", "display"), fieldSpec("type", "display")
	if beta {
		enabled.plus("block_binding")
		adaptive.plus("block_binding")
	}
	return union("", map[string]*objectSpec{
		"enabled": enabled, "adaptive": adaptive,
		"disabled": fieldSpec("type"), "between_tools": fieldSpec("type"),
	})
}

func toolChoiceSpec() *objectSpec {
	return union("", map[string]*objectSpec{
		"auto": fieldSpec("type", "disable_parallel_tool_use"),
		"any":  fieldSpec("type", "disable_parallel_tool_use"),
		"tool": fieldSpec("type", "name", "disable_parallel_tool_use"),
		"none": fieldSpec("type"),
	})
}

func outputConfigSpec(beta bool) *objectSpec {
	s := fieldSpec("effort", "format").
		with("format", union("", map[string]*objectSpec{"json_schema": fieldSpec("type", "schema")}))
	if beta {
		s.plus("task_budget")
	}
	return s
}

// messagesSpec is the top-level spec of a /v1/messages body, or of a
// count_tokens one (count), GA or beta. temperature, top_p and top_k are
// not in the v2 SDK's params but the API still takes them (raw clients and
// other SDKs send them).
func messagesSpec(beta, count bool) *objectSpec {
	message := fieldSpec("role", "content").with("content", contentSpec(beta))
	if beta {
		message.plus("clear_at", "output_config")
	}
	s := fieldSpec("model", "messages", "system", "tools", "tool_choice", "thinking", "output_config",
		"cache_control", "speed").
		with("messages", message).with("system", textBlockSpec()).with("tools", toolsSpec(beta)).
		with("tool_choice", toolChoiceSpec()).with("thinking", thinkingSpec(beta)).
		with("output_config", outputConfigSpec(beta)).with("cache_control", cacheControlSpec())
	if !count {
		s.plus("max_tokens", "stream", "stop_sequences", "metadata", "service_tier", "container",
			"inference_geo", "diagnostics", "temperature", "top_p", "top_k").
			with("metadata", fieldSpec("user_id"))
	}
	if beta {
		s.plus("billing_policy", "compaction", "context_management", "mcp_servers", "output_format")
		if !count {
			s.plus("fallback_credit_token", "fallbacks", "thread").with("thread", threadSpec())
		}
	}
	return s
}
