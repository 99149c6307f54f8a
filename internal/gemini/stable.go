package gemini

import (
	"slices"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// The Developer API's stable version, v1, serves less than v1beta: no
// context caching and not the -latest aliases (genai's changelog for
// v1.78.0, when genai's default moved from v1beta to v1). A test whose code
// reaches for either on v1 fails here as it would against Google. Vertex's
// versions are not concerned.

// stableOnly reports whether t is on the Developer API's v1.
func stableOnly(t target) bool { return t.Version == "v1" && !t.Vertex }

// betaModel reports whether the model id is served on v1beta only.
func betaModel(id string) bool {
	info, ok := lookup(id)
	return ok && info.AliasOf != ""
}

// servedOn reports whether the model id is served on t's version.
func servedOn(t target, id string) bool { return !stableOnly(t) || !betaModel(id) }

// offered is what a 404 on t's version names as served: on v1, not the
// models v1 does not serve.
func offered(t target, served []string) []string {
	if !stableOnly(t) {
		return served
	}
	return slices.DeleteFunc(slices.Clone(served), betaModel)
}

// cachesNotOnStable is the answer to cachedContents on v1. The API's own
// body there is inferred (its front end answers 404 for a method the
// version lacks); the message says what to change.
func cachesNotOnStable(t target) *apierr.Error {
	return notFound("Method not found: cachedContents is served on v1beta, not on %s. Context caching is a v1beta API: "+
		"set genai.HTTPOptions{APIVersion: \"v1beta\"} (genai defaults to v1 from v1.78.0 on).", t.Version)
}
