package journal

import (
	"maps"
	"slices"
	"unsafe"
)

var (
	messageSlotBytes = int64(unsafe.Sizeof(Message{}))
	// mapGroupBytes is one group of a map[string]string as Go's maps lay
	// them out: 8 slots of a key and a value, and a control word.
	mapGroupBytes = 8 + 8*2*stringSlotBytes
	mapBaseBytes  = int64(48)
	// mapTableBytes is what a map's table costs besides its groups: the
	// table and its directory.
	mapTableBytes = int64(64)
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
	n += int64(cap(r.Tools)+cap(r.StopSequences)) * stringSlotBytes
	for _, list := range [...][]string{r.Tools, r.StopSequences} {
		for _, t := range list {
			n += stringBytes(t)
		}
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
// as Entry's own does. The messages kept are the last ones (see
// lastMessages): the end of a conversation is what its request added.
func (r Request) own() Request {
	r.System, r.ToolChoice, r.ResponseFormat = text(r.System), name(r.ToolChoice), name(r.ResponseFormat)
	r.User, r.PreviousResponseID, r.ConversationID = name(r.User), name(r.PreviousResponseID), name(r.ConversationID)
	r.Temperature, r.TopP = ownFloat(r.Temperature), ownFloat(r.TopP)
	r.Metadata = ownMap(r.Metadata)
	r.Tools = ownList(r.Tools, name)
	r.StopSequences = ownList(r.StopSequences, name)
	r.Messages = lastMessages(r.Messages, &r.OmittedMessages)
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
// and values as texts: of a larger map, those with the first keys in
// sorted order, so that the same request is always journaled the same.
// The copies share one allocation, made to measure: a request's dozen
// headers cost one instead of two dozen.
func ownMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	var keys []string // the keys kept of a map over the bound, sorted
	if len(m) > maxListItems {
		keys = slices.Sorted(maps.Keys(m))[:maxListItems]
	}
	n := 0
	if keys == nil {
		for k, v := range m {
			n += len(cut(k, maxNameBytes)) + len(cut(v, maxTextBytes))
		}
	} else {
		for _, k := range keys {
			n += len(cut(k, maxNameBytes)) + len(cut(m[k], maxTextBytes))
		}
	}
	c := carver{buf: make([]byte, 0, n)}
	out := make(map[string]string, min(len(m), maxListItems))
	if keys == nil {
		for k, v := range m {
			out[c.carve(cut(k, maxNameBytes))] = c.carve(cut(v, maxTextBytes))
		}
	} else {
		for _, k := range keys {
			out[c.carve(cut(k, maxNameBytes))] = c.carve(cut(m[k], maxTextBytes))
		}
	}
	return out
}

// carver copies strings into one buffer made to measure, which they share.
type carver struct{ buf []byte }

// carve returns a copy of s in c's buffer, which must have room for it.
func (c *carver) carve(s string) string {
	if s == "" {
		return ""
	}
	start := len(c.buf)
	c.buf = append(c.buf, s...)
	return unsafe.String(&c.buf[start], len(s))
}

// mapBytes is what a map[string]string as ownMap makes costs on the heap:
// its header, its groups, and its strings. A map of at most 8 entries is
// one group; a larger one has the groups of its table, whose slots are a
// power of two that keeps the load within 7/8, sized once by ownMap's
// hint. The sizes are those of Go's maps since 1.24, which
// TestEntrySizeCountsWhatTheEntryKeeps measures.
func mapBytes(m map[string]string) int64 {
	if m == nil {
		return 0
	}
	n := mapBaseBytes + allocBytes(mapGroupBytes)
	if len(m) > 8 {
		slots := 8
		for slots*7/8 < len(m) {
			slots *= 2
		}
		n = mapBaseBytes + mapTableBytes + allocBytes(int64(slots/8)*mapGroupBytes)
	}
	for k, v := range m {
		n += stringBytes(k) + stringBytes(v)
	}
	return n
}

// allocBytes is what an allocation of n bytes costs with the rounding of
// the allocator's size classes (by at most an eighth).
func allocBytes(n int64) int64 { return n + n/8 }

// maxMessagesBytes bounds the strings of the messages one entry keeps:
// roles, texts, tool call IDs, names and arguments. Every request of a conversation repeats the whole conversation,
// so without it a long agent run would fill the journal with copies of its
// early turns and evict its own first entries.
const maxMessagesBytes = 64 << 10

// lastMessages returns the last messages of list that fit maxListItems and
// maxMessagesBytes (at least the last one, clipped as own clips it), and
// adds the number left out to omitted.
func lastMessages(list []Message, omitted *int) []Message {
	from, used := len(list), 0
	for from > 0 && len(list)-from < maxListItems {
		m := &list[from-1]
		n := min(len(m.Role), maxNameBytes) + min(len(m.Text), maxTextBytes) + min(len(m.ToolCallID), maxNameBytes)
		for _, c := range m.ToolCalls[:min(len(m.ToolCalls), maxListItems)] {
			n += min(len(c.ID), maxNameBytes) + min(len(c.Name), maxNameBytes) + min(len(c.Arguments), maxTextBytes)
		}
		if used+n > maxMessagesBytes && from < len(list) {
			break
		}
		used += n
		from--
	}
	*omitted += from
	return list[from:]
}
