package anthropic

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

func (r *MessagesRequest) decodeTools(top map[string]json.RawMessage) *apierr.Error {
	raw := top["tools"]
	if absent(raw) {
		return nil
	}
	items, err := list("tools", raw)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, item := range items {
		path := fmt.Sprintf("tools.%d", i)
		t, err := r.decodeTool(path, item)
		if err != nil {
			return err
		}
		if t.Name != "" { // a toolset has no name
			if seen[t.Name] {
				return invalid("tools", "tools: Tool names must be unique.")
			}
			seen[t.Name] = true
		}
		r.Tools = append(r.Tools, t)
	}
	return nil
}

// toolTags are the tags of the tools union, custom first, for the
// refusal of an unknown type.
func toolTags(beta bool) []string {
	tags := make([]string, 0, len(serverToolNames)+len(betaServerToolNames))
	for t := range serverToolNames {
		tags = append(tags, t)
	}
	if beta {
		for t := range betaServerToolNames {
			tags = append(tags, t)
		}
	}
	sort.Strings(tags)
	return append([]string{"custom"}, tags...)
}

// decodeTool reads one tool: a client tool (no type, or "custom"), or a
// server tool of a dated type from the SDK's ToolUnionParam, whose name is
// fixed by its type (web_search_20250305 is "web_search"). The union is
// tagged, so paths inside a tool name its type (tools.0.custom.defer_loading,
// anthropics/claude-code#31033; tools.1.custom.input_schema,
// Hmbown/Codewhale#4329).
func (r *MessagesRequest) decodeTool(path string, raw json.RawMessage) (Tool, *apierr.Error) {
	m, err := object(path, raw)
	if err != nil {
		return Tool{}, err
	}
	t := Tool{Raw: raw}
	if t.Type, err = optStr(path+".type", m["type"]); err != nil {
		return Tool{}, err
	}
	typ := t.Type
	if typ == "" {
		typ = "custom"
	}
	in := path + "." + typ
	if !t.Client() {
		name, ok := ServerToolName(r.beta, t.Type)
		if !ok {
			// Pydantic's wording for a tag outside the union (inferred).
			_, err := tag(path, map[string]json.RawMessage{"type": m["type"]}, toolTags(r.beta)...)
			return Tool{}, err
		}
		if t.CacheControl, err = decodeCacheControl(in+".cache_control", m["cache_control"]); err != nil {
			return Tool{}, err
		}
		if name == "" {
			return t, nil // a toolset: its other fields are the API's business
		}
		if t.Name, err = requiredStr(in+".name", m); err != nil {
			return Tool{}, err
		}
		// The name is a literal of the SDK's type (constant.WebSearch...),
		// so anything else, markup included, is refused as pydantic
		// refuses a literal (inferred wording).
		return t, literal(in+".name", t.Name, name)
	}
	if t.CacheControl, err = decodeCacheControl(in+".cache_control", m["cache_control"]); err != nil {
		return Tool{}, err
	}
	if t.Name, err = requiredStr(in+".name", m); err != nil {
		return Tool{}, err
	}
	if !validToolName(t.Name) {
		return Tool{}, fieldError(in+".name", "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'")
	}
	if t.Description, err = optStr(in+".description", m["description"]); err != nil {
		return Tool{}, err
	}
	schema, ok := m["input_schema"]
	if !ok {
		return Tool{}, missing(in + ".input_schema")
	}
	sm, err := object(in+".input_schema", schema)
	if err != nil {
		return Tool{}, err
	}
	// ToolInputSchemaParam.Type is the constant "object": the SDK sends it,
	// and a schema of another type is refused (inferred wording; left out,
	// it is the default).
	if st := sm["type"]; !absent(st) {
		p := in + ".input_schema.type"
		s, err := str(p, st)
		if err != nil {
			return Tool{}, err
		}
		if err := literal(p, s, "object"); err != nil {
			return Tool{}, err
		}
	}
	t.InputSchema = schema
	return t, nil
}

func validToolName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func (r *MessagesRequest) decodeToolChoice(top map[string]json.RawMessage) *apierr.Error {
	raw := top["tool_choice"]
	if absent(raw) {
		return nil
	}
	m, err := object("tool_choice", raw)
	if err != nil {
		return err
	}
	t, err := tag("tool_choice", m, "auto", "any", "tool", "none")
	if err != nil {
		return err
	}
	tc := &ToolChoice{Type: t}
	if t == "tool" {
		if tc.Name, err = requiredStr("tool_choice.tool.name", m); err != nil {
			return err
		}
	}
	if t != "none" {
		if tc.DisableParallelToolUse, err = optBool("tool_choice."+t+".disable_parallel_tool_use", m["disable_parallel_tool_use"]); err != nil {
			return err
		}
	}
	r.ToolChoice = tc
	return nil
}
