package runtime

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
)

var jobsStart = time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)

// jobRuntime is a runtime on a fake clock that keeps capacity jobs of at
// most maxBytes.
func jobRuntime(capacity int, maxBytes int64) (*Runtime, *clock.Fake) {
	clk := clock.NewFake(jobsStart)
	return New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, VideoCapacity: capacity, VideoMaxBytes: maxBytes, JobCapacity: capacity, JobMaxBytes: maxBytes, Clock: clk}), clk
}

// A job with the default plan queues a second, runs four in four steps
// of progress, completes, and is gone a day after it ended: all on the
// runtime's clock, with nothing running in between.
func TestJobDefaultPlan(t *testing.T) {
	rt, clk := jobRuntime(4, 1<<20)
	j, s, err := rt.AddJob(Job{ID: "video_1", Kind: "video", Bytes: 100})
	require.NoError(t, err)
	assert.Equal(t, jobsStart, j.Created)
	assert.Equal(t, JobStatus{State: JobQueued}, s)

	started := jobsStart.Add(DefaultJobQueued)
	for _, step := range []struct {
		at       time.Duration
		state    JobState
		progress int
	}{
		{999 * time.Millisecond, JobQueued, 0},
		{time.Second, JobInProgress, 0},
		{2 * time.Second, JobInProgress, 25},
		{4*time.Second + 999*time.Millisecond, JobInProgress, 75},
		{5 * time.Second, JobCompleted, 100},
	} {
		clk.Set(jobsStart.Add(step.at))
		_, s, ok := rt.Job("video", "video_1")
		require.True(t, ok, "at %v", step.at)
		assert.Equal(t, step.state, s.State, "at %v", step.at)
		assert.Equal(t, step.progress, s.Progress, "at %v", step.at)
		if step.state != JobQueued {
			assert.Equal(t, started, s.Started, "at %v", step.at)
		}
	}
	_, s, _ = rt.Job("video", "video_1")
	ended := started.Add(DefaultJobRunning)
	assert.Equal(t, ended, s.Ended)
	assert.Equal(t, ended.Add(DefaultJobKeep), s.Gone)

	clk.Set(s.Gone.Add(-time.Nanosecond))
	_, _, ok := rt.Job("video", "video_1")
	assert.True(t, ok, "kept until Gone")
	clk.Set(s.Gone)
	_, _, ok = rt.Job("video", "video_1")
	assert.False(t, ok, "gone at Gone")
	jobs, _ := rt.Jobs("video")
	assert.Empty(t, jobs)
}

// A plan's outcome, its negative durations (none) and its steps.
func TestJobPlans(t *testing.T) {
	rt, clk := jobRuntime(8, 1<<20)
	_, s, err := rt.AddJob(Job{ID: "a", Kind: "batch", Plan: JobPlan{Queued: -1, Running: -1}})
	require.NoError(t, err)
	assert.Equal(t, JobCompleted, s.State, "no queue, no run: done when made")
	assert.Equal(t, 100, s.Progress)

	_, _, err = rt.AddJob(Job{ID: "b", Kind: "batch", Plan: JobPlan{Queued: -1, Running: time.Minute, Ends: JobFailed, Steps: 2}})
	require.NoError(t, err)
	_, _, err = rt.AddJob(Job{ID: "c", Kind: "batch", Plan: JobPlan{Running: time.Hour, Ends: JobExpired, Keep: time.Hour}})
	require.NoError(t, err)

	clk.Advance(45 * time.Second)
	_, s, _ = rt.Job("batch", "b")
	assert.Equal(t, JobInProgress, s.State)
	assert.Equal(t, 50, s.Progress, "two steps: 0 then 50")
	clk.Advance(15 * time.Second)
	_, s, _ = rt.Job("batch", "b")
	assert.Equal(t, JobFailed, s.State)
	assert.Zero(t, s.Progress, "a failed job is not 100% done")

	clk.Advance(time.Hour)
	_, s, _ = rt.Job("batch", "c")
	assert.Equal(t, JobExpired, s.State)
	assert.Equal(t, jobsStart.Add(time.Second+time.Hour), s.Ended)
}

// A job is cancelled while queued or running, not once ended; a
// cancelled job keeps its state however the clock moves.
func TestCancelJob(t *testing.T) {
	rt, clk := jobRuntime(8, 1<<20)
	for _, id := range []string{"queued", "running", "done"} {
		_, _, err := rt.AddJob(Job{ID: id, Kind: "video"})
		require.NoError(t, err)
	}
	_, s, found, cancelled := rt.CancelJob("video", "queued")
	require.True(t, found)
	require.True(t, cancelled)
	assert.Equal(t, JobCancelled, s.State)
	assert.True(t, s.Started.IsZero(), "it never ran")

	clk.Advance(2 * time.Second)
	_, s, _, cancelled = rt.CancelJob("video", "running")
	require.True(t, cancelled)
	assert.Equal(t, jobsStart.Add(time.Second), s.Started)
	assert.Equal(t, jobsStart.Add(2*time.Second), s.Ended)

	clk.Advance(time.Hour)
	_, s, found, cancelled = rt.CancelJob("video", "done")
	assert.True(t, found)
	assert.False(t, cancelled, "an ended job stays as it is")
	assert.Equal(t, JobCompleted, s.State)
	_, s, _ = rt.Job("video", "queued")
	assert.Equal(t, JobCancelled, s.State)

	_, _, found, _ = rt.CancelJob("video", "missing")
	assert.False(t, found)
	_, _, found, _ = rt.CancelJob("batch", "queued")
	assert.False(t, found, "another API's kind sees no such job")
}

