package session

import "time"

// StoredRecord is one record a session keeps in its history: a Responses
// API response, a chat completion stored with store:true, a conversation
// of the Conversations API, or an Anthropic message a message thread
// keeps (the turn it answered).
type StoredRecord struct {
	// ID is the record's ID ("resp_...", "chatcmpl-...", "conv_...",
	// "msg_...").
	ID string
	// Kind is the object name the API gives the record: "response",
	// "chat.completion", "conversation" or "message".
	Kind string
	// Created is when the record was made, on the server's clock, to the
	// second (as the API's created_at shows it), in UTC.
	Created time.Time
	// Size is the bytes the record counts against history.max_bytes.
	Size int64
	// PreviousID is the previous_response_id a response continued, or
	// the previous_message_id a thread's message continued; "" for none.
	PreviousID string
}

// History is what a session's history keeps, and the bounds it keeps it
// within.
type History struct {
	// Records are the kept records, oldest first, in the order they were
	// stored (a conversation that changed is stored again, and so moves
	// to the end).
	Records []StoredRecord
	// Bytes is the sum of the records' sizes.
	Bytes int64
	// Bounds are the bounds in use: the configuration's history.
	Bounds HistoryConfig
}

// History returns what the session keeps of stored responses, stored chat
// completions and conversations, which retrieval, previous_response_id
// and the Conversations API read, and the bounds in use. It is a
// snapshot: the records themselves stay the session's.
func (s *Session) History() History {
	infos, bytes := s.rt.RecordInfos()
	st := s.rt.Settings()
	h := History{Records: make([]StoredRecord, len(infos)), Bytes: bytes,
		Bounds: HistoryConfig{Capacity: st.HistoryCapacity, MaxBytes: st.HistoryMaxBytes}}
	for i, r := range infos {
		h.Records[i] = StoredRecord{ID: r.ID, Kind: r.Kind, Created: r.Created, Size: r.Size, PreviousID: r.PreviousID}
	}
	return h
}
