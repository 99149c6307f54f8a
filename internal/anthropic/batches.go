package anthropic

import (
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// serveBatches is not served yet.
func serveBatches(x *provider.Exchange) provider.Response {
	return provider.Response{Err: apierr.RouteNotFound(x.Request.Method, x.Request.URL.Path, "")}
}

// serveBatchByID is not served yet.
func serveBatchByID(x *provider.Exchange) provider.Response {
	return provider.Response{Err: apierr.RouteNotFound(x.Request.Method, x.Request.URL.Path, "")}
}
