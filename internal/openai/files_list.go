package openai

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// Paging of the files list: "Limit can range between 1 and 10,000, and the
// default is 10,000" (FileListParams.Limit's doc); newest first unless
// order=asc.
const (
	defaultFileLimit = 10000
	maxFileLimit     = 10000
)

// objectList is a page of a cursor list (openai-go's CursorPage): the SDK
// asks for the next one with after set to the last item's ID while
// has_more.
type objectList[T any] struct {
	Object  string  `json:"object"`
	Data    []T     `json:"data"`
	FirstID *string `json:"first_id"`
	LastID  *string `json:"last_id"`
	HasMore bool    `json:"has_more"`
}

// listFiles serves GET /v1/files: the session's visible files, of the
// purpose asked for if one is, paged with after, limit and order.
func listFiles(x *provider.Exchange) provider.Response {
	p, err := readFilePage(x.Request)
	if err != nil {
		return provider.Response{Err: err}
	}
	purpose := x.Request.URL.Query().Get("purpose")
	jobs, statuses := x.Runtime.Jobs(fileKind)
	files := make([]fileObject, 0, len(jobs))
	for i := range jobs {
		if statuses[i].State != runtime.JobCompleted {
			continue // a batch's output, not written yet
		}
		if rec, _ := jobs[i].Data.(fileRecord); purpose != "" && rec.purpose != purpose {
			continue
		}
		files = append(files, fileObjectOf(&jobs[i], statuses[i]))
	}
	// Oldest first, by the created_at shown: a batch's output is made with
	// the batch but written when it ends.
	slices.SortStableFunc(files, func(a, b fileObject) int { return cmp.Compare(a.CreatedAt, b.CreatedAt) })
	page, more, err := pageOf(files, func(f *fileObject) string { return f.ID }, p, "Invalid 'after': no file with id '%s'.")
	if err != nil {
		return provider.Response{Err: err}
	}
	return provider.Response{JSON: listOf(page, more, func(f *fileObject) string { return f.ID })}
}

// listOf is a page of items with its cursors.
func listOf[T any](page []T, more bool, id func(*T) string) objectList[T] {
	l := objectList[T]{Object: "list", Data: page, HasMore: more}
	if n := len(page); n > 0 {
		first, last := id(&page[0]), id(&page[n-1])
		l.FirstID, l.LastID = &first, &last
	}
	return l
}

// readFilePage reads the files list's after, limit and order.
func readFilePage(r *http.Request) (pageQuery, *Error) {
	q := r.URL.Query()
	p := pageQuery{after: q.Get("after"), limit: defaultFileLimit, desc: true}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		switch {
		case err != nil:
			return p, InvalidType("limit", "an integer", "a string")
		case n < 1:
			return p, integerBelow("limit", 1, int64(n))
		case n > maxFileLimit:
			return p, invalidRequest(http.StatusBadRequest, "integer_above_max_value", "limit",
				"Invalid 'limit': integer above maximum value. Expected a value <= %d, but got %d instead.", maxFileLimit, n)
		}
		p.limit = n
	}
	return p, p.setOrder(q.Get("order"))
}
