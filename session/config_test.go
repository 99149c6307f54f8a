package session_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

func TestDefaultReservationFitsTheDefaultBudget(t *testing.T) {
	cfg := session.DefaultConfig()
	r := cfg.Reservation()
	if r > 16<<20 || r < 12<<20 {
		t.Errorf("default reservation = %d bytes, want at most 16 MiB (and above 12 MiB)", r)
	}
	// A default session can run a few videos and jobs, as a test that
	// polls them does, without configuring anything.
	if cfg.Videos.Capacity < 1 || cfg.Jobs.Capacity < 1 || cfg.Jobs.MaxBytes < 1<<20 {
		t.Errorf("default videos %+v, jobs %+v: want room for a few of each", cfg.Videos, cfg.Jobs)
	}
	b := session.DefaultBounds()
	if int64(b.MaxSessions)*r > b.MaxReservedBytes {
		t.Errorf("%d default sessions reserve %d bytes, over the %d budget", b.MaxSessions, int64(b.MaxSessions)*r, b.MaxReservedBytes)
	}
	if b.MaxSessions != 32 || b.MaxReservedBytes != 512<<20 || b.MaxConfigBytes != 1<<20 {
		t.Errorf("DefaultBounds() = %+v, want 32 sessions, 512 MiB, 1 MiB", b)
	}
}

func TestReservationIsAPureFunctionOfTheConfiguration(t *testing.T) {
	cfg := session.Config{
		Journal: session.JournalConfig{Capacity: 10, MaxBytes: 1000},
		History: session.HistoryConfig{Capacity: 2, MaxBytes: 5000},
		Videos:  session.VideosConfig{Capacity: 1},
	}
	want := int64(1000 + 10*1024 + 5000 + 2*256 + 1*128*1024 + 5<<19)
	if got := cfg.Reservation(); got != want {
		t.Errorf("Reservation() = %d, want %d", got, want)
	}
	cfg.APIKey = "k"
	if got := cfg.Reservation(); got != want {
		t.Errorf("an API key changed the reservation to %d", got)
	}
	// Scenarios cost what keeping them costs.
	cfg.Scenarios = []scenario.Scenario{{Name: "x", Replies: []scenario.Reply{{Text: "y"}}}}
	if got := cfg.Reservation(); got <= want {
		t.Errorf("Reservation() with a scenario = %d, want more than %d", got, want)
	}
}