// The bounds hold the count and the bytes; a refused job changes
// nothing, and the room of jobs gone or deleted is free again.
func TestJobBounds(t *testing.T) {
	rt, clk := jobRuntime(2, 1000)
	_, _, err := rt.AddJob(Job{ID: "big", Kind: "video", Bytes: 1001})
	assert.ErrorIs(t, err, ErrJobsFull, "too many bytes")
	_, _, err = rt.AddJob(Job{ID: "a", Kind: "video", Bytes: 600, Plan: JobPlan{Queued: -1, Running: -1, Keep: time.Minute}})
	require.NoError(t, err)
	_, _, err = rt.AddJob(Job{ID: "b", Kind: "video", Bytes: 500})
	assert.ErrorIs(t, err, ErrJobsFull, "600 + 500 bytes")
	_, _, err = rt.AddJob(Job{ID: "b", Kind: "video", Bytes: 400})
	require.NoError(t, err)
	_, _, err = rt.AddJob(Job{ID: "c", Kind: "video"})
	assert.ErrorIs(t, err, ErrJobsFull, "two jobs")
	jobs, _ := rt.Jobs("video")
	assert.Len(t, jobs, 2, "the refused jobs left nothing")

	clk.Advance(time.Minute) // a is gone
	_, _, err = rt.AddJob(Job{ID: "c", Kind: "video", Bytes: 600})
	require.NoError(t, err)
	assert.True(t, rt.DeleteJob("video", "b"))
	assert.False(t, rt.DeleteJob("video", "b"))
	_, _, err = rt.AddJob(Job{ID: "d", Kind: "video", Bytes: 400})
	require.NoError(t, err)

	_, ok := rt.UpdateJob("video", "d", func(j Job) Job { j.Bytes = 401; return j })
	assert.False(t, ok, "an update past the byte bound is refused")
	j, ok := rt.UpdateJob("video", "d", func(j Job) Job { j.Data, j.ID = "result", "other"; return j })
	require.True(t, ok)
	assert.Equal(t, "d", j.ID, "an update keeps the ID")
	got, _, _ := rt.Job("video", "d")
	assert.Equal(t, "result", got.Data)
}

// A clone starts with the jobs where they stand and moves on its own;
// Reset forgets them; a retired runtime refuses every change.
func TestJobsCloneResetRetire(t *testing.T) {
	rt, clk := jobRuntime(4, 1<<20)
	_, _, err := rt.AddJob(Job{ID: "a", Kind: "video"})
	require.NoError(t, err)
	c, ok := rt.Clone(nil)
	require.True(t, ok)
	_, _, _, cancelled := c.CancelJob("video", "a")
	require.True(t, cancelled)
	clk.Advance(10 * time.Second)
	_, s, _ := rt.Job("video", "a")
	assert.Equal(t, JobCompleted, s.State, "the original is not cancelled by its clone")
	_, s, _ = c.Job("video", "a")
	assert.Equal(t, JobCancelled, s.State)

	rt.Reset()
	_, _, ok = rt.Job("video", "a")
	assert.False(t, ok)

	c.Retire()
	_, _, err = c.AddJob(Job{ID: "b", Kind: "video"})
	assert.ErrorIs(t, err, ErrRetired)
	_, _, found, _ := c.CancelJob("video", "a")
	assert.False(t, found)
	assert.False(t, c.DeleteJob("video", "a"))
	_, ok = c.UpdateJob("video", "a", func(j Job) Job { return j })
	assert.False(t, ok)
	_, s, ok = c.Job("video", "a")
	assert.True(t, ok, "a retired runtime still shows what it had")
	assert.Equal(t, JobCancelled, s.State)
}

// Videos and the other jobs are bounded apart: a full set of videos
// leaves room for a batch, and the other way round.
func TestJobPools(t *testing.T) {
	clk := clock.NewFake(jobsStart)
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, VideoCapacity: 1, VideoMaxBytes: 100,
		JobCapacity: 2, JobMaxBytes: 1000, Clock: clk})
	_, _, err := rt.AddJob(Job{ID: "video_1", Kind: KindVideo, Bytes: 100})
	require.NoError(t, err)
	_, _, err = rt.AddJob(Job{ID: "video_2", Kind: KindVideo, Bytes: 1})
	assert.ErrorIs(t, err, ErrJobsFull)
	_, _, err = rt.AddJob(Job{ID: "batch_1", Kind: "batch", Bytes: 900})
	require.NoError(t, err)
	_, _, err = rt.AddJob(Job{ID: "batch_2", Kind: "batch", Bytes: 101})
	assert.ErrorIs(t, err, ErrJobsFull, "past the bytes of the other jobs")
	_, _, err = rt.AddJob(Job{ID: "file_1", Kind: "file", Bytes: 100})
	require.NoError(t, err)
	_, ok := rt.UpdateJob("batch", "batch_1", func(j Job) Job { j.Bytes = 901; return j })
	assert.False(t, ok, "an update past the bound is refused")
	all, _ := rt.Jobs("")
	assert.Len(t, all, 3)
	require.True(t, rt.DeleteJob(KindVideo, "video_1"))
	_, _, err = rt.AddJob(Job{ID: "video_2", Kind: KindVideo, Bytes: 100})
	assert.NoError(t, err, "a deleted video makes room")
}
