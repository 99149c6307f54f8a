package scenario

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
)

// Match selects requests. Every condition that is set must hold; the zero
// Match matches every request. Matches are plain data and travel as JSON,
// except Func, which works in-process only.
type Match struct {
	// Endpoint, when set, is the only endpoint that matches. A scenario
	// whose match names no endpoint answers every conversational endpoint
	// (Chat Completions and Responses alike) but never embeddings: an
	// embeddings request matches only where the match names that endpoint
	// on a path the request satisfies, here, in an All condition or in the
	// Any alternative it matches. A Not names no endpoint:
	// Not(Match{Endpoint: EndpointChatCompletions}) keeps to conversational
	// requests other than Chat Completions.
	Endpoint Endpoint `json:"endpoint,omitempty"`
	// Model, when set, is the only model that matches.
	Model string `json:"model,omitempty"`
	// UserEquals, when set, must equal the last user message.
	UserEquals string `json:"user_equals,omitempty"`
	// UserContains, when set, must occur in the last user message.
	UserContains string `json:"user_contains,omitempty"`
	// UserRegex, when set, must match the last user message (RE2 syntax).
	UserRegex string `json:"user_regex,omitempty"`
	// SystemContains, when set, must occur in the system/developer text.
	SystemContains string `json:"system_contains,omitempty"`
	// ToolResult, when set, requires a tool result for a call with this ID
	// or to a function of this name.
	ToolResult string `json:"tool_result,omitempty"`
	// ToolOffered, when set, requires the request to offer a tool of this
	// name.
	ToolOffered string `json:"tool_offered,omitempty"`
	// Turn, when set, is the only conversation turn that matches (the first
	// user message is turn 1).
	Turn int `json:"turn,omitempty"`
	// All, when set, requires every one of these matches.
	All []Match `json:"all,omitempty"`
	// Any, when set, requires at least one of these matches.
	Any []Match `json:"any,omitempty"`
	// Not, when set, requires this match to fail.
	Not *Match `json:"not,omitempty"`
	// Func, when set, must return true. It works in-process only: a
	// configuration holding one cannot be sent over HTTP.
	Func func(*Request) bool `json:"-"`

	re *regexp.Regexp // UserRegex, compiled by Validate
}

// ErrInProcessOnly is the error of encoding a scenario that holds a Go
// function: such scenarios work in-process only.
var ErrInProcessOnly = errors.New("scenario: a Go function (scenario.Func) works in-process only and cannot be sent as JSON")

// Matches reports whether r satisfies every condition of m, and, for a
// request to a non-conversational endpoint such as embeddings, whether m
// names that endpoint on the way (see Endpoint). Data conditions do not
// allocate.
func (m *Match) Matches(r *Request) bool {
	if !r.Endpoint.Conversational() && !m.reaches(r) {
		return false
	}
	return m.matches(r)
}

// Targets reports whether m can answer requests to endpoint e by naming it:
// m names e itself, in one of its All conditions or in one of its Any
// alternatives, at any depth. A Not names no endpoint, so Not(Match{Endpoint:
// e}) does not target e (it excludes it).
func (m *Match) Targets(e Endpoint) bool {
	if m.Endpoint == e {
		return true
	}
	for i := range m.All {
		if m.All[i].Targets(e) {
			return true
		}
	}
	for i := range m.Any {
		if m.Any[i].Targets(e) {
			return true
		}
	}
	return false
}

// reaches reports whether m names r's endpoint on a path that r satisfies
// if m matches it: itself, in an All condition (all of which must hold for
// m to match), or in an Any alternative that r matches. Without the last
// check, Any(All(embeddings, UserContains("a")), UserContains("b")) would
// answer an embeddings request through its chat alternative alone.
func (m *Match) reaches(r *Request) bool {
	if m.Endpoint == r.Endpoint {
		return true
	}
	for i := range m.All {
		if m.All[i].reaches(r) {
			return true
		}
	}
	for i := range m.Any {
		if m.Any[i].reaches(r) && m.Any[i].matches(r) {
			return true
		}
	}
	return false
}

