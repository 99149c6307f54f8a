// Package scenario describes what the fake model answers.
//
// A [Scenario] is a name, a [Match] and an ordered queue of [Reply] values.
// The server offers every provider request, normalized into a [Request], to a
// session's scenarios in order; the first scenario that matches and still has
// a reply answers it, and that reply is used up. A request that no scenario
// answers gets the provider-shaped error llm_test_server_no_scenario.
//
// Scenarios are plain data: the same values script a session in Go through a
// [Builder] and travel as JSON in the configuration the admin API accepts.
//
//	sess.Chat("greeting").Responds("Hello from this test")
//
// is the Go form of
//
//	{"name": "greeting", "match": {"endpoint": "chat.completions"},
//	 "replies": [{"text": "Hello from this test"}]}
package scenario
