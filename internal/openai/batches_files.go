package openai

import (
	"bytes"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// A batch's output and error files are files of the session (kind
// fileKind, purpose batch_output), made with the batch from its lines'
// answers and shown from the time the batch ends, so that nothing is
// written later; a cancel rewrites them for the lines done by the time it
// takes effect. They are charged their bytes like any file: a batch of n
// lines takes its tallies and custom_ids in its own job, and its answers
// once, in its files.

// defaultOutputKeep is how long a batch's files are kept once written,
// unless output_expires_after says otherwise (inferred: the API documents
// the policy, not its default; that of a batch's input file is taken).
const defaultOutputKeep = batchFileKeep

// batchFile is a file the batch id writes: its suffix names it
// ("batch_…_output.jsonl", "batch_…_error.jsonl", the names the API's
// files take: inferred), content its lines, last line first.
type batchFile struct {
	id, suffix string
	content    []byte
}

// batchFiles are the output and error files of a batch as created: from w,
// the answers of its lines (nil when none ran), a file only for a kind of
// line it has.
func batchFiles(x *provider.Exchange, w *lineWriter, n int) (out, errs *batchFile) {
	if w == nil {
		return nil, nil
	}
	if w.out.Len() > 0 {
		out = &batchFile{id: newFileID(x), suffix: "_output.jsonl",
			content: reversed(w.out.Bytes(), n, func(k int) int { return int(w.tally[k].outEnd) })}
	}
	if w.errs.Len() > 0 {
		errs = &batchFile{id: newFileID(x), suffix: "_error.jsonl",
			content: reversed(w.errs.Bytes(), n, func(k int) int { return int(w.tally[k].errEnd) })}
	}
	return out, errs
}

// keepFile keeps f, of the batch batchID, visible from at and kept keep
// once visible, false when the session has no room for it.
func keepFile(x *provider.Exchange, batchID string, f *batchFile, at time.Time, keep time.Duration) bool {
	rec := fileRecord{filename: batchID + f.suffix, purpose: purposeBatchOutput, content: f.content, expires: true}
	_, _, err := x.Runtime.AddJob(runtime.Job{ID: f.id, Kind: fileKind, Plan: visibleFrom(x.Runtime.Now(), at, keep),
		Data: rec, Bytes: fileWeight(&rec)})
	return err == nil
}

// outputKeep is how long the files of a batch made by req are kept.
func outputKeep(req *batchRequest) time.Duration {
	if req.outputKeep > 0 {
		return req.outputKeep
	}
	return defaultOutputKeep
}

// rewriteFiles makes the files of the batch j, cancelled, what its
// cancellation leaves at end: the answers of its first kept lines, and
// each line after them as batch_cancelled in the error file; a file left
// with no line is deleted. It returns the batch's record naming the files
// that remain.
func rewriteFiles(x *provider.Exchange, j *runtime.Job, end time.Time, kept int) batchRecord {
	rec, _ := j.Data.(batchRecord)
	keep := outputKeep(&rec.req)
	tailOf := func(content []byte, ends func(int) int) []byte {
		return content[len(content)-ends(kept):]
	}
	// The output: the tail of the answers of the first kept lines.
	if rec.outputFileID != "" {
		if f, _, ok := x.Runtime.Job(fileKind, rec.outputFileID); ok {
			fr, _ := f.Data.(fileRecord)
			tail := tailOf(fr.content, func(k int) int { return int(rec.tally[k].outEnd) })
			rec.outputFileID = replaceFile(x, &f, bytes.Clone(tail), end, keep)
		}
	}
	// The errors: the lines not done, then the tail of the errors of
	// those done.
	var errTail []byte
	if rec.errorFileID != "" {
		if f, _, ok := x.Runtime.Job(fileKind, rec.errorFileID); ok {
			fr, _ := f.Data.(fileRecord)
			errTail = tailOf(fr.content, func(k int) int { return int(rec.tally[k].errEnd) })
		}
	}
	var buf bytes.Buffer
	for i := rec.total - 1; i >= kept; i-- {
		writeUnanswered(&buf, newBatchRequestID(x), rec.customID(i), "batch_cancelled", cancelledMessage)
	}
	buf.Write(errTail)
	content := bytes.Clone(buf.Bytes())
	if f, _, ok := x.Runtime.Job(fileKind, rec.errorFileID); ok {
		rec.errorFileID = replaceFile(x, &f, content, end, keep)
	} else if rec.errorFileID = ""; len(content) > 0 {
		// No error file yet: one is made now, if the session has room for
		// it (else the batch names none: inferred, as the API's own
		// failure to write one).
		f := batchFile{id: newFileID(x), suffix: "_error.jsonl", content: content}
		if keepFile(x, j.ID, &f, end, keep) {
			rec.errorFileID = f.id
		}
	}
	return rec
}

// replaceFile gives the file f the content (deleting it when there is
// none), visible from at, and returns its ID, "" once deleted or when the
// session has no room for it.
func replaceFile(x *provider.Exchange, f *runtime.Job, content []byte, at time.Time, keep time.Duration) string {
	if len(content) == 0 {
		x.Runtime.DeleteJob(fileKind, f.ID)
		return ""
	}
	_, ok := x.Runtime.UpdateJob(fileKind, f.ID, func(old runtime.Job) runtime.Job {
		rec, _ := old.Data.(fileRecord)
		rec.content = content
		old.Data, old.Bytes = rec, fileWeight(&rec)
		old.Plan = visibleFrom(old.Created, at, keep)
		return old
	})
	if !ok {
		x.Runtime.DeleteJob(fileKind, f.ID)
		return ""
	}
	return f.ID
}
