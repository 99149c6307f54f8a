package openai

import (
	"net/http"
	"strconv"
)

// Paging limits of the API's cursor lists (input_items, conversation
// items, stored chat completions and their messages): the API documents a
// default of 20 and, for input_items, a maximum of 100; the same maximum
// for the other lists is inferred.
const (
	defaultPageLimit = 20
	maxPageLimit     = 100
)

// pageQuery is the after, limit and order of a list request.
type pageQuery struct {
	after string
	limit int
	desc  bool
}

// readPageQuery reads after, limit and order from a list request's query;
// desc is the list's default order (newest first for items, oldest first
// for stored chat completions).
func readPageQuery(r *http.Request, desc bool) (pageQuery, *Error) {
	q := r.URL.Query()
	p := pageQuery{after: q.Get("after"), limit: defaultPageLimit, desc: desc}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return p, InvalidType("limit", "an integer", "a string")
		}
		if err := checkPageLimit(n); err != nil {
			return p, err
		}
		p.limit = n
	}
	return p, p.setOrder(q.Get("order"))
}

// checkPageLimit refuses a limit outside 1 to maxPageLimit.
func checkPageLimit(n int) *Error {
	switch {
	case n < 1:
		return integerBelow("limit", 1, int64(n))
	case n > maxPageLimit:
		return invalidRequest(http.StatusBadRequest, "integer_above_max_value", "limit",
			"Invalid 'limit': integer above maximum value. Expected a value <= %d, but got %d instead.", maxPageLimit, n)
	}
	return nil
}

// setOrder sets the order a query names; "" keeps the list's default.
func (p *pageQuery) setOrder(order string) *Error {
	switch order {
	case "":
	case "asc":
		p.desc = false
	case "desc":
		p.desc = true
	default:
		return invalidValue("order", order, []string{"asc", "desc"})
	}
	return nil
}

// pageOf selects one page of list (oldest first) as p asks, with whether
// more follow. The page shares no backing array with list. An after that
// names no element is refused with param after and the message
// afterMissing (a format of the after ID): the API's wording is not
// documented, this is the server's.
func pageOf[T any](list []T, id func(*T) string, p pageQuery, afterMissing string) ([]T, bool, *Error) {
	ordered := make([]T, len(list))
	copy(ordered, list)
	if p.desc {
		for i, j := 0, len(ordered)-1; i < j; i, j = i+1, j-1 {
			ordered[i], ordered[j] = ordered[j], ordered[i]
		}
	}
	start := 0
	if p.after != "" {
		start = -1
		for i := range ordered {
			if id(&ordered[i]) == p.after {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return nil, false, invalidRequest(http.StatusBadRequest, "", "after", afterMissing, p.after)
		}
	}
	end := min(start+p.limit, len(ordered))
	return ordered[start:end], end < len(ordered), nil
}
