package journal

import "unsafe"

var (
	messageSlotBytes = int64(unsafe.Sizeof(Message{}))
	// mapEntryBytes is what one entry of a small map[string]string costs
	// besides its strings: its key and value headers and its share of the
	// map's buckets, rounded up.
	mapEntryBytes = 2*stringSlotBytes + 16
	mapBaseBytes  = int64(48)
	floatBytes    = int64(8)
)

// size is what r keeps on the heap beyond its slot in the entry.
func (r *Request) size() int64 {
	n := stringBytes(r.System) + stringBytes(r.ToolChoice) + stringBytes(r.ResponseFormat) + stringBytes(r.User) +
		stringBytes(r.PreviousResponseID) + stringBytes(r.ConversationID) + mapBytes(r.Metadata)
	if r.Temperature != nil {
		n += floatBytes
	}
	if r.TopP != nil {
		n += floatBytes
	}
	n += int64(cap(r.Tools)) * stringSlotBytes
	for _, t := range r.Tools {
		n += stringBytes(t)
	}
	n += int64(cap(r.Messages)) * messageSlotBytes
	for _, m := range r.Messages {
		n += stringBytes(m.Role) + stringBytes(m.Text) + stringBytes(m.ToolCallID) + int64(cap(m.ToolCalls))*callSlotBytes
		for _, c := range m.ToolCalls {
			n += stringBytes(c.ID) + stringBytes(c.Name) + stringBytes(c.Arguments)
		}
	}
	return n
}

// own returns r with its strings clipped and copied and its lists clipped,
// as Entry's own does. The messages kept are the last maxListItems: the
// end of a conversation is what its request added.
func (r Request) own() Request {
	r.System, r.ToolChoice, r.ResponseFormat = text(r.System), name(r.ToolChoice), name(r.ResponseFormat)
	r.User, r.PreviousResponseID, r.ConversationID = name(r.User), name(r.PreviousResponseID), name(r.ConversationID)
	r.Temperature, r.TopP = ownFloat(r.Temperature), ownFloat(r.TopP)
	r.Metadata = ownMap(r.Metadata)
	r.Tools = ownList(r.Tools, name)
	if len(r.Messages) > maxListItems {
		r.Messages = r.Messages[len(r.Messages)-maxListItems:]
	}
	r.Messages = ownList(r.Messages, func(m Message) Message {
		return Message{Role: name(m.Role), Text: text(m.Text), ToolCallID: name(m.ToolCallID),
			ToolCalls: ownList(m.ToolCalls, func(c ToolCall) ToolCall {
				return ToolCall{ID: name(c.ID), Name: name(c.Name), Arguments: text(c.Arguments)}
			})}
	})
	return r
}

func (c *Client) size() int64 {
	return stringBytes(c.UserAgent) + mapBytes(c.Stainless)
}

func (c Client) own() Client {
	c.UserAgent, c.Stainless = name(c.UserAgent), ownMap(c.Stainless)
	return c
}

// ownFloat copies *f, so that the entry shares nothing with the request.
func ownFloat(f *float64) *float64 {
	if f == nil {
		return nil
	}
	v := *f
	return &v
}

// ownMap copies at most maxListItems entries of m, keys clipped as names
// and values as texts. Which entries are kept of a larger map is not
// specified.
func ownMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, min(len(m), maxListItems))
	for k, v := range m {
		if len(out) == maxListItems {
			break
		}
		out[name(k)] = text(v)
	}
	return out
}

// mapBytes is what a map[string]string as ownMap makes costs on the heap.
func mapBytes(m map[string]string) int64 {
	if m == nil {
		return 0
	}
	n := mapBaseBytes + int64(len(m))*mapEntryBytes
	for k, v := range m {
		n += stringBytes(k) + stringBytes(v)
	}
	return n
}
