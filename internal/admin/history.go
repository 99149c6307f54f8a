package admin

import (
	"net/http"
	"time"
)

// historyList is the body of GET /admin-api/history.
type historyList struct {
	Object string         `json:"object"`
	Data   []storedRecord `json:"data"`
	// Bytes is the sum of the records' size_bytes.
	Bytes int64 `json:"bytes"`
	// History holds the bounds in use, as the configuration's history.
	History historyBounds `json:"history"`
}

// storedRecord is one record of the history.
type storedRecord struct {
	ID string `json:"id"`
	// Kind is the object name of the record: "response", "chat.completion"
	// or "conversation".
	Kind string `json:"kind"`
	// CreatedAt is the record's creation time, to the second, in UTC.
	CreatedAt time.Time `json:"created_at"`
	// SizeBytes is what the record counts against history.max_bytes.
	SizeBytes int64 `json:"size_bytes"`
	// PreviousResponseID is the response a response continued.
	PreviousResponseID string `json:"previous_response_id,omitempty"`
}

// historyBounds are the configuration's history bounds.
type historyBounds struct {
	Capacity int   `json:"capacity"`
	MaxBytes int64 `json:"max_bytes"`
}

// history serves GET /admin-api/history: the records the selected
// runtime keeps for retrieval, previous_response_id and the Conversations
// API (stored responses, chat completions stored with store:true,
// conversations), oldest first in storing order, with the bounds they are
// kept within (session.Session.History in Go).
func (h *Handler) history(w http.ResponseWriter, _ *http.Request, c call) {
	infos, bytes := c.sel.rt.RecordInfos()
	st := c.sel.rt.Settings()
	list := historyList{Object: "list", Data: make([]storedRecord, len(infos)), Bytes: bytes,
		History: historyBounds{Capacity: st.HistoryCapacity, MaxBytes: st.HistoryMaxBytes}}
	for i, r := range infos {
		list.Data[i] = storedRecord{ID: r.ID, Kind: r.Kind, CreatedAt: r.Created, SizeBytes: r.Size, PreviousResponseID: r.PreviousID}
	}
	writeJSON(w, http.StatusOK, list)
}
