package openai

import (
	"slices"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// The variants of a video's content (VideoDownloadContentParamsVariant)
// and their types: video/mp4 and image/webp as openai-go's Accept names
// them; the spritesheet's type is documented nowhere we could read, and
// is JPEG here (inferred).
var videoVariants = []string{"video", "thumbnail", "spritesheet"}

// videoContent serves GET /v1/videos/{id}/content?variant=…: the
// completed video's MP4 (the default), its WebP thumbnail or its JPEG
// spritesheet, made from its ID, size and seconds (videos_media.go).
// Before the video completes, and once it failed, it is the 404 of a
// video not ready (videoNotReady).
func videoContent(x *provider.Exchange, id string) provider.Response {
	variant := x.Request.URL.Query().Get("variant")
	if variant == "" {
		variant = "video"
	}
	j, s, ok := x.Runtime.Job(videoKind, id)
	if !ok {
		return provider.Response{Err: videoNotFound(id), Job: id}
	}
	rec, _ := j.Data.(videoRecord)
	status := videoStatusOf(s.State)
	answer := provider.Response{Job: id, JobState: status, Model: rec.model}
	switch {
	case !slices.Contains(videoVariants, variant):
		answer.Err = invalidValue("variant", variant, videoVariants)
		return answer
	case status != videoCompleted:
		answer.Err = videoNotReady(id)
		return answer
	}
	w, h := videoDimensions(rec.size)
	seconds, _ := strconv.Atoi(rec.seconds)
	switch variant {
	case "video":
		answer.Body, answer.ContentType = videoMP4(id, w, h, seconds), "video/mp4"
	case "thumbnail":
		answer.Body, answer.ContentType = videoThumbnail(id, w, h), "image/webp"
	default:
		answer.Body, answer.ContentType = videoSpritesheet(id, w, h, seconds), "image/jpeg"
	}
	return answer
}

// videoDimensions reads a size the create validated ("720x1280").
func videoDimensions(size string) (int, int) {
	ws, hs, _ := strings.Cut(size, "x")
	w, _ := strconv.Atoi(ws)
	h, _ := strconv.Atoi(hs)
	return max(w, 2), max(h, 2)
}
