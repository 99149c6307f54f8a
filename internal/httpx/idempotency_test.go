package httpx

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// A request without an Idempotency-Key passes the hook without allocating.
func TestIdempotencyHookIsFreeWithoutTheHeader(t *testing.T) {
	rt := runtime.New(runtime.Settings{JournalCapacity: 1, JournalMaxBytes: 1 << 10, IdempotencyCapacity: 4, IdempotencyMaxBytes: 1 << 10})
	r := httptest.NewRequest("POST", "/v1/chat/completions", strings.NewReader("{}"))
	x := &provider.Exchange{Ctx: context.Background(), Runtime: rt, Request: r, MaxBody: 1 << 10}
	w := httptest.NewRecorder()
	allocs := testing.AllocsPerRun(100, func() {
		if idem, refused, replayed := claimIdempotency(w, x); idem != nil || refused != nil || replayed {
			t.Fatal("a request without the header was taken for an idempotent one")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per request without the header, want 0", allocs)
	}
}

// With the header, the body is hashed and handed on whole to the route.
func TestIdempotencyHookHandsTheBodyOn(t *testing.T) {
	rt := runtime.New(runtime.Settings{JournalCapacity: 1, JournalMaxBytes: 1 << 10, IdempotencyCapacity: 4, IdempotencyMaxBytes: 1 << 10})
	r := httptest.NewRequest("POST", "/v1/chat/completions", strings.NewReader(`{"model":"m"}`))
	r.Header.Set(HeaderIdempotencyKey, "k")
	x := &provider.Exchange{Ctx: context.Background(), Runtime: rt, Request: r, MaxBody: 1 << 10}
	idem, refused, replayed := claimIdempotency(httptest.NewRecorder(), x)
	if idem == nil || refused != nil || replayed {
		t.Fatalf("claim = %v, %v, %v; want a fresh claim", idem, refused, replayed)
	}
	defer idem.release()
	body, err := x.ReadBody()
	if err != nil || string(body) != `{"model":"m"}` {
		t.Errorf("the route read %q, %v", body, err)
	}
	if x.Entry.IdempotencyKey != "k" {
		t.Errorf("journal key = %q", x.Entry.IdempotencyKey)
	}
}
