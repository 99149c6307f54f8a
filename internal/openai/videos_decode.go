package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// What a create checks, as the API reference and openai-go's
// VideoNewParams document it: prompt required; model one of
// VideoModel's values (default sora-2), seconds one of "4", "8", "12"
// (default "4", a string even in JSON), size one of VideoSize's values
// (default 720x1280); an optional input_reference, a file part of a
// multipart body or, in JSON or as bracketed multipart fields, an object
// with image_url or file_id. A value outside its list is a 400
// invalid_value naming the param, in the words of the API's other enums.
// The reference image is read and not kept: the server does not check
// that it matches size, which the real API is reported to require
// ("Inpaint image must match the requested width and height").

// The values the SDK lists (VideoModel, VideoSeconds, VideoSize).
var (
	videoModels  = []string{"sora-2", "sora-2-pro", "sora-2-2025-10-06", "sora-2-pro-2025-10-06", "sora-2-2025-12-08"}
	videoSeconds = []string{"4", "8", "12"}
	videoSizes   = []string{"720x1280", "1280x720", "1024x1792", "1792x1024"}
)

// The defaults of an omitted model, seconds and size (VideoNewParams'
// docs).
const (
	defaultVideoModel   = "sora-2"
	defaultVideoSeconds = "4"
	defaultVideoSize    = "720x1280"
)

// videoRequest is a create's settings as the video keeps them.
type videoRequest struct {
	prompt, model, seconds, size string
	// reference names the input_reference sent (a file's name, or
	// "image_url" or "file_id"), "" for none; the journal does not need
	// the image, and the job does not keep it.
	reference string
}

// decodeVideoCreate reads a POST /v1/videos body, JSON or
// multipart/form-data, and validates it; unknown fields are refused
// unless allowUnknown.
func decodeVideoCreate(x *provider.Exchange, allowUnknown bool) (videoRequest, *Error) {
	mt, params, _ := mime.ParseMediaType(x.Request.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		body, err := x.ReadBody()
		if err != nil {
			if provider.IsBodyUnreadable(err) {
				return videoRequest{}, InvalidJSON()
			}
			return videoRequest{}, err
		}
		return decodeVideoJSON(body, allowUnknown)
	}
	body, err := readRawBody(x.Request, x.MaxBody)
	if err != nil {
		return videoRequest{}, err
	}
	return decodeVideoMultipart(body, params["boundary"], allowUnknown)
}

// readRawBody reads a body that is not JSON (a multipart form) within
// limit bytes, answering as provider.ReadBody answers a JSON one.
func readRawBody(r *http.Request, limit int64) ([]byte, *Error) {
	if r.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, apierr.BodyTimeout()
	case err != nil:
		return nil, invalidMultipart()
	case int64(len(body)) > limit:
		return nil, apierr.BodyTooLarge(limit)
	}
	return body, nil
}

// invalidMultipart answers a multipart body that cannot be parsed (the
// API's words are not documented; inferred).
func invalidMultipart() *Error {
	return invalidRequest(http.StatusBadRequest, "", "", "The multipart/form-data body of the request could not be parsed.")
}

// decodeVideoJSON reads a JSON create body.
func decodeVideoJSON(body []byte, allowUnknown bool) (videoRequest, *Error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		if json.Valid(body) {
			return videoRequest{}, InvalidType("", "an object", jsonKind(body))
		}
		return videoRequest{}, InvalidJSON()
	}
	var r videoRequest
	text := func(name string, dst *string) *Error {
		raw, ok := fields[name]
		if !ok || string(raw) == "null" {
			return nil
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return InvalidType(name, "a string", jsonKind(raw))
		}
		return nil
	}
	for _, name := range slices.Sorted(mapKeys(fields)) {
		var err *Error
		switch name {
		case "prompt":
			err = text(name, &r.prompt)
			if _, ok := fields[name]; ok && err == nil && string(fields[name]) == "null" {
				err = InvalidType(name, "a string", "null")
			}
		case "model":
			err = text(name, &r.model)
		case "seconds":
			err = text(name, &r.seconds)
		case "size":
			err = text(name, &r.size)
		case "input_reference":
			r.reference, err = jsonReference(fields[name])
		default:
			if !allowUnknown {
				err = UnknownParameter(name)
			}
		}
		if err != nil {
			return videoRequest{}, err
		}
	}
	if _, ok := fields["prompt"]; !ok {
		return videoRequest{}, MissingParameter("prompt")
	}
	return r.validated()
}

