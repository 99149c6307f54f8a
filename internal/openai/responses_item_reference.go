package openai

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// ResolveReferences replaces every item_reference of items with the item
// it names, found in the session's history: an input or output item of a
// stored response, or an item of a conversation, the newest record first.
// items is changed in place and returned. A reference to no kept item is
// the API's 404 (ItemNotFound); stores is whether the request stores its
// response, which that error's wording depends on.
func ResolveReferences(rt *runtime.Runtime, items []Item, stores bool) ([]Item, *Error) {
	for i, it := range items {
		if it.Type != "item_reference" {
			continue
		}
		found, ok := storedItem(rt, it.ID)
		if !ok {
			return nil, ItemNotFound(it.ID, stores)
		}
		items[i] = found
	}
	return items, nil
}

// storedItem returns the kept item id of rt's history. The records it
// looks in are never changed once stored, so the item it returns shares
// their strings and parts safely.
func storedItem(rt *runtime.Runtime, id string) (Item, bool) {
	var found Item
	_, ok := rt.Find(func(s runtime.Stored) bool {
		var holds []Item
		switch r := s.(type) {
		case *StoredResponse:
			holds = r.Input
			// Output builds the output items anew: only for a response
			// that made an item of this ID, as this runs under the
			// runtime's lock for every record.
			if r.Answer.madeItem(id) {
				if it, ok := itemByID(r.Output(), id); ok {
					found = it
					return true
				}
			}
		case *StoredConversation:
			holds = r.Items
		}
		it, ok := itemByID(holds, id)
		found = it
		return ok
	})
	return found, ok
}

func itemByID(items []Item, id string) (Item, bool) {
	for _, it := range items {
		if it.ID == id && it.Type != "item_reference" {
			return it, true
		}
	}
	return Item{}, false
}

// ItemNotFound answers an item_reference to an item the session does not
// keep: 404, param input. The wording with store:false is the one the
// live API answers (reported by several clients: "Item with id 'rs_…' not
// found. Items are not persisted when `store` is set to false. Try again
// with `store` set to true, or remove this item from your input."); the
// shorter one of a request that stores, and the param, are inferred.
func ItemNotFound(id string, stores bool) *Error {
	if !stores {
		return invalidRequest(http.StatusNotFound, "", "input",
			"Item with id '%s' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.", id)
	}
	return invalidRequest(http.StatusNotFound, "", "input", "Item with id '%s' not found.", id)
}

// untypedItem is the type of an input item sent without one: an item
// reference when it has an id and nothing of a message (openai-go's
// ResponseInputItemParamOfItemReference sends {"id": …} alone, which the
// spec's ItemReferenceParam allows, its type being optional), and a
// message otherwise (the easy message, {role, content}).
func untypedItem(o rawObject) string {
	_, role := o.members["role"]
	_, content := o.members["content"]
	if o.has("id") && !role && !content {
		return "item_reference"
	}
	return "message"
}

// madeItem reports whether id is the ID of an output item of a: its
// message, a function call or its reasoning item.
func (a *ResponseAnswer) madeItem(id string) bool {
	if id == a.MessageID || (a.Reasoning != nil && id == a.Reasoning.ID) {
		return true
	}
	for _, c := range a.ToolCalls {
		if c.ID == id {
			return true
		}
	}
	return false
}
