package runtime

import (
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// reserveRuntime returns a runtime with n scripted scenarios of which only
// the last matches matchRequest. The others use every data matcher and fail
// on different conditions: some on the user text, some on the tool offered,
// some on the turn, some only on the regular expression, after all the
// others held. The last one repeats, so Reserve never exhausts it.
func reserveRuntime(tb testing.TB, n int) *Runtime {
	tb.Helper()
	scenarios := make([]scenario.Scenario, 0, n)
	for i := range n - 1 {
		var m scenario.Match
		switch i % 4 {
		case 0:
			m = scenario.All(scenario.UserContains(fmt.Sprintf("order #%d", i)), scenario.ToolOffered("get_weather"))
		case 1:
			m = scenario.All(scenario.ToolOffered(fmt.Sprintf("tool_%d", i)), scenario.Turn(2))
		case 2:
			m = scenario.All(scenario.Turn(3), scenario.UserRegex(`^weather`))
		case 3:
			m = scenario.All(scenario.UserContains("weather"), scenario.ToolOffered("get_weather"), scenario.Turn(2),
				scenario.UserRegex(fmt.Sprintf(`^weather in city %d$`, i)))
		}
		scenarios = append(scenarios, scenario.Scenario{Name: fmt.Sprintf("miss-%d", i), Match: m,
			Replies: []scenario.Reply{scenario.Text("never")}})
	}
	scenarios = append(scenarios, scenario.Scenario{Name: "hit", Repeat: true,
		Match: scenario.All(scenario.UserContains("weather"), scenario.ToolOffered("get_weather"), scenario.Turn(2),
			scenario.UserRegex(`^weather in \w+\?$`), scenario.Not(scenario.HasToolResult("get_weather"))),
		Replies: []scenario.Reply{scenario.Text("sunny")}})
	for i := range scenarios {
		if err := scenarios[i].Validate(); err != nil {
			tb.Fatal(err)
		}
	}
	return New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Scenarios: scenarios})
}

// matchRequest is a second-turn chat request that offers get_weather.
func matchRequest() *scenario.Request {
	return &scenario.Request{
		Endpoint: scenario.EndpointChatCompletions,
		Model:    "gpt-4.1-mini",
		System:   "You are a weather bot.",
		Tools:    []scenario.Tool{{Name: "lookup"}, {Name: "get_weather"}},
		Messages: []scenario.Message{
			{Role: "user", Content: "hello"},
			{Role: "assistant", Content: "Hi! Ask me about the weather."},
			{Role: "user", Content: "weather in Paris?"},
		},
	}
}

// reserveOnce reserves the reply for a fresh copy of the request, as the
// server does for each request, and checks that the last scenario answered.
func reserveOnce(tb testing.TB, rt *Runtime, req *scenario.Request) {
	req.Conversation, req.ConversationSource, req.Generation, req.Turn = "", "", 0, 0
	res, err := rt.reserveWhole(req, "")
	if err != nil || res.Scenario != "hit" {
		tb.Fatalf("Reserve = %v, %v; want the last scenario", res, err)
	}
}

// BenchmarkReserve measures choosing the reply for a request when only the
// last of 1 or 100 scenarios matches.
func BenchmarkReserve(b *testing.B) {
	for _, n := range []int{1, 100} {
		b.Run(fmt.Sprintf("scenarios=%d", n), func(b *testing.B) {
			rt := reserveRuntime(b, n)
			req := matchRequest()
			reserveOnce(b, rt, req)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				reserveOnce(b, rt, req)
			}
		})
	}
}

// Passing over a scenario that does not match allocates nothing: Reserve
// costs as many allocations with 99 misses before the match as with none.
func TestReserveAllocatesNothingPerMiss(t *testing.T) {
	if raceEnabled() {
		t.Skip("under -race, sync.Pool drops pooled items at random (regexp keeps its matchers in one), so allocations are not counted")
	}
	req := matchRequest()
	allocs := func(n int) float64 {
		rt := reserveRuntime(t, n)
		return testing.AllocsPerRun(200, func() { reserveOnce(t, rt, req) })
	}
	one, hundred := allocs(1), allocs(100)
	if hundred != one {
		t.Errorf("Reserve allocates %v times with 100 scenarios and %v with 1: %v per non-matching scenario",
			hundred, one, (hundred-one)/99)
	}
}

// raceEnabled reports whether the test binary was built with -race.
func raceEnabled() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}
