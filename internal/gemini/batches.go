package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The Batch API (genai's Batches service, Gemini backend) is a job of the
// session, of kind batchKind. Each inlined request is answered when the
// batch is created, through the whole server as if it were sent alone to
// POST /{version}/models/{model}:generateContent (provider.Dispatch: the
// strict decoder, the session's scenarios, the journal with the batch's
// ID and the line's metadata key as custom_id); the batch's plan (a
// scenario naming scenario.EndpointBatches, else the defaults) then only
// reveals those answers over the session's clock. The files: batches.go
// (create and its lines), batches_object.go (the Operation, the states,
// get, list, cancel, delete).

// batchKind is the job kind of Gemini batches, apart from every other
// API's jobs.
const batchKind = "gemini_batch"

// Bytes a batch is charged beyond its lines' bytes, and per line.
const (
	batchBaseBytes = 1 << 10
	batchLineBytes = 128
)

// batchRecord is the Data of a batch's job; never changed once stored.
type batchRecord struct {
	model, displayName string
	lines              []batchLine
	succeeded          int
	// failure is the google.rpc.Status of a plan that fails the batch.
	failure json.RawMessage
}

// batchLine is one inlined request's answer: the GenerateContentResponse,
// or the google.rpc.Status of its error, with the request's metadata.
type batchLine struct {
	metadata json.RawMessage
	body     []byte
	errored  bool
}

// weight is what l is charged: its bytes, an eighth more for the
// allocator's size classes, and its overhead.
func (l *batchLine) weight() int64 {
	n := int64(cap(l.metadata) + cap(l.body))
	return n + n/8 + batchLineBytes
}

// batchRequestBody is BatchGenerateContentRequest as genai sends it.
type batchRequestBody struct {
	Batch *struct {
		DisplayName   string          `json:"displayName"`
		Model         string          `json:"model"`
		WebhookConfig json.RawMessage `json:"webhookConfig"`
		InputConfig   *struct {
			FileName string `json:"fileName"`
			Requests *struct {
				Requests []struct {
					Request  map[string]json.RawMessage `json:"request"`
					Metadata json.RawMessage            `json:"metadata"`
				} `json:"requests"`
			} `json:"requests"`
		} `json:"inputConfig"`
	} `json:"batch"`
}

// createBatch serves POST /{version}/models/{model}:batchGenerateContent
// with inlined requests; file input (inputConfig.fileName) is refused:
// this server keeps no Files.
func createBatch(x *provider.Exchange, t target) provider.Response {
	if t.Vertex {
		// Vertex runs batches as batchPredictionJobs under a project,
		// which this server does not serve.
		return provider.Response{Err: routeNotFound(x)}
	}
	body, err := x.ReadBody()
	if err != nil {
		return provider.Response{Err: err}
	}
	var in batchRequestBody
	if json.Unmarshal(body, &in) != nil {
		return provider.Response{Err: invalidJSON("The body is not a BatchGenerateContentRequest.")}
	}
	switch {
	case in.Batch == nil || in.Batch.InputConfig == nil:
		return provider.Response{Err: invalid("batch.input_config", "batch.input_config is required.")}
	case in.Batch.InputConfig.FileName != "":
		return provider.Response{Err: invalid("batch.input_config.file_name",
			"This server does not serve the Files API: give a batch's requests inlined (inputConfig.requests).")}
	case in.Batch.InputConfig.Requests == nil || len(in.Batch.InputConfig.Requests.Requests) == 0:
		// The status and words are inferred.
		return provider.Response{Err: invalid("batch.input_config.requests.requests", "A batch needs at least one request.")}
	}
	reqs := in.Batch.InputConfig.Requests.Requests
	keys := make([]string, len(reqs))
	for i, r := range reqs {
		if r.Request == nil {
			return provider.Response{Err: invalid("batch.input_config.requests.requests["+strconv.Itoa(i)+"].request", "Each inlined request needs its request.")}
		}
		var md struct {
			Key string `json:"key"`
		}
		_ = json.Unmarshal(r.Metadata, &md)
		keys[i] = md.Key
		if keys[i] == "" {
			keys[i] = strconv.Itoa(i)
		}
	}
	norm := &scenario.Request{Endpoint: scenario.EndpointBatches, Model: t.Name,
		Messages: []scenario.Message{{Role: "user", Content: joinLines(keys)}}}
	answer.RecordRequest(x, norm)
	if !x.Runtime.HasJobRoom(batchKind, batchBaseBytes) {
		return provider.Response{Err: batchesFull()}
	}
	x.Deferred = true
	res, reply, refused := answer.Scripted(x, norm)
	if refused != nil {
		return *refused
	}
	// The API's batch IDs are lowercase letters and digits.
	id := strings.ToLower(x.Runtime.NewID("", 24))
	rec := batchRecord{model: "models/" + t.Name, displayName: in.Batch.DisplayName, lines: make([]batchLine, 0, len(reqs))}
	total := int64(batchBaseBytes)
	path := "/" + t.Version + "/models/" + t.Name + ":generateContent"
	maxBytes := x.Runtime.Settings().JobMaxBytes
	var failed *apierr.Error
	for i, r := range reqs {
		// genai writes the model into each request too; the route names it.
		delete(r.Request, "model")
		b, _ := json.Marshal(r.Request)
		a, err := provider.Dispatch(x, http.MethodPost, path, b, provider.Line{Job: id, CustomID: keys[i]}, maxBytes)
		if errors.Is(err, provider.ErrAnswerTooLarge) {
			failed = batchesFull()
			break
		} else if err != nil {
			failed = httpx.ClientGone()
			break
		}
		l := lineOf(a)
		l.metadata = bytes.Clone(r.Metadata)
		total += l.weight()
		if !x.Runtime.HasJobRoom(batchKind, total) {
			failed = batchesFull()
			break
		}
		if !l.errored {
			rec.succeeded++
		}
		rec.lines = append(rec.lines, l)
	}
	var job runtime.Job
	var status runtime.JobStatus
	if failed == nil {
		if reply.Job != nil && reply.Job.Ends == scenario.JobFailed {
			rec.failure = planFailure(reply.Error)
			total += int64(len(rec.failure))
		}
		var addErr error
		job, status, addErr = x.Runtime.AddJob(runtime.Job{ID: id, Kind: batchKind, Plan: runtime.PlanOf(reply.Job), Data: rec, Bytes: total})
		switch {
		case errors.Is(addErr, runtime.ErrJobsFull):
			failed = batchesFull()
		case addErr != nil:
			failed = httpx.ClientGone()
		}
	}
	if failed != nil {
		if res != nil {
			res.Rollback()
		}
		return provider.Response{Err: failed}
	}
	op := operationOf(&job, status)
	return provider.Response{JSON: op, Reservation: res, Job: id, JobState: op.Metadata.State}
}

// joinLines is keys one a line: what the batch's own scenarios see as its
// user message, so that a test tells batches apart by their keys.
func joinLines(keys []string) string {
	var b bytes.Buffer
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(k)
	}
	return b.String()
}

