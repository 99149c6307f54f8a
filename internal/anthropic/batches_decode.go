package anthropic

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// What the API checks of a batch when it is created: the shape of the
// body, each request's custom_id, and that its params is an object. The
// params themselves are checked only when each request is processed:
// "Validation of the params object for each message request is performed
// asynchronously, and validation errors are returned when processing of
// the entire batch has ended" (the batch processing guide), so a request
// whose params the Messages API refuses is an errored result, not a
// refused batch.

// maxBatchRequests is the most requests a batch holds ("limited to either
// 100,000 Message requests or 256 MB in size"); the server's body bound
// comes first for the bytes.
const maxBatchRequests = 100_000

// customIDPattern is what a custom_id must match: 1 to 64 characters
// (MessageBatchNewParamsRequest's minLength and maxLength) of letters,
// digits, "_" and "-" (the API's refusal as users quote it; inferred from
// those reports).
var customIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// batchRequest is one request of a batch as created: its custom_id, its
// params as sent (a slice of the request's body, used while the batch is
// created and not kept), and what the batch reads of them.
type batchRequest struct {
	customID string
	params   json.RawMessage
	// stream is params.stream: true, which a batch cannot answer (see
	// streamRefused); model is params.model when it is a string.
	stream bool
	model  string
}

// decodeBatch reads a POST /v1/messages/batches body as the API validates
// it, refusing the whole batch with the first failure, in pydantic's
// words like every other body (see json.go). Unknown fields are refused
// at the two levels the batch itself defines, unless allowUnknown.
func decodeBatch(body []byte, allowUnknown bool) ([]batchRequest, *apierr.Error) {
	if !json.Valid(body) {
		var v any
		return nil, invalidBody(body, json.Unmarshal(body, &v))
	}
	top, err := object("", body)
	if err != nil {
		return nil, invalid("", "Input should be a valid dictionary or object to extract fields from")
	}
	if err := extraFields(top, "", allowUnknown, "requests"); err != nil {
		return nil, err
	}
	raw, ok := top["requests"]
	if !ok {
		return nil, missing("requests")
	}
	items, err := list("requests", raw)
	if err != nil {
		return nil, err
	}
	switch n := len(items); {
	case n == 0:
		return nil, fieldError("requests", "List should have at least 1 item after validation, not 0")
	case n > maxBatchRequests:
		return nil, fieldError("requests", fmt.Sprintf("List should have at most %d items after validation, not %d", maxBatchRequests, n))
	}
	out := make([]batchRequest, len(items))
	seen := make(map[string]int, len(items))
	for i, item := range items {
		r, err := decodeBatchRequest(fmt.Sprintf("requests.%d", i), item, allowUnknown)
		if err != nil {
			return nil, err
		}
		if first, dup := seen[r.customID]; dup {
			// The rule is the SDK's ("Must be unique for each request
			// within the Message Batch"); the wording is inferred.
			return nil, invalid(fmt.Sprintf("requests.%d.custom_id", i),
				"requests.%d.custom_id: Duplicate custom_id %q: requests.%d has it too; each request of a batch needs its own",
				i, r.customID, first)
		}
		seen[r.customID] = i
		out[i] = r
	}
	return out, nil
}

// decodeBatchRequest reads requests[i], at path.
func decodeBatchRequest(path string, raw json.RawMessage, allowUnknown bool) (batchRequest, *apierr.Error) {
	m, err := object(path, raw)
	if err != nil {
		return batchRequest{}, err
	}
	if err := extraFields(m, path+".", allowUnknown, "custom_id", "params"); err != nil {
		return batchRequest{}, err
	}
	idRaw, ok := m["custom_id"]
	if !ok {
		return batchRequest{}, missing(path + ".custom_id")
	}
	id, err := str(path+".custom_id", idRaw)
	if err != nil {
		return batchRequest{}, err
	}
	if err := checkCustomID(path+".custom_id", id); err != nil {
		return batchRequest{}, err
	}
	paramsRaw, ok := m["params"]
	if !ok {
		return batchRequest{}, missing(path + ".params")
	}
	// That params is an object is the batch's shape, checked at once
	// (inferred); what it holds is the line's (see above).
	params, err := object(path+".params", paramsRaw)
	if err != nil {
		return batchRequest{}, err
	}
	r := batchRequest{customID: id, params: paramsRaw}
	r.stream = strings.TrimSpace(string(params["stream"])) == "true"
	if provider.JSONKind(params["model"]) == "string" {
		_ = json.Unmarshal(params["model"], &r.model)
	}
	return r, nil
}

// checkCustomID checks a custom_id's length, then its characters.
func checkCustomID(path, id string) *apierr.Error {
	switch n := utf8.RuneCountInString(id); {
	case n < 1:
		return fieldError(path, "String should have at least 1 character")
	case n > 64:
		return fieldError(path, "String should have at most 64 characters")
	case !customIDPattern.MatchString(id):
		return fieldError(path, "String should match pattern '^[a-zA-Z0-9_-]{1,64}$'")
	}
	return nil
}

// extraFields refuses the first field of m, in sorted order, that is not
// one of known, as pydantic's "Extra inputs are not permitted", unless
// allowUnknown; prefix is the path of m with its dot.
func extraFields(m map[string]json.RawMessage, prefix string, allowUnknown bool, known ...string) *apierr.Error {
	if allowUnknown {
		return nil
	}
	var first string
	for k := range m {
		if !slices.Contains(known, k) && (first == "" || k < first) {
			first = k
		}
	}
	if first != "" {
		return fieldError(prefix+first, "Extra inputs are not permitted")
	}
	return nil
}

// batchScenarioRequest is the request the batch's own scenarios
// (scenario.EndpointBatches) see: the model of its first request, and one
// user message listing its custom_ids, one a line, so that a test tells
// its batches apart by the IDs it gives their requests
// (sess.Batches("slow").When(scenario.UserContains("slow-"))).
func batchScenarioRequest(reqs []batchRequest) *scenario.Request {
	var ids strings.Builder
	for i, r := range reqs {
		if i > 0 {
			ids.WriteByte('\n')
		}
		ids.WriteString(r.customID)
	}
	return &scenario.Request{Endpoint: scenario.EndpointBatches, Model: reqs[0].model,
		Messages: []scenario.Message{{Role: "user", Content: ids.String()}}}
}