func TestParseConfigReadsOverTheBase(t *testing.T) {
	base, err := session.NewConfig(session.RequireAPIKey("base-key"), session.OnlyModels("gpt-4.1-mini"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := session.ParseConfig([]byte(`{"journal":{"capacity":5},"models":["gpt-4o"]}`), base)
	if err != nil {
		t.Fatal(err)
	}
	if got.APIKey != "base-key" || got.Journal.Capacity != 5 || got.Journal.MaxBytes != base.Journal.MaxBytes ||
		!reflect.DeepEqual(got.Models, []string{"gpt-4o"}) {
		t.Errorf("ParseConfig = %+v", got)
	}
	if base.Models[0] != "gpt-4.1-mini" {
		t.Error("ParseConfig changed its base")
	}
	for _, body := range []string{``, `{}`, "  \n"} {
		got, err := session.ParseConfig([]byte(body), base)
		if err != nil || !reflect.DeepEqual(got, base) {
			t.Errorf("ParseConfig(%q) = %+v, %v; want the base", body, got, err)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := map[string]struct{ body, field string }{
		"unknown field":      {`{"bearer":"x"}`, "bearer"},
		"wrong type":         {`{"models":"gpt-4o"}`, "models"},
		"empty model":        {`{"models":[""]}`, "models[0]"},
		"duplicate model":    {`{"models":["a","a"]}`, "models[1]"},
		"journal too big":    {`{"journal":{"max_bytes":1099511627776}}`, "journal.max_bytes"},
		"too many videos":    {`{"videos":{"capacity":100000}}`, "videos.capacity"},
		"scenario no name":   {`{"scenarios":[{"match":{},"replies":[{"text":"x"}]}]}`, "scenarios[0].name"},
		"reply unknown key":  {`{"scenarios":[{"name":"s","match":{},"replies":[{"txt":"x"}]}]}`, "txt"},
		"two documents":      {`{}{}`, ""},
		"not an object":      {`[]`, ""},
		"history negative":   {`{"history":{"capacity":-3}}`, "history.capacity"},
		"journal capacity 0": {`{"journal":{"capacity":0}}`, "journal.capacity"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := session.ParseConfig([]byte(tt.body), session.DefaultConfig())
			var cfgErr *session.ConfigError
			if !errors.As(err, &cfgErr) || !errors.Is(err, session.ErrInvalidConfig) {
				t.Fatalf("err = %v, want a *ConfigError matching ErrInvalidConfig", err)
			}
			if cfgErr.Field != tt.field {
				t.Errorf("Field = %q, want %q (%v)", cfgErr.Field, tt.field, err)
			}
		})
	}
}

func TestConfigJSONRoundTrip(t *testing.T) {
	in, err := session.NewConfig(session.RequireAPIKey("k"), session.OnlyModels("gpt-4.1-mini"),
		session.WithScenario(scenario.Scenario{Name: "s", Match: scenario.Match{UserContains: "hi"}, Replies: []scenario.Reply{{Text: "x"}}}),
		session.WithJournal(3, 4096), session.WithHistory(7), session.WithVideos(2))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := session.ParseConfig(b, session.Config{})
	if err != nil {
		t.Fatalf("ParseConfig(%s): %v", b, err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("round trip:\n got %+v\nwant %+v", out, in)
	}
}

func TestOptionsDoNotShareSlices(t *testing.T) {
	base, _ := session.NewConfig(session.OnlyModels("a"))
	one, _ := session.NewConfig(session.WithConfig(base), session.OnlyModels("b"))
	two, _ := session.NewConfig(session.WithConfig(base), session.OnlyModels("c"))
	if !reflect.DeepEqual(one.Models, []string{"a", "b"}) || !reflect.DeepEqual(two.Models, []string{"a", "c"}) {
		t.Errorf("configurations built from one base share their models: %v %v", one.Models, two.Models)
	}
}

// bearer_token, the former name of api_key, still sets the key: a
// document or a Go option that uses it reads back with api_key alone, one
// that sets both to different keys is refused, and a document's name wins
// over its base's key.
func TestBearerTokenIsTheFormerNameOfAPIKey(t *testing.T) {
	base, err := session.NewConfig(session.RequireAPIKey("base-key"))
	if err != nil {
		t.Fatal(err)
	}
	for body, want := range map[string]string{
		`{"bearer_token":"old-name"}`:                       "old-name",
		`{"api_key":"new-name"}`:                            "new-name",
		`{"api_key":"same","bearer_token":"same"}`:          "same",
		`{"journal":{"capacity":3}}`:                        "base-key",
		`{"bearer_token":"old-name","models":["gpt-4o"]}`:   "old-name",
		`{"api_key":"","bearer_token":""}`:                  "",
		`{"bearer_token":""}`:                               "",
		`{"api_key":"new-name","models":["gpt-4.1-mini"]}`:  "new-name",
		`{"models":["gpt-4.1-mini"],"bearer_token":"late"}`: "late",
	} {
		got, err := session.ParseConfig([]byte(body), base)
		if err != nil {
			t.Errorf("ParseConfig(%s): %v", body, err)
			continue
		}
		if got.APIKey != want || got.BearerToken != "" {
			t.Errorf("ParseConfig(%s): api_key %q, bearer_token %q; want %q alone", body, got.APIKey, got.BearerToken, want)
		}
	}
	_, err = session.ParseConfig([]byte(`{"api_key":"a","bearer_token":"b"}`), base)
	var cerr *session.ConfigError
	if !errors.As(err, &cerr) || cerr.Field != "bearer_token" {
		t.Errorf("both names, two keys: err = %v, want a ConfigError on bearer_token", err)
	}

	cfg, err := session.NewConfig(session.RequireBearerToken("via-option"))
	if err != nil || cfg.APIKey != "via-option" || cfg.BearerToken != "" {
		t.Errorf("RequireBearerToken: %+v, %v; want api_key via-option", cfg, err)
	}
	cfg, err = session.NewConfig(session.WithConfig(session.Config{BearerToken: "literal", Journal: base.Journal,
		History: base.History, Stream: base.Stream}))
	if err != nil || cfg.APIKey != "literal" || cfg.BearerToken != "" {
		t.Errorf("Config{BearerToken}: %+v, %v; want api_key literal", cfg, err)
	}
	_, err = session.NewConfig(session.WithConfig(session.Config{APIKey: "a", BearerToken: "b", Journal: base.Journal,
		History: base.History, Stream: base.Stream}))
	if !errors.As(err, &cerr) || cerr.Field != "bearer_token" {
		t.Errorf("Config{APIKey, BearerToken} that differ: err = %v, want a ConfigError on bearer_token", err)
	}
}
