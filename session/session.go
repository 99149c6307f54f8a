package session

import (
	"net/http"
	"sync"

	"github.com/llmtestserver/llmtestserver/internal/friend"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/internal/server"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Session is a handle on one isolated session of a server. Its methods call
// the session's runtime directly; they are safe for concurrent use.
type Session struct {
	m       *Manager
	id, key string
	rt      *runtime.Runtime

	clientOnce sync.Once
	client     *http.Client
}

// ID returns the session's ID, the value of the X-Llm-Test-Server-Session
// header.
func (s *Session) ID() string { return s.id }

// Key returns the session's access key, the value of the
// X-Llm-Test-Server-Session-Key header. Treat it as a secret: the server
// never shows it again.
func (s *Session) Key() string { return s.key }

// BaseURL returns the base URL to give an OpenAI SDK: the server's
// allocated endpoint followed by the path the OpenAI API is served under
// (/v1).
func (s *Session) BaseURL() string { return s.baseURL("openai") }

// AnthropicBaseURL returns the base URL to give Anthropic's SDK: the
// server's root followed by the path the Anthropic API is served under,
// which is none, since that SDK appends /v1 to its base URL itself.
func (s *Session) AnthropicBaseURL() string { return s.baseURL("anthropic") }

// GeminiBaseURL returns the base URL to give Google's genai SDK
// (HTTPOptions.BaseURL): the server's root, since that SDK appends the
// API version (/v1beta, or /v1beta1 for Vertex AI) itself.
func (s *Session) GeminiBaseURL() string { return s.baseURL("gemini") }

// Endpoint returns the server's root URL, where /admin-api/ lives: the
// address of the server itself, which no provider's SDK takes as it is
// (BaseURL and AnthropicBaseURL are theirs).
func (s *Session) Endpoint() string { return s.m.cfg.Endpoint }

// baseURL is the base URL of the provider called name.
func (s *Session) baseURL(name string) string {
	path, ok := server.BasePath(name)
	if !ok {
		panic("session: the server speaks no provider " + name)
	}
	return s.m.cfg.Endpoint + path
}

// Transport returns a RoundTripper that sends every request with this
// session's headers over the server's shared base transport.
func (s *Session) Transport() http.RoundTripper {
	return s.WrapTransport(s.m.cfg.Transport)
}

// WrapTransport returns a RoundTripper that sends every request with this
// session's headers over base. base is not modified and stays usable, also
// after the session is closed. A nil base means the server's shared base
// transport (ManagerConfig.Transport), which is the only one that reaches
// an in-memory server.
func (s *Session) WrapTransport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = s.m.cfg.Transport
	}
	return &transport{base: base, id: s.id, key: s.key}
}

// HTTPClient returns a client whose requests carry this session's headers.
// Give it to the SDK, for example with option.WithHTTPClient.
func (s *Session) HTTPClient() *http.Client {
	s.clientOnce.Do(func() { s.client = &http.Client{Transport: s.Transport()} })
	return s.client
}

// WrapClient returns a copy of c whose requests carry this session's headers,
// sent over c's transport, or over the server's shared base transport when c
// has none (nil, http.DefaultClient, a client that only sets a Timeout). c
// itself is not modified and stays usable, also after the session is closed.
func (s *Session) WrapClient(c *http.Client) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	wrapped := *c
	wrapped.Transport = s.WrapTransport(c.Transport)
	return &wrapped
}

// Journal returns the session's request journal. It stays readable after
// the session is closed, frozen as it was: Reset and Record change it no
// more.
func (s *Session) Journal() *journal.Journal { return s.rt.Journal() }

// Chat scripts the scenario name for conversational requests: Chat
// Completions and Responses alike, since scenarios see the normalized
// request. Replies take effect at once and are part of the configuration:
// Reset makes them available again, Configure replaces them. The scenario
// exists from its first reply; When, Repeat and PerConversation called
// before it apply with it.
//
// Calling Chat again with a name already scripted continues that scenario
// instead of adding one: the new replies queue after those left, the match
// stays unless the new builder calls When, which replaces it with the new
// builder's conditions, and Repeat and PerConversation set their flag but
// never clear it. (POST /admin-api/scenarios with an existing name also
// appends, but always replaces the match and flags.) See scenario.Builder.
//
// Every builder call is checked like Configure: one that would take the
// configuration past the server's MaxConfigBytes, or the reservation past
// the budget, panics where it was made and changes nothing.
func (s *Session) Chat(name string) *scenario.Builder {
	return s.builder(name, scenario.Match{})
}

// Embeddings scripts the scenario name for embeddings requests, to override
// the computed vectors: sess.Embeddings("fixed").Reply(scenario.Vectors(v)).
// Every When narrows within the embeddings endpoint. A name already scripted
// is continued as with Chat.
func (s *Session) Embeddings(name string) *scenario.Builder {
	return s.builder(name, scenario.Match{Endpoint: scenario.EndpointEmbeddings})
}

// Videos scripts the scenario name for video generation (OpenAI's POST
// /v1/videos and remixes): its replies time each video and say how it
// ends, sess.Videos("slow").Reply(scenario.Job(scenario.JobPlan{Running:
// time.Minute})). Without one, a video takes the defaults of
// scenario.JobPlan and completes. Every When narrows within the videos
// endpoint; the request's prompt is its user message.
func (s *Session) Videos(name string) *scenario.Builder {
	return s.builder(name, scenario.Match{Endpoint: scenario.EndpointVideos})
}

