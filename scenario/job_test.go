package scenario_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// A job's plan travels in milliseconds and comes back the same.
func TestJobPlanJSON(t *testing.T) {
	r := scenario.Job(scenario.JobPlan{Queued: 2 * time.Second, Running: -time.Millisecond, Steps: 5, Ends: scenario.JobExpired, Keep: time.Hour})
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.JSONEq(t, `{"job":{"queued_ms":2000,"running_ms":-1,"steps":5,"ends":"expired","keep_ms":3600000}}`, string(b))
	var back scenario.Reply
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, r, back)
	require.NoError(t, back.Validate())

	assert.Error(t, json.Unmarshal([]byte(`{"job":{"queued":1}}`), &back), "a misspelt field is refused")
}

// A plan is refused where it cannot be run, naming the field.
func TestJobPlanValidate(t *testing.T) {
	for name, c := range map[string]struct {
		reply scenario.Reply
		field string
	}{
		"too long":            {scenario.Job(scenario.JobPlan{Running: scenario.MaxJobTime + time.Millisecond}), "job.running_ms"},
		"too many steps":      {scenario.Job(scenario.JobPlan{Steps: scenario.MaxJobSteps + 1}), "job.steps"},
		"unknown end":         {scenario.Job(scenario.JobPlan{Ends: "cancelled"}), "job.ends"},
		"error, not failed":   {scenario.Reply{Job: &scenario.JobPlan{}, Error: &scenario.Error{Status: 500}}, "job.ends"},
		"with a Go responder": {scenario.Reply{Job: &scenario.JobPlan{}, Func: func(*scenario.Request) scenario.Reply { return scenario.Reply{} }}, "job:"},
	} {
		t.Run(name, func(t *testing.T) {
			err := c.reply.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.field)
		})
	}
	failed := scenario.FailJob(scenario.Error{Status: 400, Code: "moderation_blocked", Message: "no"})
	assert.NoError(t, failed.Validate())
	assert.Equal(t, scenario.JobFailed, failed.Job.Ends)
}

// Videos and batches are answered only by the scenarios that name them.
func TestJobEndpointsAreNotConversational(t *testing.T) {
	for _, e := range []scenario.Endpoint{scenario.EndpointVideos, scenario.EndpointBatches} {
		assert.False(t, e.Conversational(), e)
		m := scenario.Match{}
		assert.False(t, m.Matches(&scenario.Request{Endpoint: e}), "a match naming no endpoint leaves %s alone", e)
	}
}
