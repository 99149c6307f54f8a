package openai_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// An upload is a File object at once (processed, its bytes counted, a
// batch file expiring in 30 days, a user_data file never); GET reads it,
// the content is the bytes as uploaded (unless its purpose may not be
// downloaded), the list pages the session's files newest first, by
// purpose, through the SDK's auto-pager, and DELETE forgets it: 404 from
// then on, in the API's words. Each call is journaled with the file's ID.
func TestFilesUploadReadListDelete(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := batchSession(t)
	content := chatLines("a", "b")
	f := upload(t, client, content)
	assert.Regexp(t, `^file-[A-Za-z0-9]{22}$`, f.ID)
	assert.Equal(t, int64(len(content)), f.Bytes)
	assert.Equal(t, "batch.jsonl", f.Filename)
	assert.Equal(t, openai.FileObjectPurposeBatch, f.Purpose)
	assert.Equal(t, openai.FileObjectStatusProcessed, f.Status)
	assert.Equal(t, batchStart.Unix(), f.CreatedAt)
	assert.Equal(t, batchStart.Add(30*24*time.Hour).Unix(), f.ExpiresAt)

	clk.Advance(time.Second)
	data, err := client.Files.New(t.Context(), openai.FileNewParams{
		File: openai.File(strings.NewReader("notes"), "notes.txt", "text/plain"), Purpose: openai.FilePurposeUserData})
	require.NoError(t, err)
	assert.Contains(t, data.RawJSON(), `"expires_at":null`, "kept until deleted")
	clk.Advance(time.Second)
	short, err := client.Files.New(t.Context(), openai.FileNewParams{
		File: openai.File(strings.NewReader("img"), "a.png", "image/png"), Purpose: openai.FilePurposeVision,
		ExpiresAfter: openai.FileNewParamsExpiresAfter{Seconds: 3600}})
	require.NoError(t, err)
	assert.Equal(t, batchStart.Add(2*time.Second+time.Hour).Unix(), short.ExpiresAt)

	got, err := client.Files.Get(t.Context(), f.ID)
	require.NoError(t, err)
	assert.Equal(t, f.ID, got.ID)
	assert.Equal(t, content, string(fileBytes(t, client, f.ID)), "the bytes as uploaded")
	_, err = client.Files.Content(t.Context(), data.ID)
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Equal(t, "Not allowed to download files of purpose: user_data", apiErr.Message)

	var ids []string
	pages := client.Files.ListAutoPaging(t.Context(), openai.FileListParams{Limit: openai.Int(2)})
	for pages.Next() {
		ids = append(ids, pages.Current().ID)
	}
	require.NoError(t, pages.Err())
	assert.Equal(t, []string{short.ID, data.ID, f.ID}, ids, "newest first, two a page")
	asc, err := client.Files.List(t.Context(), openai.FileListParams{Order: openai.FileListParamsOrderAsc, Purpose: openai.String("batch")})
	require.NoError(t, err)
	require.Len(t, asc.Data, 1)
	assert.Equal(t, f.ID, asc.Data[0].ID)

	deleted, err := client.Files.Delete(t.Context(), data.ID)
	require.NoError(t, err)
	assert.True(t, deleted.Deleted)
	assert.Equal(t, data.ID, deleted.ID)
	_, err = client.Files.Get(t.Context(), data.ID)
	apiErr = e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	assert.Equal(t, "No such File object: "+data.ID, apiErr.Message)
	assert.Equal(t, "id", apiErr.Param)

	// The short-lived file is gone once expired; the batch file is not.
	clk.Advance(time.Hour)
	_, err = client.Files.Get(t.Context(), short.ID)
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
	_, err = client.Files.Get(t.Context(), f.ID)
	require.NoError(t, err)
	for _, e := range sess.Journal().Entries() {
		if strings.HasPrefix(e.Path, "/v1/files/") {
			assert.NotEmpty(t, e.Job, e.Path)
		}
	}
}

// multipartBody is a multipart upload of parts (name, value) and, unless
// filename is "", a file part.
func multipartBody(filename, content string, parts ...string) (string, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for i := 0; i+1 < len(parts); i += 2 {
		_ = w.WriteField(parts[i], parts[i+1])
	}
	if filename != "" {
		fw, _ := w.CreateFormFile("file", filename)
		_, _ = fw.Write([]byte(content))
	}
	_ = w.Close()
	return buf.String(), w.FormDataContentType()
}

// postUpload sends body, of Content-Type ct, to POST /v1/files of sess.
func postUpload(t *testing.T, sess *session.Session, body, ct string) e2e.Reply {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, sess.BaseURL()+"/files", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer k")
	resp, err := sess.HTTPClient().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return e2e.Reply{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// An upload the API refuses is a 400 in its envelope, with its param:
// no file, no purpose, a purpose not in the SDK's list, a batch file not
// named .jsonl (in the live API's words), an expiry out of range, an
// unknown part, a body that is not multipart; nothing is kept.
func TestFileUploadRefusals(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	cases := []struct {
		name, filename, code, param, message string
		parts                                []string
	}{
		{"no file", "", "missing_required_parameter", "file", "Missing required parameter: 'file'.", []string{"purpose", "batch"}},
		{"no purpose", "a.jsonl", "missing_required_parameter", "purpose", "Missing required parameter: 'purpose'.", nil},
		{"unknown purpose", "a.jsonl", "invalid_value", "purpose", "Invalid value: 'batches'.", []string{"purpose", "batches"}},
		{"batch not jsonl", "a.csv", "", "", "Invalid file format for Batch API. Must be .jsonl", []string{"purpose", "batch"}},
		{"expiry too short", "a.jsonl", "integer_below_min_value", "expires_after.seconds", "Expected a value >= 3600",
			[]string{"purpose", "batch", "expires_after[anchor]", "created_at", "expires_after[seconds]", "60"}},
		{"expiry too long", "a.jsonl", "integer_above_max_value", "expires_after.seconds", "Expected a value <= 2592000",
			[]string{"purpose", "batch", "expires_after[seconds]", "2592001"}},
		{"unknown part", "a.jsonl", "unknown_parameter", "name", "Unknown parameter: 'name'.", []string{"purpose", "batch", "name", "x"}},
	}
	for _, c := range cases {
		body, ct := multipartBody(c.filename, "{}", c.parts...)
		r := postUpload(t, sess, body, ct)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", c.name, r.Body)
		code, typ, param, message := r.APIError(t)
		assert.Equal(t, "invalid_request_error", typ, c.name)
		assert.Equal(t, c.code, code, c.name)
		assert.Equal(t, c.param, param, c.name)
		assert.Contains(t, message, c.message, c.name)
	}
	r := e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/files", `{"purpose":"batch"}`,
		e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"), []string{"Content-Type", "application/json"})...)
	require.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
	_, _, _, message := r.APIError(t)
	assert.Contains(t, message, "expected multipart/form-data")
	client := e2e.ClientFor(sess, "k")
	list, err := client.Files.List(t.Context(), openai.FileListParams{})
	require.NoError(t, err)
	assert.Empty(t, list.Data, "nothing kept")

	// The session's opt-out of unknown parameters serves the upload's too.
	relaxed := srv.NewSession(t, session.AllowUnknownParameters())
	body, ct := multipartBody("a.jsonl", "{}", "purpose", "batch", "name", "x")
	r = postUpload(t, relaxed, body, ct)
	assert.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}