// Batches scripts the scenario name for the creation of batches
// (OpenAI's, Anthropic's and Gemini's): its replies time each batch on
// the session's clock. The lines of a batch are answered as if each were
// sent alone, by the scenarios of their own endpoints (Chat, Embeddings).
func (s *Session) Batches(name string) *scenario.Builder {
	return s.builder(name, scenario.Match{Endpoint: scenario.EndpointBatches})
}

// Scenario scripts the scenario name for requests that match; When narrows
// it further. A name already scripted is continued as with Chat: its match
// changes only when the builder calls When, and then to match narrowed by
// the builder's conditions. It panics if match is invalid, such as a bad
// regular expression: that is a mistake in the test, reported where it was
// made.
func (s *Session) Scenario(name string, match scenario.Match) *scenario.Builder {
	return s.builder(name, match)
}

// ScenarioStatus is a scenario with what is left of its queue.
type ScenarioStatus struct {
	Scenario scenario.Scenario
	// Remaining counts the replies left; for a per-conversation scenario,
	// those a new conversation gets.
	Remaining int
	// RemainingByConversation counts what each started conversation has
	// left, for per-conversation scenarios.
	RemainingByConversation map[string]int
}

// builder returns a builder that scripts the scenario name, matching base,
// into this session.
func (s *Session) builder(name string, base scenario.Match) *scenario.Builder {
	return friend.NewBuilder[*scenario.Builder](friend.ScenarioSink[scenario.Match, scenario.Reply, scenario.Scenario](sink{s}), name, base)
}

// Scenarios returns a copy of the session's scenarios, in order, with their
// remaining replies.
func (s *Session) Scenarios() []ScenarioStatus {
	states := s.rt.Scenarios()
	out := make([]ScenarioStatus, len(states))
	for i, st := range states {
		// A deep copy: the caller may change or validate what it gets
		// while requests read the session's own scenarios.
		st.Scenario = st.Scenario.Clone()
		out[i] = ScenarioStatus(st)
	}
	return out
}

// Assertions returns the session's report: requests no scenario answered,
// structured outputs that failed their schema, replies that contradict
// their request (journal.Entry.Contradictions), scripted replies never
// used, and the faults fired by kind (which the test scripted, so they do
// not make the report unclean).
func (s *Session) Assertions() journal.Report { return s.rt.Assertions() }

// Pending returns the number of scripted replies not used yet. A reply
// counts as used from the moment a request takes it until that request
// fails to deliver it.
func (s *Session) Pending() int { return s.rt.Pending() }

// Config returns the session's current configuration, scripted scenarios
// included. A scenario that Builder.Clear left without replies is left
// out: it answers nothing, and a configuration gives every scenario a
// reply, so that what Config returns always applies again as it is.
func (s *Session) Config() (Config, error) { return s.m.config(s.id) }

// Configure replaces the session's whole configuration with opts applied over
// the server's startup configuration. It succeeds or changes nothing: an
// invalid configuration, or one whose reservation does not fit the server's
// budget, leaves the session as it was.
func (s *Session) Configure(opts ...Option) error {
	cfg := build(s.m.cfg.Startup, opts)
	if err := cfg.Validate(); err != nil {
		return err
	}
	return s.m.configure(s.id, cfg)
}

// Reset clears the session's state and keeps its configuration, as if the
// session had just been created with it:
//
//   - the journal empties, and the fault counters are cleared;
//   - every scripted reply is available again (see below);
//   - the stored history is forgotten: Responses API responses, stored chat
//     completions and conversations, so that a previous_response_id, a
//     conversation ID or a stored completion's ID from before the reset is
//     unknown afterwards (the API's 400 previous_response_not_found, 404);
//   - the prompt cache empties, so that no prefix counts as cached;
//   - conversation generations start over, so that a conversation's next
//     request is its first generation again;
//   - generated IDs and request IDs start over, from the session's ID seed
//     when it has one (so that a seeded session repeats them), else from a
//     fresh random sequence;
//   - the rate-limit buckets refill, the chaos rules start again from their
//     seed, and the kept Idempotency-Key answers are forgotten.
//
// Scripted replies are part of the configuration, so Reset restores every
// one of them: the queues start over from each scenario's first reply,
// used and rolled-back replies alike, and each conversation of a
// per-conversation scenario starts from the beginning. Replies dropped
// with scenario.Builder.Clear are no longer scripted and stay gone; those
// a scenario used before the Clear come back.
func (s *Session) Reset() { s.rt.Reset() }

// Reservation returns the bytes the session reserves in the server's
// budget: Config().Reservation() as of the last change, scripted scenarios
// included (and the name and match of a scenario that Builder.Clear left
// without replies, which Config leaves out). A deleted session reserves
// nothing.
func (s *Session) Reservation() int64 { return s.m.reservation(s.id) }

// Close deletes the session. It is idempotent: closing a session that is
// already gone does nothing.
func (s *Session) Close() {
	s.m.Delete(s.id, s.key) // ErrNotFound: already gone, which is what Close wants
}
