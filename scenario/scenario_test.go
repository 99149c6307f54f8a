package scenario_test

import (
	"encoding/json"
	"reflect"
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

// recorder is a Sink that keeps what a Builder sends it.
type recorder struct {
	names   []string
	replies []scenario.Reply
}

func (r *recorder) AddReplies(name string, _ scenario.Match, replies ...scenario.Reply) {
	r.names = append(r.names, name)
	r.replies = append(r.replies, replies...)
}

func TestBuilder(t *testing.T) {
	var rec recorder
	scenario.NewBuilder(&rec, "s", scenario.Match{}).Responds("a").RespondsAfter(time.Second, "b").Reply(scenario.Reply{Text: "c"})
	want := []scenario.Reply{{Text: "a"}, {Text: "b", Delay: time.Second}, {Text: "c"}}
	if !reflect.DeepEqual(rec.replies, want) || len(rec.names) != 3 || rec.names[2] != "s" {
		t.Errorf("builder sent %v %+v, want %+v under s", rec.names, rec.replies, want)
	}
}
