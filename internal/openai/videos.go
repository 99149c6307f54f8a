package openai

import (
	"net/http"

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
	return provider.ServeByID(x, videosPath,
		provider.IDRoute{Method: http.MethodGet, Serve: getVideo},
		provider.IDRoute{Method: http.MethodDelete, Serve: deleteVideo},
		provider.IDRoute{Action: "content", Method: http.MethodGet, Serve: videoContent},
		provider.IDRoute{Action: "remix", Method: http.MethodPost, Serve: remixVideo})
}