// matches checks the conditions themselves.
func (m *Match) matches(r *Request) bool {
	if m.Endpoint != "" && m.Endpoint != r.Endpoint ||
		m.Model != "" && m.Model != r.Model ||
		m.Turn != 0 && m.Turn != r.Turn ||
		m.SystemContains != "" && !strings.Contains(r.System, m.SystemContains) ||
		m.ToolOffered != "" && !r.offers(m.ToolOffered) ||
		m.ToolResult != "" && !r.hasToolResult(m.ToolResult) {
		return false
	}
	if m.UserEquals != "" || m.UserContains != "" || m.UserRegex != "" {
		user := r.LastUserText()
		if m.UserEquals != "" && user != m.UserEquals ||
			m.UserContains != "" && !strings.Contains(user, m.UserContains) ||
			m.UserRegex != "" && !m.regex().MatchString(user) {
			return false
		}
	}
	for i := range m.All {
		if !m.All[i].matches(r) {
			return false
		}
	}
	if len(m.Any) > 0 && !m.anyMatches(r) {
		return false
	}
	if m.Not != nil && m.Not.matches(r) {
		return false
	}
	return m.Func == nil || m.Func(r)
}

func (m *Match) anyMatches(r *Request) bool {
	for i := range m.Any {
		if m.Any[i].matches(r) {
			return true
		}
	}
	return false
}

// regex returns the compiled UserRegex. Validation compiles it; a Match
// used without validation compiles it on every call, and a bad pattern
// matches nothing. It never stores what it compiles: matching only reads m,
// so a match may be shared by goroutines that match concurrently.
func (m *Match) regex() *regexp.Regexp {
	if m.re != nil {
		return m.re
	}
	re, err := regexp.Compile(m.UserRegex)
	if err != nil {
		return neverRegex
	}
	return re
}

// neverRegex matches no text.
var neverRegex = regexp.MustCompile(`$.^`)

// clone returns a deep copy of m: the All, Any and Not trees are copied, so
// validating the copy, which compiles its patterns in place, never writes to
// m. Compiled patterns are shared, which is safe: a *regexp.Regexp is
// immutable and safe for concurrent use.
func (m *Match) clone() Match {
	c := *m
	c.All = cloneMatches(m.All)
	c.Any = cloneMatches(m.Any)
	if m.Not != nil {
		not := m.Not.clone()
		c.Not = &not
	}
	return c
}

// cloneMatches deep-copies ms, keeping nil as nil.
func cloneMatches(ms []Match) []Match {
	if ms == nil {
		return nil
	}
	out := make([]Match, len(ms))
	for i := range ms {
		out[i] = ms[i].clone()
	}
	return out
}

// validate compiles regular expressions and reports the first bad one.
func (m *Match) validate(path string) error {
	if m.UserRegex != "" {
		re, err := regexp.Compile(m.UserRegex)
		if err != nil {
			return fmt.Errorf("%s.user_regex: %v", path, err)
		}
		m.re = re
	}
	if m.Turn < 0 {
		return fmt.Errorf("%s.turn: must not be negative", path)
	}
	for i := range m.All {
		if err := m.All[i].validate(fmt.Sprintf("%s.all[%d]", path, i)); err != nil {
			return err
		}
	}
	for i := range m.Any {
		if err := m.Any[i].validate(fmt.Sprintf("%s.any[%d]", path, i)); err != nil {
			return err
		}
	}
	if m.Not != nil {
		return m.Not.validate(path + ".not")
	}
	return nil
}

// isZero reports whether m has no condition at all.
func (m *Match) isZero() bool {
	return m.Endpoint == "" && m.Model == "" && m.UserEquals == "" && m.UserContains == "" &&
		m.UserRegex == "" && m.SystemContains == "" && m.ToolResult == "" && m.ToolOffered == "" &&
		m.Turn == 0 && len(m.All) == 0 && len(m.Any) == 0 && m.Not == nil && m.Func == nil
}

