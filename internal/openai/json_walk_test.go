package openai

import (
	"encoding/json"
	"testing"
)

// The walker finds unknown fields at the right path across escaped
// strings, escaped keys, nested arrays and whitespace, and reports nothing
// for malformed input, which the decoder then refuses.
func TestFindUnknownWalksTheDocument(t *testing.T) {
	for body, want := range map[string]string{
		`{"model":"m","messages":[{"role":"user","content":"a \"quoted\" \\ text }]"}]}`:                                                                                                   "",
		`{"model":"m","messages":[{"role":"user","content":"a \\\"","x":1}]}`:                                                                                                              "messages[0].x",
		` { "model" : "m" , "messages" : [ { "role" : "user" } , { "role":"user","tool_calls":[{"id":"c","index":0,"function":{"name":"f","arguments":"{}","extra":[1,{"a":"}"}]}}]} ] } `: "messages[1].tool_calls[0].function.extra",
		`{"mod\u0065l":"m","te\u006dp":1}`:              "temp",
		`{"model":"m","messages":"not an array","z":1}`: "z",
		`{"model":"m","messages":[{"role":"user"`:       "",
		`{"model":"m",}`: "",
		`[1,2]`:          "",
		`{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"u","size":3}}]}]}`: "messages[0].content[0].image_url.size",
	} {
		got := ""
		if u := findUnknown(chatParams, []byte(body)); u != nil {
			got = u.path
		}
		if got != want {
			t.Errorf("findUnknown(%s) = %q, want %q", body, got, want)
		}
	}
	// Typed objects pick their fields by their type member, wherever it is.
	for body, want := range map[string]string{
		`{"input":[{"call_id":"c","output":"x","type":"function_call_output","arguments":"{}"}]}`:    "input[0].arguments",
		`{"input":[{"role":"user","content":"x","call_id":"c"}]}`:                                    "input[0].call_id",
		`{"input":[{"type":"web_search_call","action":{"query":null}}]}`:                             "",
		`{"tools":[{"type":"web_search","filters":{}},{"name":"f","type":"function","parallel":1}]}`: "tools[1].parallel",
	} {
		got := ""
		if u := findUnknown(responsesParams, []byte(body)); u != nil {
			got = u.path
		}
		if got != want {
			t.Errorf("findUnknown(%s) = %q, want %q", body, got, want)
		}
	}
}

// topMembers reads the raw values of the members asked for, the last one
// where a name repeats, as encoding/json does.
func TestTopMembers(t *testing.T) {
	got := topMembers([]byte(`{"a":"x\"y","b":[1,{"c":2}],"a":3 ,"d":null}`), "a", "b", "d")
	want := map[string]string{"a": `3`, "b": `[1,{"c":2}]`, "d": `null`}
	if len(got) != len(want) {
		t.Fatalf("topMembers = %v", got)
	}
	for k, v := range want {
		if string(got[k]) != v {
			t.Errorf("%s = %s, want %s", k, got[k], v)
		}
	}
	if topMembers([]byte(`{"a":`), "a") != nil {
		t.Error("a malformed body has members")
	}
}

// No input makes the walker panic or loop; what encoding/json takes as an
// object it walks to the end.
func FuzzFindUnknown(f *testing.F) {
	for _, s := range []string{`{"model":"m","messages":[{"role":"user","content":"x"}]}`, `{"a":"\\"}`, `{"input":[{"type":"message"}]}`, `{`, `"x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		findUnknown(chatParams, []byte(body))
		u := findUnknown(responsesParams, []byte(body))
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(body), &m) == nil && u == nil && topMembers([]byte(body)) == nil {
			t.Errorf("a JSON object %q reads as malformed", body)
		}
	})
}
