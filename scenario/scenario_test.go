package scenario_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/scenario"
)

func TestScenarioJSONRoundTrip(t *testing.T) {
	in := scenario.Scenario{
		Name:    "greeting",
		Match:   scenario.Match{Endpoint: scenario.EndpointChatCompletions, Model: "gpt-4.1-mini", UserContains: "Hello"},
		Replies: []scenario.Reply{{Text: "Hi"}, {Text: "Later", Delay: 1500 * time.Millisecond}},
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"greeting","match":{"endpoint":"chat.completions","model":"gpt-4.1-mini","user_contains":"Hello"},"replies":[{"text":"Hi"},{"text":"Later","delay_ms":1500}]}`
	if string(b) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", b, want)
	}
	var out scenario.Scenario
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("round trip = %+v, want %+v", out, in)
	}
}

func TestReplyRefusesUnknownFields(t *testing.T) {
	var r scenario.Reply
	if err := json.Unmarshal([]byte(`{"text":"x","dealy_ms":5}`), &r); err == nil {
		t.Error("a misspelt reply field was accepted")
	}
}

func TestMatch(t *testing.T) {
	req := &scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "gpt-4.1-mini",
		Messages: []scenario.Message{{Role: "user", Content: "first"}, {Role: "assistant", Content: "ok"}, {Role: "user", Content: "say Hello"}}}
	tests := []struct {
		name  string
		match scenario.Match
		want  bool
	}{
		{"zero matches all", scenario.Match{}, true},
		{"endpoint", scenario.Match{Endpoint: scenario.EndpointChatCompletions}, true},
		{"other endpoint", scenario.Match{Endpoint: "responses"}, false},
		{"model", scenario.Match{Model: "gpt-4.1-mini"}, true},
		{"other model", scenario.Match{Model: "gpt-4o"}, false},
		{"last user text", scenario.Match{UserContains: "Hello"}, true},
		{"earlier user text", scenario.Match{UserContains: "first"}, false},
		{"all conditions", scenario.Match{Endpoint: scenario.EndpointChatCompletions, Model: "gpt-4.1-mini", UserContains: "say"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.match.Matches(req); got != tt.want {
				t.Errorf("Matches = %v, want %v", got, tt.want)
			}
		})
	}
	if got := req.LastUserText(); got != "say Hello" {
		t.Errorf("LastUserText = %q", got)
	}
	if allocs := testing.AllocsPerRun(100, func() { (&scenario.Match{UserContains: "nope"}).Matches(req) }); allocs != 0 {
		t.Errorf("a non-matching data matcher allocates %v times", allocs)
	}
}

func TestValidate(t *testing.T) {
	for name, s := range map[string]scenario.Scenario{
		"no name":        {Replies: []scenario.Reply{{Text: "x"}}},
		"no replies":     {Name: "x"},
		"negative delay": {Name: "x", Replies: []scenario.Reply{{Delay: -time.Second}}},
	} {
		if err := s.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", name, s)
		}
	}
	ok := scenario.Scenario{Name: "x", Replies: []scenario.Reply{{Text: "y"}}}
	if err := ok.Validate(); err != nil {
		t.Errorf("Validate refused %+v: %v", ok, err)
	}
}

// recorder is a sink that keeps what a Builder sends it.
type recorder struct {
	names   []string
	replies []scenario.Reply
	updates []scenario.Scenario
}

func (r *recorder) AddReplies(name string, _ scenario.Match, replies ...scenario.Reply) {
	r.names = append(r.names, name)
	r.replies = append(r.replies, replies...)
}

func (r *recorder) ClearReplies(name string) { r.names = append(r.names, name) }

func (r *recorder) UpdateScenario(name string, match scenario.Match, change func(*scenario.Scenario)) {
	var s scenario.Scenario
	change(&s)
	r.names = append(r.names, name)
	r.updates = append(r.updates, s)
}

func TestBuilder(t *testing.T) {
	var rec recorder
	newBuilder(&rec, "s", scenario.Match{}).Responds("a").RespondsAfter(time.Second, "b").Reply(scenario.Reply{Text: "c"})
	at := lineAbove()
	want := []scenario.Reply{{Text: "a", ScriptedAt: at}, {Text: "b", Delay: time.Second, ScriptedAt: at}, {Text: "c", ScriptedAt: at}}
	if !reflect.DeepEqual(rec.replies, want) || len(rec.names) != 3 || rec.names[2] != "s" {
		t.Errorf("builder sent %v %+v, want %+v under s", rec.names, rec.replies, want)
	}
}

func TestRichMatchers(t *testing.T) {
	req := &scenario.Request{
		Endpoint: scenario.EndpointChatCompletions, Model: "gpt-4.1-mini", System: "You are a weather bot.", Turn: 2,
		Tools: []scenario.Tool{{Name: "get_weather"}},
		Messages: []scenario.Message{
			{Role: "user", Content: "Weather in Paris?"},
			{Role: "assistant", ToolCalls: []scenario.ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
			{Role: "tool", ToolCallID: "call_1", Content: "sunny"},
			{Role: "user", Content: "Thanks!"},
		},
	}
	tests := []struct {
		name  string
		match scenario.Match
		want  bool
	}{
		{"user equals", scenario.UserEquals("Thanks!"), true},
		{"user equals is exact", scenario.UserEquals("Thanks"), false},
		{"user regex", scenario.UserRegex(`^Th\w+!$`), true},
		{"user regex miss", scenario.UserRegex(`Paris`), false},
		{"system contains", scenario.SystemContains("weather bot"), true},
		{"tool result by name", scenario.HasToolResult("get_weather"), true},
		{"tool result by ID", scenario.HasToolResult("call_1"), true},
		{"no such tool result", scenario.HasToolResult("call_2"), false},
		{"tool offered", scenario.ToolOffered("get_weather"), true},
		{"tool not offered", scenario.ToolOffered("send_email"), false},
		{"turn", scenario.Turn(2), true},
		{"other turn", scenario.Turn(1), false},
		{"all", scenario.All(scenario.Turn(2), scenario.ToolOffered("get_weather")), true},
		{"all with a miss", scenario.All(scenario.Turn(2), scenario.ToolOffered("x")), false},
		{"any", scenario.Any(scenario.Turn(1), scenario.UserContains("Thanks")), true},
		{"any all miss", scenario.Any(scenario.Turn(1), scenario.UserContains("nope")), false},
		{"not", scenario.Not(scenario.Turn(1)), true},
		{"func", scenario.Func(func(r *scenario.Request) bool { return len(r.Messages) == 4 }), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := scenario.Scenario{Name: "s", Match: tt.match, Replies: []scenario.Reply{scenario.Text("x")}}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := s.Match.Matches(req); got != tt.want {
				t.Errorf("Matches = %v, want %v (%s)", got, tt.want, s.Match.Describe())
			}
		})
	}
	data := []scenario.Match{scenario.HasToolResult("call_2"), scenario.ToolOffered("x"),
		scenario.All(scenario.Turn(2), scenario.SystemContains("nope"))}
	if !raceEnabled {
		data = append(data, scenario.UserRegex(`Paris`))
	}
	for _, m := range data {
		s := scenario.Scenario{Name: "s", Match: m, Replies: []scenario.Reply{scenario.Text("x")}}
		s.Validate()
		if allocs := testing.AllocsPerRun(100, func() { s.Match.Matches(req) }); allocs != 0 {
			t.Errorf("non-matching %s allocates %v times", s.Match.Describe(), allocs)
		}
	}
}

func TestRichScenarioJSONRoundTrip(t *testing.T) {
	in := scenario.Scenario{
		Name:            "agent",
		Match:           scenario.All(scenario.ToolOffered("f"), scenario.Not(scenario.UserRegex("^x$")), scenario.Any(scenario.Turn(1), scenario.Turn(3))),
		Repeat:          true,
		PerConversation: true,
		Replies: []scenario.Reply{
			scenario.CallTools(scenario.ToolCall{Name: "f", Arguments: `{"a":1}`}, scenario.ToolCall{ID: "call_x", Name: "g", Arguments: `{}`}),
			scenario.JSON(map[string]int{"n": 1}),
			scenario.Refuse("no"),
			{Error: &scenario.Error{Status: 429, Code: "rate_limit_exceeded", Headers: map[string]string{"Retry-After": "0"}}},
			{Text: "done", FinishReason: "length", Usage: &scenario.Usage{Input: 5, Output: 7}, Model: "gpt-4o-2024-08-06"},
		},
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out scenario.Scenario
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	if err := out.Validate(); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(out)
	if string(b) != string(b2) {
		t.Errorf("round trip changed the JSON:\n%s\n%s", b, b2)
	}
}

func TestFuncsAreInProcessOnly(t *testing.T) {
	for name, s := range map[string]scenario.Scenario{
		"predicate":        {Name: "p", Match: scenario.Func(func(*scenario.Request) bool { return true }), Replies: []scenario.Reply{scenario.Text("x")}},
		"nested predicate": {Name: "n", Match: scenario.Not(scenario.Func(func(*scenario.Request) bool { return true })), Replies: []scenario.Reply{scenario.Text("x")}},
		"responder":        {Name: "r", Replies: []scenario.Reply{scenario.Respond(func(*scenario.Request) scenario.Reply { return scenario.Text("x") })}},
	} {
		if _, err := json.Marshal(s); !errors.Is(err, scenario.ErrInProcessOnly) {
			t.Errorf("%s: Marshal err = %v, want ErrInProcessOnly", name, err)
		}
	}
}

func TestInvalidReplies(t *testing.T) {
	for name, r := range map[string]scenario.Reply{
		"text and refusal":  {Text: "a", Refusal: "b"},
		"bad arguments":     scenario.CallTool("f", "{not json"),
		"tool without name": {ToolCalls: []scenario.ToolCall{{Arguments: "{}"}}},
		"error status 200":  {Error: &scenario.Error{Status: 200}},
		"bad finish":        {Text: "x", FinishReason: "done"},
		"bad json":          {JSON: json.RawMessage(`{`)},
	} {
		if err := r.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", name, r)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("the builder accepted invalid tool arguments")
		}
	}()
	var rec recorder
	newBuilder(&rec, "s", scenario.Match{}).CallsTool("f", "{not json")
}

func TestBuilderTimesRepeatWhen(t *testing.T) {
	var rec recorder
	b := newBuilder(&rec, "s", scenario.Match{Endpoint: scenario.EndpointChatCompletions})
	b.When(scenario.UserContains("hi")).Responds("a").Times(3).Then("b").Repeat().PerConversation()
	if len(rec.replies) != 4 || rec.replies[2].Text != "a" || rec.replies[3].Text != "b" {
		t.Errorf("replies = %+v, want a a a b", rec.replies)
	}
	var s scenario.Scenario
	for _, u := range rec.updates {
		s.Repeat = s.Repeat || u.Repeat
		s.PerConversation = s.PerConversation || u.PerConversation
		if len(u.Match.All) > 0 {
			s.Match = u.Match
		}
	}
	if !s.Repeat || !s.PerConversation || len(s.Match.All) != 2 || s.Match.All[0].Endpoint != scenario.EndpointChatCompletions {
		t.Errorf("updates gave %+v", s)
	}
}

func TestNeutralKinds(t *testing.T) {
	for reason, want := range map[string]scenario.FinishKind{"end_turn": "stop", "max_tokens": "length", "tool_use": "tool_calls", "refusal": "refusal", "stop": "stop"} {
		if got, ok := scenario.NormalizeFinish(reason); !ok || got != want {
			t.Errorf("NormalizeFinish(%q) = %q %v, want %q", reason, got, ok, want)
		}
	}
	for _, own := range []string{"pause_turn", "model_context_window_exceeded", "stop_sequence"} {
		if got, ok := scenario.NormalizeFinish(own); !ok || got != own {
			t.Errorf("NormalizeFinish(%q) = %q %v: Anthropic's own kinds are kinds", own, got, ok)
		}
	}
	if _, ok := scenario.NormalizeFinish("paused"); ok {
		t.Error("paused is no finish kind")
	}
	ok := scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded}}
	if err := ok.Validate(); err != nil {
		t.Errorf("a kind without a status is refused: %v", err)
	}
	bad := scenario.Reply{Error: &scenario.Error{Kind: "melted"}}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "error.kind") {
		t.Errorf("an unknown kind: %v", err)
	}
	none := scenario.Reply{Error: &scenario.Error{}}
	if err := none.Validate(); err == nil || !strings.Contains(err.Error(), "error.status") {
		t.Errorf("an error with neither kind nor status: %v", err)
	}
	thinking := scenario.Reply{Thinking: "hmm", Error: &scenario.Error{Status: 500}}
	if err := thinking.Validate(); err == nil || !strings.Contains(err.Error(), "thinking") {
		t.Errorf("thinking on an error reply: %v", err)
	}
	var back scenario.Reply
	b, _ := json.Marshal(scenario.Think("let me see", "42"))
	if err := json.Unmarshal(b, &back); err != nil || back.Thinking != "let me see" || back.Text != "42" {
		t.Errorf("thinking does not round-trip through %s: %+v %v", b, back, err)
	}
	if scenario.KindOfStatus(529) != scenario.ErrorOverloaded || scenario.KindOfStatus(418) != scenario.ErrorInvalidRequest ||
		scenario.KindOfStatus(502) != scenario.ErrorServer {
		t.Error("KindOfStatus maps 529, 418 or 502 wrongly")
	}
}
