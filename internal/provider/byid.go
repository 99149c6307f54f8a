package provider

import (
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// IDRoute is one route of a resource the API serves by its ID: the
// action after the ID ("" for the resource itself, "cancel" for
// …/{id}/cancel), the method, and what serves it, given the ID.
type IDRoute struct {
	Action, Method string
	Serve          func(x *Exchange, id string) Response
}

// ServeByID serves prefix/{id} and prefix/{id}/{action} from routes, as
// the job APIs' resources are served: a path with no ID, with more than
// one segment after it or with an action no route has is RouteNotFound;
// a known action with another method is MethodNotAllowed, naming the
// methods its routes allow in their order.
func ServeByID(x *Exchange, prefix string, routes ...IDRoute) Response {
	path, method := x.Request.URL.Path, x.Request.Method
	id, action, _ := strings.Cut(strings.TrimPrefix(path, prefix+"/"), "/")
	if id == "" || strings.Contains(action, "/") {
		return Response{Err: apierr.RouteNotFound(method, path, "")}
	}
	var allow []string
	for _, r := range routes {
		if r.Action != action {
			continue
		}
		if r.Method == method {
			return r.Serve(x, id)
		}
		allow = append(allow, r.Method)
	}
	if allow == nil {
		return Response{Err: apierr.RouteNotFound(method, path, "")}
	}
	return Response{Err: apierr.MethodNotAllowed(method, path, strings.Join(allow, ", "))}
}