// lineOf turns what :generateContent answered into a line: its response
// for a 200, the google.rpc.Status inside the error envelope otherwise; an
// answer broken off or not JSON is an INTERNAL error (inferred).
func lineOf(a provider.Answered) batchLine {
	if a.Status == http.StatusOK && a.IsJSON() && json.Valid(a.Body) {
		return batchLine{body: compactJSON(a.Body)}
	}
	var env envelope
	if a.Status >= http.StatusBadRequest && a.IsJSON() && json.Unmarshal(a.Body, &env) == nil && env.Error.Code != 0 {
		return batchLine{body: lineStatus(env.Error), errored: true}
	}
	return batchLine{body: lineStatus(statusBody(resolve(&apierr.Error{Kind: scenario.ErrorServer, Status: http.StatusInternalServerError,
		Message: "The request's processing broke off before its answer was complete."}))), errored: true}
}

// lineStatus is st as a line's (or a failed batch's) error: code, message
// and status, without the typed details, which genai's JobError reads as
// strings and could not decode as the objects the API's errors carry.
func lineStatus(st rpcStatus) []byte {
	st.Details = nil
	b, _ := json.Marshal(st)
	return b
}

// planFailure is the Operation's error when the plan fails the batch: the
// reply's error (scenario.FailJob), else INTERNAL.
func planFailure(e *scenario.Error) json.RawMessage {
	err := &apierr.Error{Kind: scenario.ErrorServer, Status: http.StatusInternalServerError, Message: "The batch failed."}
	if e != nil {
		err = apierr.Scripted(e)
	}
	return lineStatus(statusBody(resolve(err)))
}

// compactJSON copies b without insignificant whitespace into an array of its
// own size.
func compactJSON(b []byte) []byte {
	out := bytes.NewBuffer(make([]byte, 0, len(b)))
	if json.Compact(out, b) != nil {
		return bytes.Clone(b)
	}
	return out.Bytes()
}

// batchesFull is the 429 of a session whose jobs are at their bound.
func batchesFull() *apierr.Error {
	return apierr.JobsFull("Gemini batches", "jobs.capacity or jobs.max_bytes")
}
