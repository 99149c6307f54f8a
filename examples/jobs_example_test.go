package examples_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// A background response is a job on the session's clock: queued when it
// is created, in progress while its scripted plan runs, then completed
// with the reply. With a fake clock a test polls it through in no real
// time; inside a testing/synctest bubble, time.Sleep between polls does
// the same.
func Example_backgroundResponse() {
	fake := clock.NewFake(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	srv, err := llmtest.New(llmtest.WithClock(fake))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession()
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
	sess.Chat("report").Reply(scenario.Reply{Text: "The report is ready.",
		Job: &scenario.JobPlan{Queued: 10 * time.Second, Running: time.Minute}})

	client := newClient(sess, "provider-key")
	ctx := context.Background()
	r, err := client.Responses.New(ctx, responses.ResponseNewParams{
		Model: openai.ChatModelGPT4_1Mini, Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Write the report")},
		Background: openai.Bool(true), Store: openai.Bool(true)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created:", r.Status)
	for _, wait := range []time.Duration{10 * time.Second, time.Minute} {
		fake.Advance(wait)
		if r, err = client.Responses.Get(ctx, r.ID, responses.ResponseGetParams{}); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("after %v: %s %q\n", wait, r.Status, r.OutputText())
	}
	last, _ := sess.Journal().Last()
	fmt.Println("journal:", last.Method, last.JobState)
	// Output:
	// created: queued
	// after 10s: in_progress ""
	// after 1m0s: completed "The report is ready."
	// journal: GET completed
}
