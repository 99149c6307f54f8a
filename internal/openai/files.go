package openai

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// The Files API (openai-go's FileService) keeps each file as a job of the
// session, of kind fileKind, so that files are bounded with the session's
// other jobs (jobs.capacity and jobs.max_bytes, the file charged its
// bytes), copied by a fork and gone with the session. A file has no run of
// its own: an upload is visible at once, and gone when it expires (purpose
// batch: 30 days, else when expires_after says, else never: see
// fileKeep). The output and error files of a batch are files too, made
// when the batch is created but visible only from the time the batch
// ends (see batches_files.go): their job is "queued" until then.
//
// The files: files_create.go (the multipart upload), files_object.go (the
// File object, what a file keeps, GET), files_list.go (the list),
// files_content.go (the download and DELETE), files_errors.go (the
// refusals).

// fileKind is the job kind of the files.
const fileKind = "file"

// filesPath is the collection's path; a file's own paths are under it.
const filesPath = "/v1/files"

// serveFiles serves /v1/files: POST uploads a file, GET lists them.
func serveFiles(x *provider.Exchange) provider.Response {
	switch x.Request.Method {
	case http.MethodPost:
		return createFile(x)
	case http.MethodGet:
		return listFiles(x)
	}
	return provider.Response{Err: apierr.MethodNotAllowed(x.Request.Method, x.Request.URL.Path, "GET, POST")}
}

// serveFileByID serves /v1/files/{id} (GET, DELETE) and …/{id}/content
// (GET).
func serveFileByID(x *provider.Exchange) provider.Response {
	return provider.ServeByID(x, filesPath,
		provider.IDRoute{Method: http.MethodGet, Serve: getFile},
		provider.IDRoute{Method: http.MethodDelete, Serve: deleteFile},
		provider.IDRoute{Action: "content", Method: http.MethodGet, Serve: fileContent})
}
