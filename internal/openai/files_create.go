package openai

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// upload is what POST /v1/files sends, as openai-go's apiform writes
// FileNewParams: a "file" part with its file name, a "purpose" part, and
// optionally expires_after's fields as "expires_after[anchor]" and
// "expires_after[seconds]" (or dotted, as other encoders write them).
type upload struct {
	filename, purpose string
	content           []byte
	sawFile           bool
	// expiry is expires_after.seconds, 0 when not sent.
	expiry int64
}

// createFile serves POST /v1/files: it reads the multipart upload within
// the server's body bound, validates it (decodeUpload), and keeps the file
// as a job charged its bytes, refused with the 429 of a full session past
// jobs.capacity or jobs.max_bytes.
func createFile(x *provider.Exchange) provider.Response {
	mt, params, _ := mime.ParseMediaType(x.Request.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return provider.Response{Err: notMultipart(x.Request.Header.Get("Content-Type"))}
	}
	body, err := readRawBody(x.Request, x.MaxBody)
	if err != nil {
		return provider.Response{Err: err}
	}
	up, err := decodeUpload(body, params["boundary"], x.Runtime.Settings().AllowUnknownParameters)
	if err != nil {
		return provider.Response{Err: err}
	}
	keep, expires := fileKeep(up.purpose, up.expiry)
	rec := fileRecord{filename: up.filename, purpose: up.purpose, content: up.content, expires: expires}
	now := x.Runtime.Now()
	job, status, addErr := x.Runtime.AddJob(runtime.Job{ID: newFileID(x), Kind: fileKind,
		Plan: visibleFrom(now, now, keep), Data: rec, Bytes: fileWeight(&rec)})
	switch {
	case errors.Is(addErr, runtime.ErrJobsFull):
		return provider.Response{Err: filesFull()}
	case addErr != nil:
		return provider.Response{Err: httpx.ClientGone()} // deleted meanwhile: the core answers the deletion
	}
	return provider.Response{JSON: fileObjectOf(&job, status), Job: job.ID, JobState: "processed"}
}

// newFileID is a file's ID: "file-" and 22 letters and digits, as the
// API's ("file-52voFe6FU6MWyAwa1Uj39R").
func newFileID(x *provider.Exchange) string { return x.Runtime.NewID("file-", 22) }

// fileKeep is how long a file of purpose is kept, given expires_after's
// seconds (0 for none), and whether it has an expires_at.
func fileKeep(purpose string, expiry int64) (time.Duration, bool) {
	switch {
	case expiry > 0:
		return time.Duration(expiry) * time.Second, true
	case purpose == purposeBatch:
		return batchFileKeep, true
	}
	return foreverKeep, false
}

// decodeUpload reads a multipart upload and validates it: file and
// purpose required, purpose one of uploadPurposes, a batch file named
// .jsonl, expires_after's anchor created_at and its seconds within the
// documented range. Unknown parts are refused unless allowUnknown.
func decodeUpload(body []byte, boundary string, allowUnknown bool) (upload, *Error) {
	if boundary == "" {
		return upload{}, invalidMultipart()
	}
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	var up upload
	sawPurpose := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return upload{}, invalidMultipart()
		}
		value, err := io.ReadAll(part)
		if err != nil {
			return upload{}, invalidMultipart()
		}
		switch name := part.FormName(); name {
		case "file":
			// An exact copy: ReadAll's buffer has room to spare, which the
			// file would keep and not be charged.
			up.content, up.filename, up.sawFile = bytes.Clone(value), part.FileName(), true
			if up.content == nil {
				up.content = []byte{}
			}
		case "purpose":
			up.purpose, sawPurpose = string(value), true
		case "expires_after[anchor]", "expires_after.anchor":
			if string(value) != "created_at" {
				return upload{}, invalidValue("expires_after.anchor", string(value), []string{"created_at"})
			}
		case "expires_after[seconds]", "expires_after.seconds":
			n, err := strconv.ParseInt(string(value), 10, 64)
			if err != nil {
				return upload{}, InvalidType("expires_after.seconds", "an integer", "a string")
			}
			if err := checkExpiryOf("expires_after.seconds", n); err != nil {
				return upload{}, err
			}
			up.expiry = n
		default:
			if !allowUnknown {
				return upload{}, UnknownParameter(name)
			}
		}
	}
	switch {
	case !up.sawFile:
		return upload{}, MissingParameter("file")
	case !sawPurpose:
		return upload{}, MissingParameter("purpose")
	case !slices.Contains(uploadPurposes, up.purpose):
		return upload{}, invalidValue("purpose", up.purpose, uploadPurposes)
	case up.purpose == purposeBatch && !strings.HasSuffix(up.filename, ".jsonl"):
		return upload{}, notJSONL()
	}
	return up, nil
}

// checkExpiryOf refuses the seconds of an expiry policy, param
// (expires_after.seconds, output_expires_after.seconds), outside the
// documented range.
func checkExpiryOf(param string, n int64) *Error {
	switch {
	case n < minFileExpiry:
		return integerBelow(param, minFileExpiry, n)
	case n > maxFileExpiry:
		return invalidRequest(http.StatusBadRequest, "integer_above_max_value", param,
			"Invalid '%s': integer above maximum value. Expected a value <= %d, but got %d instead.", param, maxFileExpiry, n)
	}
	return nil
}
