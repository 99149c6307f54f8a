package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// serveFiles is not served yet.
func serveFiles(x *provider.Exchange) provider.Response {
	return provider.Response{Err: apierr.RouteNotFound(x.Request.Method, x.Request.URL.Path, "")}
}

// serveFileByID is not served yet.
func serveFileByID(x *provider.Exchange) provider.Response {
	return provider.Response{Err: apierr.RouteNotFound(x.Request.Method, x.Request.URL.Path, "")}
}