// hasFunc reports whether m or a match inside it holds a Go function.
func (m *Match) hasFunc() bool {
	if m.Func != nil || m.Not != nil && m.Not.hasFunc() {
		return true
	}
	for i := range m.All {
		if m.All[i].hasFunc() {
			return true
		}
	}
	for i := range m.Any {
		if m.Any[i].hasFunc() {
			return true
		}
	}
	return false
}

// matchJSON has Match's fields without its methods, for encoding.
type matchJSON Match

// MarshalJSON refuses a match that holds a Go function.
func (m Match) MarshalJSON() ([]byte, error) {
	if m.hasFunc() {
		return nil, ErrInProcessOnly
	}
	return plainjson.Marshal(matchJSON(m))
}

// UnmarshalJSON refuses unknown fields, so a misspelt condition is an error
// rather than a match-everything.
func (m *Match) UnmarshalJSON(data []byte) error {
	var w matchJSON
	if err := decodeStrict(data, &w); err != nil {
		return err
	}
	*m = Match(w)
	return nil
}

// Describe renders m's conditions for failure messages.
func (m *Match) Describe() string {
	var parts []string
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	if m.Endpoint != "" {
		add("endpoint %s", m.Endpoint)
	}
	if m.Model != "" {
		add("model %q", m.Model)
	}
	if m.UserEquals != "" {
		add("user message %q", m.UserEquals)
	}
	if m.UserContains != "" {
		add("user message containing %q", m.UserContains)
	}
	if m.UserRegex != "" {
		add("user message matching /%s/", m.UserRegex)
	}
	if m.SystemContains != "" {
		add("system prompt containing %q", m.SystemContains)
	}
	if m.ToolResult != "" {
		add("a tool result for %q", m.ToolResult)
	}
	if m.ToolOffered != "" {
		add("tool %q offered", m.ToolOffered)
	}
	if m.Turn != 0 {
		add("turn %d", m.Turn)
	}
	for i := range m.All {
		add("(%s)", m.All[i].Describe())
	}
	if len(m.Any) > 0 {
		alts := make([]string, len(m.Any))
		for i := range m.Any {
			alts[i] = m.Any[i].Describe()
		}
		add("any of (%s)", strings.Join(alts, " | "))
	}
	if m.Not != nil {
		add("not (%s)", m.Not.Describe())
	}
	if m.Func != nil {
		add("a Go predicate")
	}
	if len(parts) == 0 {
		return "any request"
	}
	return strings.Join(parts, ", ")
}

// Constructors for the common matches, for use with Builder.When.

// UserContains matches requests whose last user message contains s.
func UserContains(s string) Match { return Match{UserContains: s} }

// UserEquals matches requests whose last user message is s.
func UserEquals(s string) Match { return Match{UserEquals: s} }

// UserRegex matches requests whose last user message matches the RE2
// pattern expr.
func UserRegex(expr string) Match { return Match{UserRegex: expr} }

// SystemContains matches requests whose system or developer text contains s.
func SystemContains(s string) Match { return Match{SystemContains: s} }

// HasToolResult matches requests that carry a result for the call with this
// ID or for a call to the function of this name.
func HasToolResult(nameOrID string) Match { return Match{ToolResult: nameOrID} }

// ToolOffered matches requests that offer the tool name.
func ToolOffered(name string) Match { return Match{ToolOffered: name} }

// Turn matches the n-th user turn of a conversation, from 1.
func Turn(n int) Match { return Match{Turn: n} }

// Model matches requests for model.
func Model(model string) Match { return Match{Model: model} }

// All matches requests that match every one of ms.
func All(ms ...Match) Match { return Match{All: ms} }

// Any matches requests that match at least one of ms.
func Any(ms ...Match) Match { return Match{Any: ms} }

// Not matches requests that m does not match.
func Not(m Match) Match { return Match{Not: &m} }

// Func matches requests for which pred returns true. It works in-process
// only, and runs while the session picks a reply under its lock: pred must
// not call the session's methods. A pred that panics fails the request
// with a 500 llm_test_server_responder_failed that names the scenario and
// the panic, as a panicking Go responder does, and takes no reply.
func Func(pred func(*Request) bool) Match { return Match{Func: pred} }
