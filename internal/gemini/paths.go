package gemini

import (
	"net/http"
	"strings"
)

// target is what a request's path names, read as the API reads it:
// /{version}/[projects/{p}/locations/{l}/][publishers/google/]{collection}[/{name}][:{method}].
type target struct {
	// Version is the API version: v1beta, v1, v1alpha, or Vertex's
	// v1beta1 (and v1).
	Version string
	// Vertex reports a Vertex AI path: under a project and location, or
	// express mode's publishers/google.
	Vertex bool
	// Collection is "models", "tunedModels", "cachedContents" or
	// "batches".
	Collection string
	// Name is the resource's ID within its collection ("" for the
	// collection itself), and Method what follows its colon.
	Name, Method string
}

// versions are the API versions served.
var versions = map[string]bool{"v1": true, "v1beta": true, "v1alpha": true, "v1beta1": true}

// parsePath reads path; ok is false for a path the API does not serve.
func parsePath(path string) (t target, ok bool) {
	version, rest, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if !versions[version] {
		return t, false
	}
	t.Version = version
	if after, found := strings.CutPrefix(rest, "projects/"); found {
		// projects/{p}/locations/{l}/...
		parts := strings.SplitN(after, "/", 4)
		if len(parts) < 4 || parts[0] == "" || parts[1] != "locations" || parts[2] == "" {
			return t, false
		}
		rest, t.Vertex = parts[3], true
	}
	if after, found := strings.CutPrefix(rest, "publishers/google/"); found {
		rest, t.Vertex = after, true
	}
	collection, name, _ := strings.Cut(rest, "/")
	if strings.Contains(name, "/") {
		return t, false
	}
	if c, method, found := strings.Cut(collection, ":"); found && name == "" {
		// A collection method (cachedContents:batch…): none is served.
		collection, t.Method = c, method
	} else if n, method, found := strings.Cut(name, ":"); found {
		name, t.Method = n, method
	}
	switch collection {
	case "models", "tunedModels":
	case "cachedContents", "batches":
		if t.Vertex {
			// Vertex keeps cached contents and batchPredictionJobs under
			// a project only, which this server does not serve.
			return t, false
		}
	default:
		return t, false
	}
	t.Collection, t.Name = collection, name
	return t, true
}

// wantMethod is the HTTP method each target method takes.
var wantMethod = map[string]string{
	"generateContent": http.MethodPost, "streamGenerateContent": http.MethodPost, "countTokens": http.MethodPost,
	"batchEmbedContents": http.MethodPost, "embedContent": http.MethodPost, "predict": http.MethodPost,
	"batchGenerateContent": http.MethodPost,
}
