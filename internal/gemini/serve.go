package gemini

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// serve answers every request to the codec's paths: it reads the path as
// the API does and runs the method it names.
func serve(x *provider.Exchange) provider.Response {
	t, ok := parsePath(x.Request.URL.Path)
	if !ok {
		return provider.Response{Err: routeNotFound(x)}
	}
	if t.Collection == "cachedContents" {
		if stableOnly(t) {
			return provider.Response{Err: cachesNotOnStable(t)}
		}
		return serveCaches(x, t)
	}
	if t.Collection == "batches" {
		return serveBatches(x, t)
	}
	m := x.Request.Method
	if t.Method == "" {
		switch {
		case m != http.MethodGet:
		case t.Name == "":
			return serveModelList(x, t)
		default:
			return serveModel(x, t)
		}
		return provider.Response{Err: routeNotFound(x)}
	}
	want, known := wantMethod[t.Method]
	if !known || t.Name == "" {
		return provider.Response{Err: routeNotFound(x)}
	}
	if m != want {
		return provider.Response{Err: apierr.MethodNotAllowed(m, x.Request.URL.Path, want)}
	}
	switch t.Method {
	case "generateContent":
		return answer.Serve(generateDecoder(t, false))(x)
	case "streamGenerateContent":
		return answer.Serve(generateDecoder(t, true))(x)
	case "countTokens":
		return answer.Count(countDecoder(t), countBody)(x)
	case "batchGenerateContent":
		return createBatch(x, t)
	}
	return serveEmbed(x, t)
}

// routeNotFound is the API's 404 for a path or method it does not serve
// (inferred wording: Google's front end answers an HTML page there, which
// no SDK decodes).
func routeNotFound(x *provider.Exchange) *apierr.Error {
	return notFound("Method not found: %s %s. This server serves the Gemini API's models (get, list, generateContent, streamGenerateContent, countTokens, embedContent, batchEmbedContents, predict, batchGenerateContent), cachedContents and batches.",
		x.Request.Method, x.Request.URL.Path)
}
