package openai

import "testing"

// An input item whose type is null is a message, as the decoder reads it,
// and its fields are checked as a message's.
func TestNullTypeItemIsChecked(t *testing.T) {
	err := CheckResponsesParams([]byte(`{"model":"m","input":[{"type":null,"role":"user","content":"x","bogus":1}]}`))
	if err == nil || err.Param != "input[0].bogus" {
		t.Errorf("CheckResponsesParams = %v", err)
	}
}
