package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// parsePath reads every path genai builds, for the Developer API and for
// Vertex AI (project and express mode), into what it names; serve routes
// on the result, so a misread path is a wrong answer or a 404.
func TestParsePath(t *testing.T) {
	for _, tc := range []struct {
		path string
		want target
	}{
		{"/v1beta/models", target{Version: "v1beta", Collection: "models"}},
		{"/v1beta/models/gemini-2.5-flash", target{Version: "v1beta", Collection: "models", Name: "gemini-2.5-flash"}},
		{"/v1beta/models/gemini-2.5-flash:generateContent",
			target{Version: "v1beta", Collection: "models", Name: "gemini-2.5-flash", Method: "generateContent"}},
		{"/v1beta/models/gemini-2.5-flash:streamGenerateContent",
			target{Version: "v1beta", Collection: "models", Name: "gemini-2.5-flash", Method: "streamGenerateContent"}},
		{"/v1/models/x:countTokens", target{Version: "v1", Collection: "models", Name: "x", Method: "countTokens"}},
		{"/v1alpha/models/x:embedContent", target{Version: "v1alpha", Collection: "models", Name: "x", Method: "embedContent"}},
		{"/v1beta/tunedModels/t1:generateContent", target{Version: "v1beta", Collection: "tunedModels", Name: "t1", Method: "generateContent"}},
		{"/v1beta1/projects/p/locations/us-central1/publishers/google/models/m:generateContent",
			target{Version: "v1beta1", Vertex: true, Collection: "models", Name: "m", Method: "generateContent"}},
		{"/v1/projects/p/locations/global/publishers/google/models/m:streamGenerateContent",
			target{Version: "v1", Vertex: true, Collection: "models", Name: "m", Method: "streamGenerateContent"}},
		{"/v1beta1/publishers/google/models/m:predict",
			target{Version: "v1beta1", Vertex: true, Collection: "models", Name: "m", Method: "predict"}},
		{"/v1beta/cachedContents", target{Version: "v1beta", Collection: "cachedContents"}},
		{"/v1beta/cachedContents/abc", target{Version: "v1beta", Collection: "cachedContents", Name: "abc"}},
		// A collection method: parsed, and left to serve to refuse.
		{"/v1beta/cachedContents:batchDelete", target{Version: "v1beta", Collection: "cachedContents", Method: "batchDelete"}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			got, ok := parsePath(tc.path)
			assert.True(t, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// Paths the API does not serve are refused, so that serve answers 404
// instead of guessing.
func TestParsePathRefuses(t *testing.T) {
	for _, path := range []string{
		"/",
		"/v2/models", // unknown version
		"/v1beta2/models/x:generateContent",
		"/models/x:generateContent", // no version
		"/v1beta/files",             // unknown collection
		"/v1beta/operations/op1",
		"/v1beta/",
		"/v1beta/models/x/y",                    // extra segment
		"/v1beta/models/x:generateContent/more", // extra segment after the method
		"/v1beta/cachedContents/abc/def",
		"/v1beta1/projects/p/models/m:generateContent",                              // no locations
		"/v1beta1/projects/p/locations/us-central1",                                 // nothing under the location
		"/v1beta1/projects//locations/l/publishers/google/models/m:generateContent", // empty project
		"/v1beta1/projects/p/locations//publishers/google/models/m:generateContent", // empty location
		"/v1beta1/projects/p/regions/l/publishers/google/models/m:generateContent",  // not locations
		"/v1beta1/publishers/acme/models/m:generateContent",                         // not google's
		// Vertex keeps cached contents under a project, not served here.
		"/v1beta1/projects/p/locations/l/cachedContents/abc",
		"/v1beta1/publishers/google/cachedContents",
	} {
		t.Run(path, func(t *testing.T) {
			_, ok := parsePath(path)
			assert.False(t, ok)
		})
	}
}
