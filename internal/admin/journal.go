package admin

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/journal"
)

// journalList is the body of GET /admin-api/journal.
type journalList struct {
	Object  string          `json:"object"`
	Data    []journal.Entry `json:"data"`
	Evicted uint64          `json:"evicted"`
}

// journalFilters are the query parameters of GET /admin-api/journal, in
// the order its errors list them: each sets the journal.Query field of
// the same meaning.
var journalFilters = []string{"provider", "endpoint", "model", "scenario", "conversation", "generation", "status",
	"error_code", "fault"}

// journal serves GET /admin-api/journal: the kept entries the query
// parameters select, oldest first, or in turn order when they name a
// conversation (journal.Journal.Conversation). No parameter selects them
// all.
func (h *Handler) journal(w http.ResponseWriter, r *http.Request, c call) {
	sel := c.sel
	q, err := parseJournalQuery(r.URL.Query())
	if err != nil {
		writeError(w, err)
		return
	}
	j := sel.rt.Journal()
	var entries []journal.Entry
	if q.Conversation != "" {
		entries = slices.DeleteFunc(j.Conversation(q.Conversation), func(e journal.Entry) bool { return !q.Match(e) })
	} else {
		entries = j.Find(q)
	}
	if len(entries) == 0 {
		entries = []journal.Entry{}
	}
	writeJSON(w, http.StatusOK, journalList{Object: "list", Data: entries, Evicted: j.Evicted()})
}

// parseJournalQuery reads the filters of GET /admin-api/journal. A
// parameter it does not know, one given twice or empty (leave a filter out
// to match anything), a status that is neither a status code nor a class
// such as "4xx", and a generation that is not a positive integer are
// refused, so that a misspelt filter never reads as "everything".
func parseJournalQuery(values url.Values) (journal.Query, *apierr.Error) {
	var q journal.Query
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	slices.Sort(names) // the same error for the same request, whatever the map's order
	for _, name := range names {
		vs := values[name]
		if !slices.Contains(journalFilters, name) {
			return q, badJournalParam(name, "Unknown query parameter '%s' for GET /admin-api/journal. The filters are %s.",
				name, strings.Join(journalFilters, ", "))
		}
		if len(vs) != 1 {
			return q, badJournalParam(name, "The query parameter '%s' is given %d times; give it once.", name, len(vs))
		}
		v := vs[0]
		if v == "" {
			return q, badJournalParam(name, "The query parameter '%s' is empty; leave it out to match every entry.", name)
		}
		switch name {
		case "provider":
			q.Provider = v
		case "endpoint":
			q.Endpoint = v
		case "model":
			q.Model = v
		case "scenario":
			q.Scenario = v
		case "conversation":
			q.Conversation = v
		case "error_code":
			q.ErrorCode = v
		case "fault":
			q.Fault = v
		case "generation":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return q, badJournalParam(name, "Invalid generation '%s': want a positive integer.", v)
			}
			q.Generation = n
		case "status":
			if err := parseStatus(v, &q); err != nil {
				return q, err
			}
		}
	}
	return q, nil
}

// parseStatus sets q's Status from a status code ("404"), or its
// StatusClass from a class ("4xx").
func parseStatus(v string, q *journal.Query) *apierr.Error {
	if len(v) == 3 && v[0] >= '1' && v[0] <= '5' && strings.EqualFold(v[1:], "xx") {
		q.StatusClass = int(v[0] - '0')
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 100 || n > 599 || len(v) != 3 {
		return badJournalParam("status", "Invalid status '%s': want an HTTP status code such as 404, or a class such as 4xx.", v)
	}
	q.Status = n
	return nil
}

func badJournalParam(param, format string, args ...any) *apierr.Error {
	return &apierr.Error{Status: http.StatusBadRequest, Code: "invalid_query_parameter", Param: param,
		Message: fmt.Sprintf(format, args...)}
}
