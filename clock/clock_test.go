package clock_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestFakeFiresTimersInOrderWhenDue(t *testing.T) {
	f := clock.NewFake(start)
	late, early := f.NewTimer(2*time.Second), f.NewTimer(time.Second)
	require.Equal(t, 2, f.Timers())

	f.Advance(999 * time.Millisecond)
	assertPending(t, early)
	f.Advance(time.Millisecond)
	assert.Equal(t, start.Add(time.Second), <-early.C())
	assertPending(t, late)
	f.Advance(time.Hour)
	assert.Equal(t, start.Add(2*time.Second), <-late.C(), "a timer delivers when it was due, not when the clock got there")
	assert.Zero(t, f.Timers())
	assert.Equal(t, start.Add(time.Hour+time.Second), f.Now())
}

func TestFakeNeverGoesBack(t *testing.T) {
	f := clock.NewFake(start)
	f.Advance(-time.Hour)
	f.Set(start.Add(-time.Minute))
	assert.Equal(t, start, f.Now())
}

func TestFakeTimerStop(t *testing.T) {
	f := clock.NewFake(start)
	tm := f.NewTimer(time.Second)
	assert.True(t, tm.Stop())
	assert.False(t, tm.Stop())
	f.Advance(time.Minute)
	assertPending(t, tm)
	assert.True(t, f.NewTimer(0).Stop() == false, "a timer of 0 has fired already")
}

func TestWaitOnFake(t *testing.T) {
	f := clock.NewFake(start)
	done := make(chan error, 1)
	go func() { done <- clock.Wait(context.Background(), f, 30*time.Second) }()
	require.NoError(t, f.WaitForTimers(context.Background(), 1))
	f.Advance(30 * time.Second)
	require.NoError(t, <-done)

	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- clock.Wait(ctx, f, time.Hour) }()
	require.NoError(t, f.WaitForTimers(context.Background(), 1))
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	assert.Zero(t, f.Timers(), "a wait cut short stops its timer")
}

func TestWaitForTimersEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, clock.NewFake(start).WaitForTimers(ctx, 1), context.Canceled)
}

func TestRealWaits(t *testing.T) {
	require.NoError(t, clock.Wait(context.Background(), clock.Real(), time.Millisecond))
	assert.WithinDuration(t, time.Now(), clock.Real().Now(), time.Minute)
}

func assertPending(t *testing.T, tm clock.Timer) {
	t.Helper()
	select {
	case <-tm.C():
		t.Fatal("the timer fired before it was due")
	default:
	}
}
