package anthropic

// The field lists: which fields each object of a Messages body may carry,
// taken from anthropic-sdk-go v2.17.0's params types (MessageNewParams,
// MessageCountTokensParams and their Beta twins), which are the API's
// request schema. The real API refuses any other field with pydantic's
// "<path>: Extra inputs are not permitted" (response_format, amrit110/oli#7;
// messages.65.content.1.tool_use.text, anthropics/claude-code#4378;
// system.1.cache_control.ephemeral.scope, caozhiyuan/copilot-api#145;
// tools.0.custom.defer_loading, anthropics/claude-code#31033), naming the
// tag of a tagged union in the path. A test in compat/anthropicsdk walks
// the SDK's types and fails when they hold a field these lists lack.
//
// Objects the server does not read are known but not looked into, so a
// newer SDK's additions there are never refused: a server tool's config
// (its dated type is checked, its name too), the blocks that replay server
// tools (server_tool_use, web_search_tool_result and their kin, MCP and
// container blocks), citations, search_result blocks, input_schema and
// tool_use input (any JSON schema or object), output_config.format.schema,
// container, context_management, mcp_servers, diagnostics, the beta thread
// (another part of the server reads it) and the rest of the beta-only
// top-level objects.

// objectSpec is what the server knows of one JSON object of a request: its
// fields, and for some of them the spec of the value (an object, or each
// object of an array; nil: not looked into). An object whose fields depend
// on its "type" member picks its spec in byType instead: a tag listed with
// a nil spec is known and not looked into, a tag not listed is unknown
// (the decoder refuses it).
type objectSpec struct {
	fields map[string]*objectSpec
	byType map[string]*objectSpec
	// defaultType is the tag of an object that sends no type ("custom"
	// for a tool), "" when the tag is required.
	defaultType string
}

// fieldSpec is the spec of an object with these fields, none looked into.
func fieldSpec(names ...string) *objectSpec {
	s := &objectSpec{fields: make(map[string]*objectSpec, len(names))}
	for _, n := range names {
		s.fields[n] = nil
	}
	return s
}

// union is the spec of a tagged union; opaque lists tags known and not
// looked into.
func union(defaultType string, byType map[string]*objectSpec, opaque ...string) *objectSpec {
	for _, t := range opaque {
		byType[t] = nil
	}
	return &objectSpec{byType: byType, defaultType: defaultType}
}

// with looks into the value of field name with spec; it is used while the
// specs are built, and never after.
func (s *objectSpec) with(name string, spec *objectSpec) *objectSpec {
	if _, ok := s.fields[name]; !ok {
		panic("anthropic: spec of unlisted field " + name)
	}
	s.fields[name] = spec
	return s
}

// plus adds fields, none looked into.
func (s *objectSpec) plus(names ...string) *objectSpec {
	for _, n := range names {
		s.fields[n] = nil
	}
	return s
}

// tags are the union's known tags, in no particular order.
func (s *objectSpec) tags() []string {
	out := make([]string, 0, len(s.byType))
	for t := range s.byType {
		out = append(out, t)
	}
	return out
}

// Route names a body the field lists describe.
type Route int

// The routes whose bodies the field lists describe: the beta ones are those
// of a request that asks for betas (see DecodeOptions.Beta).
const (
	RouteMessages Route = iota
	RouteCountTokens
	RouteBetaMessages
	RouteBetaCountTokens
)

// specs are the top-level specs by route.
var specs = map[Route]*objectSpec{
	RouteMessages:        messagesSpec(false, false),
	RouteCountTokens:     messagesSpec(false, true),
	RouteBetaMessages:    messagesSpec(true, false),
	RouteBetaCountTokens: messagesSpec(true, true),
}

func routeOf(beta, count bool) Route {
	switch {
	case beta && count:
		return RouteBetaCountTokens
	case beta:
		return RouteBetaMessages
	case count:
		return RouteCountTokens
	}
	return RouteMessages
}

// KnownField reports whether the field at path is one the server knows on
// route, or lies in an object it does not look into. The compat tests check
// the SDK's params types against the lists with it.
func KnownField(route Route, path []FieldStep) bool {
	spec := specs[route]
	for _, step := range path {
		if spec == nil {
			return true
		}
		if spec.byType != nil {
			typ := step.Type
			if typ == "" {
				typ = spec.defaultType
			}
			sub, known := spec.byType[typ]
			if !known {
				return false
			}
			if spec = sub; spec == nil {
				return true
			}
		}
		child, known := spec.fields[step.Name]
		if !known {
			return false
		}
		spec = child
	}
	return true
}

// FieldStep is one step of the path to a field of a request body: the
// field's name, and the type member of the object that holds it ("" for
// an object without one).
type FieldStep struct {
	Type string
	Name string
}
