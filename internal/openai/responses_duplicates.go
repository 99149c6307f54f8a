package openai

import "net/http"

// checkDuplicates refuses items in which two share an ID, as the real API
// refuses an input that repeats an item of itself or of the conversation
// it continues (a previous_response_id chain, a conversation): "Duplicate
// item found with id X. Remove duplicate items from your input and try
// again.", param input and no code (seen). param names the list the
// request sent ("input"; "items" for the Conversations API, inferred).
func checkDuplicates(param string, items []Item) *Error {
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		if it.ID == "" || it.Type == "item_reference" {
			continue
		}
		if seen[it.ID] {
			return invalidRequest(http.StatusBadRequest, "", param,
				"Duplicate item found with id %s. Remove duplicate items from your input and try again.", it.ID)
		}
		seen[it.ID] = true
	}
	return nil
}
