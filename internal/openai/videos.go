package openai

import (
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// The videos API (openai-go's VideoService) is a job of the session, of
// kind runtime.KindVideo, bounded by the session's videos.capacity. A
// create (or a remix) takes its plan from a scenario naming
// scenario.EndpointVideos, the prompt matched as the user message (none:
// the defaults of runtime.JobPlan), and keeps only the video's settings;
// its state is read off the session's clock when the client asks:
//
//	queued       -> queued, progress 0
//	in_progress  -> in_progress, progress in the plan's steps
//	completed    -> completed, progress 100, its content downloadable
//	failed       -> failed with the reply's error (scenario.FailJob)
//	expired      -> failed too: a video has no expired status (inferred)
//
// The media (an MP4, a WebP thumbnail, a JPEG spritesheet) are made when
// they are downloaded (videos_media.go), so a video job keeps a few
// hundred bytes, not its assets. The files: videos_decode.go (what a
// create validates, JSON or multipart), videos_create.go (create and
// remix), videos_object.go (the Video object, GET), videos_list.go (the
// list), videos_delete.go, videos_content.go (the downloads),
// videos_errors.go (the refusals).

// videoKind is the job kind of the videos.
const videoKind = runtime.KindVideo

// videosPath is the collection's path; a video's own paths are under it.
const videosPath = "/v1/videos"

// serveVideos serves /v1/videos: POST creates a video, GET lists them.
func serveVideos(x *provider.Exchange) provider.Response {
	switch x.Request.Method {
	case http.MethodPost:
		return createVideo(x)
	case http.MethodGet:
		return listVideos(x)
	}
	return provider.Response{Err: apierr.MethodNotAllowed(x.Request.Method, x.Request.URL.Path, "GET, POST")}
}

// serveVideoByID serves /v1/videos/{id} (GET, DELETE), …/{id}/content
// (GET) and …/{id}/remix (POST).
func serveVideoByID(x *provider.Exchange) provider.Response {
	rest := strings.TrimPrefix(x.Request.URL.Path, videosPath+"/")
	id, action, _ := strings.Cut(rest, "/")
	method := x.Request.Method
	route := func(allow string, serve func(*provider.Exchange, string) provider.Response) provider.Response {
		if !strings.Contains(allow, method) {
			return provider.Response{Err: apierr.MethodNotAllowed(method, x.Request.URL.Path, allow)}
		}
		return serve(x, id)
	}
	switch {
	case id == "" || strings.Contains(action, "/"):
	case action == "" && method == http.MethodDelete:
		return route("DELETE", deleteVideo)
	case action == "":
		return route("GET, DELETE", getVideo)
	case action == "content":
		return route("GET", videoContent)
	case action == "remix":
		return route("POST", remixVideo)
	}
	return provider.Response{Err: apierr.RouteNotFound(method, x.Request.URL.Path, "")}
}
