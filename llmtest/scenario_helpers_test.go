package llmtest_test

import "github.com/llmtestserver/llmtestserver/scenario"

// greetingScenario answers any chat completion once with text.
func greetingScenario(text string) scenario.Scenario {
	return scenario.Scenario{
		Name:    "greeting",
		Match:   scenario.Match{Endpoint: scenario.EndpointChatCompletions},
		Replies: []scenario.Reply{{Text: text}},
	}
}
