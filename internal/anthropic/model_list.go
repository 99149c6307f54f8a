package anthropic

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

type modelList struct {
	Data    []modelObject `json:"data"`
	HasMore bool          `json:"has_more"`
	FirstID *string       `json:"first_id"`
	LastID  *string       `json:"last_id"`
}

// listQuery is what GET /v1/models reads of its query (ModelListParams):
// a page of Limit models after AfterID or before BeforeID, of the
// lifecycle stages asked for.
type listQuery struct {
	Limit             int
	AfterID, BeforeID string
	Lifecycles        []string
}

// defaultLifecycles are the stages listed when none is asked for: retired
// models appear only when asked for (ModelListParams.Lifecycle doc).
var defaultLifecycles = []string{lifecycleActive, lifecycleDeprecated}

// parseListQuery reads q as the API does. anthropic-sdk-go sends arrays
// as lifecycle[]=...; a repeated or comma-separated lifecycle is read
// too. The refusals' wording is pydantic's (inferred).
func parseListQuery(q url.Values) (listQuery, *apierr.Error) {
	lq := listQuery{Limit: 20, AfterID: q.Get("after_id"), BeforeID: q.Get("before_id")}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		switch {
		case err != nil:
			return lq, fieldError("limit", "Input should be a valid integer, unable to parse string as an integer")
		case n < 1:
			return lq, fieldError("limit", "Input should be greater than or equal to 1")
		case n > 1000:
			return lq, fieldError("limit", "Input should be less than or equal to 1000")
		}
		lq.Limit = n
	}
	for _, v := range append(q["lifecycle[]"], q["lifecycle"]...) {
		for s := range strings.SplitSeq(v, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			if err := literal("lifecycle", s, lifecycleActive, lifecycleDeprecated, lifecycleRetired); err != nil {
				return lq, err
			}
			lq.Lifecycles = append(lq.Lifecycles, s)
		}
	}
	if len(lq.Lifecycles) == 0 {
		lq.Lifecycles = defaultLifecycles
	}
	return lq, nil
}

// ModelList is GET /v1/models over ids, in their order, at now (the
// session's clock): like the real list it shows dated IDs, so an alias
// whose dated model is also listed is left out (an alias listed alone
// resolves to its dated model); it keeps the models of the lifecycle
// stages asked for, and pages them.
func ModelList(ids []string, now time.Time, q listQuery) any {
	all := make([]modelObject, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		o := modelFor(id, now)
		if seen[o.ID] || !slices.Contains(q.Lifecycles, o.Lifecycle) {
			continue
		}
		seen[o.ID] = true
		all = append(all, o)
	}
	start, end := 0, len(all)
	switch {
	case q.AfterID != "":
		start = indexOf(all, q.AfterID) + 1
		if start == 0 {
			start = len(all) // a cursor that is not listed pages nothing (inferred)
		}
		end = min(start+q.Limit, len(all))
	case q.BeforeID != "":
		end = max(indexOf(all, q.BeforeID), 0)
		start = max(end-q.Limit, 0)
	default:
		end = min(q.Limit, len(all))
	}
	l := modelList{Data: all[start:end]}
	if q.BeforeID != "" {
		l.HasMore = start > 0
	} else {
		l.HasMore = end < len(all)
	}
	if n := len(l.Data); n > 0 {
		l.FirstID, l.LastID = &l.Data[0].ID, &l.Data[n-1].ID
	}
	return l
}

func indexOf(list []modelObject, id string) int {
	for i := range list {
		if list[i].ID == id {
			return i
		}
	}
	return -1
}