// jsonReference reads a JSON input_reference: {image_url} or {file_id}.
func jsonReference(raw json.RawMessage) (string, *Error) {
	var ref map[string]json.RawMessage
	if err := json.Unmarshal(raw, &ref); err != nil {
		return "", InvalidType("input_reference", "an object", jsonKind(raw))
	}
	for _, k := range []string{"image_url", "file_id"} {
		if _, ok := ref[k]; ok {
			return k, nil
		}
	}
	return "", invalidRequest(http.StatusBadRequest, "", "input_reference",
		"Invalid 'input_reference': expected an object with 'image_url' or 'file_id'.")
}

// decodeVideoMultipart reads a multipart create body, as openai-go's
// apiform writes VideoNewParams: one part per field, input_reference a
// file part, or input_reference[image_url] / input_reference[file_id].
func decodeVideoMultipart(body []byte, boundary string, allowUnknown bool) (videoRequest, *Error) {
	if boundary == "" {
		return videoRequest{}, invalidMultipart()
	}
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	var r videoRequest
	sawPrompt := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return videoRequest{}, invalidMultipart()
		}
		name := part.FormName()
		if name == "input_reference" && part.FileName() != "" {
			// Read through (the body is bounded already) and dropped.
			if _, err := io.Copy(io.Discard, part); err != nil {
				return videoRequest{}, invalidMultipart()
			}
			r.reference = part.FileName()
			continue
		}
		value, err := io.ReadAll(part)
		if err != nil {
			return videoRequest{}, invalidMultipart()
		}
		switch name {
		case "prompt":
			r.prompt, sawPrompt = string(value), true
		case "model":
			r.model = string(value)
		case "seconds":
			r.seconds = string(value)
		case "size":
			r.size = string(value)
		case "input_reference", "input_reference[image_url]", "input_reference[file_id]":
			r.reference = strings.TrimSuffix(strings.TrimPrefix(name, "input_reference["), "]")
		default:
			if !allowUnknown {
				return videoRequest{}, UnknownParameter(name)
			}
		}
	}
	if !sawPrompt {
		return videoRequest{}, MissingParameter("prompt")
	}
	return r.validated()
}

// validated checks r's values against the lists the SDK gives, and fills
// in the defaults of those omitted.
func (r videoRequest) validated() (videoRequest, *Error) {
	if r.prompt == "" {
		return r, invalidRequest(http.StatusBadRequest, "empty_string", "prompt",
			"Invalid 'prompt': empty string. Expected a string with minimum length 1, but got an empty string instead.")
	}
	check := func(param string, v *string, values []string, dflt string) *Error {
		if *v == "" {
			*v = dflt
			return nil
		}
		if !slices.Contains(values, *v) {
			return invalidValue(param, *v, values)
		}
		return nil
	}
	if err := check("model", &r.model, videoModels, defaultVideoModel); err != nil {
		return r, err
	}
	if err := check("seconds", &r.seconds, videoSeconds, defaultVideoSeconds); err != nil {
		return r, err
	}
	if err := check("size", &r.size, videoSizes, defaultVideoSize); err != nil {
		return r, err
	}
	return r, nil
}

// decodeRemix reads a POST /v1/videos/{id}/remix body, {"prompt"}.
func decodeRemix(x *provider.Exchange, allowUnknown bool) (string, *Error) {
	body, err := x.ReadBody()
	if err != nil {
		if provider.IsBodyUnreadable(err) {
			return "", InvalidJSON()
		}
		return "", err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		if json.Valid(body) {
			return "", InvalidType("", "an object", jsonKind(body))
		}
		return "", InvalidJSON()
	}
	for name := range fields {
		if name != "prompt" && !allowUnknown {
			return "", UnknownParameter(name)
		}
	}
	raw, ok := fields["prompt"]
	if !ok {
		return "", MissingParameter("prompt")
	}
	var prompt string
	if err := json.Unmarshal(raw, &prompt); err != nil {
		return "", InvalidType("prompt", "a string", jsonKind(raw))
	}
	if prompt == "" {
		return "", invalidRequest(http.StatusBadRequest, "empty_string", "prompt",
			"Invalid 'prompt': empty string. Expected a string with minimum length 1, but got an empty string instead.")
	}
	return prompt, nil
}

// mapKeys yields m's keys.
func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// jsonKind names the JSON type of raw as the API's invalid_type errors
// do ("an integer", "an object").
func jsonKind(raw []byte) string { return describeJSONValue(provider.JSONKind(raw)) }
