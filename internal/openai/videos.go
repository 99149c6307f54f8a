package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// serveVideos is not served yet.
func serveVideos(x *provider.Exchange) provider.Response {
	return provider.Response{Err: apierr.RouteNotFound(x.Request.Method, x.Request.URL.Path, "")}
}

// serveVideoByID is not served yet.
func serveVideoByID(x *provider.Exchange) provider.Response {
	return provider.Response{Err: apierr.RouteNotFound(x.Request.Method, x.Request.URL.Path, "")}
}
