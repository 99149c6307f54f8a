package openai

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// What a create checks, as openai-go's BatchNewParams documents it:
// input_file_id, endpoint and completion_window required, completion_window
// "24h", metadata within the API's bounds, output_expires_after anchored
// at created_at with seconds between an hour and 30 days. The input file
// itself is checked as the batch is validated (batches_input.go).

// batchEndpoints are the endpoints this server's batches serve, of the
// eight BatchNewParamsEndpoint lists (/v1/completions, /v1/moderations,
// the images' and the videos' are not: a create naming one is refused as
// a value the list does not have, in the API's words of an enum).
var batchEndpoints = []string{"/v1/responses", "/v1/chat/completions", "/v1/embeddings"}

// batchRequest is a create's settings as the batch keeps them.
type batchRequest struct {
	inputFileID, endpoint, completionWindow string
	metadata                                map[string]string
	// outputKeep is how long the output and error files are kept once
	// written: output_expires_after's seconds, 0 for the default.
	outputKeep time.Duration
}

// decodeBatchCreate reads a POST /v1/batches body; unknown fields are
// refused unless allowUnknown.
func decodeBatchCreate(body []byte, allowUnknown bool) (batchRequest, *Error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		if json.Valid(body) {
			return batchRequest{}, InvalidType("", "an object", jsonKind(body))
		}
		return batchRequest{}, InvalidJSON()
	}
	var r batchRequest
	for _, name := range slices.Sorted(mapKeys(fields)) {
		raw := fields[name]
		var err *Error
		switch name {
		case "input_file_id":
			err = stringField(name, raw, &r.inputFileID)
		case "endpoint":
			err = stringField(name, raw, &r.endpoint)
		case "completion_window":
			err = stringField(name, raw, &r.completionWindow)
		case "metadata":
			r.metadata, err = metadataField(raw)
		case "output_expires_after":
			r.outputKeep, err = outputExpiry(raw, allowUnknown)
		default:
			if !allowUnknown {
				err = UnknownParameter(name)
			}
		}
		if err != nil {
			return batchRequest{}, err
		}
	}
	for _, name := range []string{"input_file_id", "endpoint", "completion_window"} {
		if _, ok := fields[name]; !ok {
			return batchRequest{}, MissingParameter(name)
		}
	}
	if !slices.Contains(batchEndpoints, r.endpoint) {
		return batchRequest{}, invalidValue("endpoint", r.endpoint, batchEndpoints)
	}
	if r.completionWindow != "24h" {
		return batchRequest{}, invalidValue("completion_window", r.completionWindow, []string{"24h"})
	}
	return r, checkMetadata(r.metadata)
}

// stringField decodes raw, the field name, into dst, refusing any other
// type (null among them).
func stringField(name string, raw json.RawMessage, dst *string) *Error {
	if provider.JSONKind(raw) != "string" {
		return InvalidType(name, "a string", jsonKind(raw))
	}
	_ = json.Unmarshal(raw, dst)
	return nil
}

// metadataField decodes metadata: an object of strings, or null for none.
func metadataField(raw json.RawMessage) (map[string]string, *Error) {
	if string(raw) == "null" {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || provider.JSONKind(raw) != "object" {
		return nil, InvalidType("metadata", "an object", jsonKind(raw))
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(mapKeys(m)) {
		var v string
		if err := stringField("metadata."+k, m[k], &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// outputExpiry decodes output_expires_after, {anchor: "created_at",
// seconds}, into how long the batch's files are kept.
func outputExpiry(raw json.RawMessage, allowUnknown bool) (time.Duration, *Error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || provider.JSONKind(raw) != "object" {
		return 0, InvalidType("output_expires_after", "an object", jsonKind(raw))
	}
	for _, k := range slices.Sorted(mapKeys(m)) {
		if k != "anchor" && k != "seconds" && !allowUnknown {
			return 0, UnknownParameter("output_expires_after." + k)
		}
	}
	if a, ok := m["anchor"]; ok {
		var anchor string
		if err := stringField("output_expires_after.anchor", a, &anchor); err != nil {
			return 0, err
		}
		if anchor != "created_at" {
			return 0, invalidValue("output_expires_after.anchor", anchor, []string{"created_at"})
		}
	}
	s, ok := m["seconds"]
	if !ok {
		return 0, MissingParameter("output_expires_after.seconds")
	}
	var n int64
	if provider.JSONKind(s) != "number" || json.Unmarshal(s, &n) != nil {
		return 0, InvalidType("output_expires_after.seconds", "an integer", jsonKind(s))
	}
	if err := checkExpiryOf("output_expires_after.seconds", n); err != nil {
		return 0, err
	}
	return time.Duration(n) * time.Second, nil
}
