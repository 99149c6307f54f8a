package openai

import (
	"mime"
	"net/http"
	"slices"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// downloadable are the purposes whose content GET /v1/files/{id}/content
// serves: the batch files both ways, vision images, and what the API
// itself writes (see downloadRefused).
var downloadable = []string{"batch", "batch_output", "vision", "assistants_output", "fine-tune-results"}

// fileContent serves GET /v1/files/{id}/content: the bytes as uploaded (or,
// for a batch's output and error files, as the batch wrote them), with
// the file's name in Content-Disposition.
func fileContent(x *provider.Exchange, id string) provider.Response {
	j, _, ok := fileAt(x, id)
	if !ok {
		return provider.Response{Err: fileNotFound(id), Job: id}
	}
	rec, _ := j.Data.(fileRecord)
	if !slices.Contains(downloadable, rec.purpose) {
		return provider.Response{Err: downloadRefused(rec.purpose), Job: id, JobState: "processed"}
	}
	h := http.Header{}
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": rec.filename}))
	return provider.Response{Body: rec.content, ContentType: "application/octet-stream", Header: h,
		Job: id, JobState: "processed"}
}

// fileDeleted is FileDeleted.
type fileDeleted struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Deleted bool   `json:"deleted"`
}

// deleteFile serves DELETE /v1/files/{id}. A batch made from the file
// keeps its answers (its lines ran when it was created); the batch of a
// deleted output file still names it, and its content is 404 (inferred,
// as the API's deletion of any file).
func deleteFile(x *provider.Exchange, id string) provider.Response {
	if _, _, ok := fileAt(x, id); !ok || !x.Runtime.DeleteJob(fileKind, id) {
		return provider.Response{Err: fileNotFound(id), Job: id}
	}
	return provider.Response{JSON: fileDeleted{ID: id, Object: "file", Deleted: true}, Job: id, JobState: "deleted"}
}
