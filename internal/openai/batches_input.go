package openai

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// How a batch's input file is validated, while the batch is validating:
// each line is {"custom_id", "method": "POST", "url": the batch's
// endpoint, "body": {…}}; custom_ids are unique and every line names the
// same model. A file that breaks a rule fails the batch, its errors listed
// with their line numbers in the codes the API documents
// (invalid_json_line, duplicate_custom_id, url_mismatch, model_mismatch,
// empty_file, too_many_tasks: see stdapi-ai/stdapi.ai#240, which quotes
// the observed invalid_json_line message); the other messages, the codes
// of a missing field, and that blank lines are skipped, are inferred.
// The body itself is the endpoint's to judge when the line runs: a body
// the endpoint refuses is a line of the error file, not a failed batch.

// maxBatchLines is the most requests a batch holds ("The file can contain
// up to 50,000 requests", BatchNewParams.InputFileID's doc).
const maxBatchLines = 50_000

// maxBatchErrors bounds the errors a failed batch lists (inferred: the
// API's bound is not documented).
const maxBatchErrors = 100

// inputLine is one line of a valid input file.
type inputLine struct {
	customID string
	body     json.RawMessage
	// stream is body.stream: true, which a batch cannot answer.
	stream bool
}

// batchError is an entry of a failed batch's errors (BatchError).
type batchError struct {
	Code    string  `json:"code"`
	Line    *int    `json:"line"`
	Message string  `json:"message"`
	Param   *string `json:"param"`
}

// lineError is the error of line n (1-based) with param ("" for none).
func lineError(n int, code, param, format string, args ...any) batchError {
	e := batchError{Code: code, Message: fmt.Sprintf(format, args...), Param: nullable(param)}
	if n > 0 {
		e.Line = &n
	}
	return e
}

// rawLine is what a line's validation reads of it.
type rawLine struct {
	CustomID json.RawMessage `json:"custom_id"`
	Method   json.RawMessage `json:"method"`
	URL      json.RawMessage `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// parseInput validates content, the input file of a batch to endpoint,
// and returns its lines, with the model the first line names, or the
// errors that fail the batch.
func parseInput(content []byte, endpoint string) ([]inputLine, string, []batchError) {
	var (
		lines []inputLine
		errs  []batchError
		model string
		seen  = map[string]bool{}
	)
	fail := func(e batchError) { errs = append(errs, e) }
	for n := 1; len(content) > 0 && len(errs) < maxBatchErrors; n++ {
		var raw []byte
		raw, content, _ = bytes.Cut(content, []byte{'\n'})
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		l, lineModel, err := parseLine(n, raw, endpoint)
		switch {
		case err != nil:
			fail(*err)
			continue
		case seen[l.customID]:
			fail(lineError(n, "duplicate_custom_id", "custom_id",
				"The custom_id for this request is a duplicate of another request. The custom_id parameter must be unique for each request in a batch."))
			continue
		case len(lines) == 0 && len(errs) == 0:
			model = lineModel
		case lineModel != model:
			fail(lineError(n, "model_mismatch", "body.model",
				"The provided model '%s' does not match the model '%s' of the batch's other requests: a batch uses one model.", lineModel, model))
			continue
		}
		seen[l.customID] = true
		lines = append(lines, l)
	}
	switch {
	case len(errs) > 0:
		return nil, "", errs
	case len(lines) == 0:
		return nil, "", []batchError{lineError(0, "empty_file", "",
			"The batch input file is empty. Please ensure that the batch contains at least one request.")}
	case len(lines) > maxBatchLines:
		return nil, "", []batchError{lineError(0, "too_many_tasks", "",
			"The batch input file has %d requests, more than the maximum of %d.", len(lines), maxBatchLines)}
	}
	return lines, model, nil
}

// parseLine validates line n, raw, of a batch to endpoint, and returns it
// with the model its body names ("" for none).
func parseLine(n int, raw []byte, endpoint string) (inputLine, string, *batchError) {
	var r rawLine
	if provider.JSONKind(raw) != "object" || json.Unmarshal(raw, &r) != nil {
		e := lineError(n, "invalid_json_line", "", "This line is not parseable as valid JSON.")
		return inputLine{}, "", &e
	}
	var l inputLine
	var method, url string
	for _, f := range []struct {
		name string
		raw  json.RawMessage
		dst  *string
	}{{"custom_id", r.CustomID, &l.customID}, {"method", r.Method, &method}, {"url", r.URL, &url}} {
		if err := lineString(n, f.name, f.raw, f.dst); err != nil {
			return inputLine{}, "", err
		}
	}
	switch {
	case method != "POST":
		e := lineError(n, "invalid_value", "method", "Invalid value: '%s'. Supported values are: 'POST'.", method)
		return inputLine{}, "", &e
	case url != endpoint:
		e := lineError(n, "url_mismatch", "url",
			"The URL provided for this request, '%s', does not match the batch's endpoint, '%s'.", url, endpoint)
		return inputLine{}, "", &e
	case r.Body == nil:
		e := lineError(n, "missing_required_parameter", "body", "Missing required parameter: 'body'.")
		return inputLine{}, "", &e
	case provider.JSONKind(r.Body) != "object":
		e := lineError(n, "invalid_type", "body", "Invalid type for 'body': expected an object, but got %s instead.", jsonKind(r.Body))
		return inputLine{}, "", &e
	}
	var b struct {
		Model  json.RawMessage `json:"model"`
		Stream json.RawMessage `json:"stream"`
	}
	_ = json.Unmarshal(r.Body, &b)
	var model string
	if provider.JSONKind(b.Model) == "string" {
		_ = json.Unmarshal(b.Model, &model)
	}
	l.body, l.stream = r.Body, string(bytes.TrimSpace(b.Stream)) == "true"
	return l, model, nil
}

// lineString decodes the required string field name of line n.
func lineString(n int, name string, raw json.RawMessage, dst *string) *batchError {
	if raw == nil {
		e := lineError(n, "missing_required_parameter", name, "Missing required parameter: '%s'.", name)
		return &e
	}
	if provider.JSONKind(raw) != "string" || json.Unmarshal(raw, dst) != nil {
		e := lineError(n, "invalid_type", name, "Invalid type for '%s': expected a string, but got %s instead.", name, jsonKind(raw))
		return &e
	}
	return nil
}
