package openai

import (
	"time"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// The purposes of a file: those an upload may name (FilePurpose), and
// those of the files the server makes (FileObjectPurpose's batch_output).
const (
	purposeBatch       = "batch"
	purposeBatchOutput = "batch_output"
)

// uploadPurposes are the purposes an upload may name, as openai-go's
// FilePurpose lists them.
var uploadPurposes = []string{"assistants", "batch", "fine-tune", "vision", "user_data", "evals"}

// Keeps of a file: "By default, files with purpose=batch expire after 30
// days and all other files are persisted until they are manually deleted"
// (FileNewParams.ExpiresAfter's doc); a file kept "until deleted" is kept
// a century of the session's clock. expires_after's seconds must lie in
// [minFileExpiry, maxFileExpiry] (same doc).
const (
	batchFileKeep = 30 * 24 * time.Hour
	foreverKeep   = 100 * 365 * 24 * time.Hour
	minFileExpiry = 3600
	maxFileExpiry = 2592000
)

// fileBaseBytes is what a file's job is charged beyond its content and
// name: the job, its record and the slack of the allocator over them.
const fileBaseBytes = 512

// fileRecord is the Data of a file's job, never changed once stored (a
// fork shares it).
type fileRecord struct {
	filename, purpose string
	content           []byte
	// expires says the file has an expires_at: its job's Gone.
	expires bool
}

// fileWeight is what a file of rec is charged: its content and name, an
// eighth more for the size classes the allocator rounds them up to, and
// its overhead.
func fileWeight(rec *fileRecord) int64 {
	n := int64(cap(rec.content) + len(rec.filename))
	return n + n/8 + fileBaseBytes
}

// fileObject is the File object (openai-go's FileObject).
type fileObject struct {
	ID            string  `json:"id"`
	Object        string  `json:"object"`
	Bytes         int     `json:"bytes"`
	CreatedAt     int64   `json:"created_at"`
	ExpiresAt     *int64  `json:"expires_at"`
	Filename      string  `json:"filename"`
	Purpose       string  `json:"purpose"`
	Status        string  `json:"status"`
	StatusDetails *string `json:"status_details"`
}

// fileObjectOf renders the file j, visible with status s. Its created_at
// is when it became visible: a batch's output file is made with the batch
// and shown from the batch's end, the time the API writes it. Its status
// is "processed", the deprecated field's value for a file ready for use.
func fileObjectOf(j *runtime.Job, s runtime.JobStatus) fileObject {
	rec, _ := j.Data.(fileRecord)
	o := fileObject{ID: j.ID, Object: "file", Bytes: len(rec.content), CreatedAt: s.Ended.Unix(),
		Filename: rec.filename, Purpose: rec.purpose, Status: "processed"}
	if rec.expires {
		t := s.Gone.Unix()
		o.ExpiresAt = &t
	}
	return o
}

// fileAt returns the file id of x's session, false when the session keeps
// no such file or it is not visible yet (a batch's output before the
// batch ended).
func fileAt(x *provider.Exchange, id string) (runtime.Job, runtime.JobStatus, bool) {
	j, s, ok := x.Runtime.Job(fileKind, id)
	if !ok || s.State != runtime.JobCompleted {
		return runtime.Job{}, runtime.JobStatus{}, false
	}
	return j, s, true
}

// getFile serves GET /v1/files/{id}.
func getFile(x *provider.Exchange, id string) provider.Response {
	j, s, ok := fileAt(x, id)
	if !ok {
		return provider.Response{Err: fileNotFound(id), Job: id}
	}
	return provider.Response{JSON: fileObjectOf(&j, s), Job: id, JobState: "processed"}
}

// visibleFrom is the plan of a file made now that is visible from at
// (now or later) and kept keep once visible.
func visibleFrom(now, at time.Time, keep time.Duration) runtime.JobPlan {
	return runtime.JobPlan{Queued: none(at.Sub(now)), Running: -1, Keep: keep}
}

// none is d for a JobPlan, whose zero durations take defaults: a
// duration that is not positive is none (-1).
func none(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
