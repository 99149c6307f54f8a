package scenario_test

import (
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/friend"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// newBuilder makes a builder as a session does, through package friend,
// scripting into sink.
func newBuilder(sink friend.ScenarioSink[scenario.Match, scenario.Reply, scenario.Scenario], name string, base scenario.Match) *scenario.Builder {
	return friend.NewBuilder[*scenario.Builder](sink, name, base)
}

// callLog is a sink that logs the calls it gets, in order, and applies them
// to the scenarios it holds, as a session does.
type callLog struct {
	calls     []string
	scenarios map[string]*scenario.Scenario
}

func (l *callLog) get(name string, match scenario.Match) *scenario.Scenario {
	if l.scenarios == nil {
		l.scenarios = make(map[string]*scenario.Scenario)
	}
	s, ok := l.scenarios[name]
	if !ok {
		s = &scenario.Scenario{Name: name, Match: match}
		l.scenarios[name] = s
	}
	return s
}

func (l *callLog) AddReplies(name string, match scenario.Match, replies ...scenario.Reply) {
	l.calls = append(l.calls, "add "+name)
	s := l.get(name, match)
	s.Replies = append(s.Replies, replies...)
}

func (l *callLog) ClearReplies(name string) {
	l.calls = append(l.calls, "clear "+name)
	if s, ok := l.scenarios[name]; ok {
		s.Replies = nil
	}
}

func (l *callLog) UpdateScenario(name string, match scenario.Match, change func(*scenario.Scenario)) {
	l.calls = append(l.calls, "update "+name)
	change(l.get(name, match))
}

// chatRequest is a chat completion request for model with one user message.
func chatRequest(model, user string) *scenario.Request {
	return &scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: model,
		Messages: []scenario.Message{{Role: "user", Content: user}}}
}

func TestWhenAddsEveryCondition(t *testing.T) {
	var log callLog
	newBuilder(&log, "s", scenario.Match{}).
		When(scenario.UserContains("a")).When(scenario.Model("m")).When(scenario.Not(scenario.UserContains("z"))).
		Responds("ok")
	s := log.scenarios["s"]
	for _, tt := range []struct {
		req  *scenario.Request
		want bool
	}{
		{chatRequest("m", "a"), true},
		{chatRequest("m", "b"), false},
		{chatRequest("other", "a"), false},
		{chatRequest("m", "a z"), false},
	} {
		if got := s.Match.Matches(tt.req); got != tt.want {
			t.Errorf("%s matching model %q, user %q = %v, want %v", s.Match.Describe(), tt.req.Model, tt.req.LastUserText(), got, tt.want)
		}
	}
}

func TestBuilderScriptsNothingBeforeTheFirstReply(t *testing.T) {
	var log callLog
	b := newBuilder(&log, "s", scenario.Match{Endpoint: scenario.EndpointChatCompletions}).
		When(scenario.UserContains("a")).Repeat().PerConversation()
	if len(log.calls) != 0 {
		t.Fatalf("calls before the first reply: %v, want none", log.calls)
	}
	b.Responds("one")
	if got := strings.Join(log.calls, ", "); got != "add s, update s" {
		t.Errorf("calls = %s, want the reply, then the settings asked for before it", got)
	}
	s := log.scenarios["s"]
	if !s.Repeat || !s.PerConversation || len(s.Replies) != 1 || s.Validate() != nil {
		t.Errorf("scenario = %+v, want one reply, repeat and per-conversation", *s)
	}
	if s.Match.Matches(chatRequest("m", "b")) || !s.Match.Matches(chatRequest("m", "a")) {
		t.Errorf("match %s lost the When given before the reply", s.Match.Describe())
	}
	// After the first reply, every call applies at once.
	b.When(scenario.Model("m"))
	if got := log.calls[len(log.calls)-1]; got != "update s" {
		t.Errorf("When after a reply: last call %q, want an update", got)
	}
	if s.Match.Matches(chatRequest("other", "a")) {
		t.Errorf("match %s lost the When given after the reply", s.Match.Describe())
	}
}

// A builder copies the matches it is given, so validating them in place
// never writes to the caller's tree (which other sessions may be matching
// with), and a later change to the caller's value does not reach the
// scenario.
func TestBuilderCopiesItsMatches(t *testing.T) {
	var log callLog
	m := scenario.All(scenario.UserRegex(`^a`), scenario.Not(scenario.UserRegex(`z$`)))
	newBuilder(&log, "s", m).When(m).Responds("ok")
	m.All[0].UserRegex = `^b`
	if d := log.scenarios["s"].Match.Describe(); strings.Contains(d, "^b") {
		t.Errorf("the scenario's match (%s) follows a change to the caller's value", d)
	}
}

func TestNewBuilderRefusesAnInvalidBase(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "user_regex") {
			t.Errorf("panic = %v, want one naming user_regex", r)
		}
	}()
	newBuilder(&callLog{}, "s", scenario.All(scenario.UserRegex(`(`)))
}
