package gemini

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// cachedContent is an explicit cache (client.Caches), kept in the
// session's history of stored records under "cachedContents/{id}": Forks
// copy it, Reset and deletion drop it, and the history's bounds hold it.
// It is gone once its expireTime passes on the session's clock.
type cachedContent struct {
	ID, Model, DisplayName    string
	Created, Updated, Expires time.Time
	System                    *Content
	Contents                  []Content
	Tools                     []Tool
	ToolConfig                *ToolConfig
	Tokens                    int
	bytes                     int64
}

// StoredID implements runtime.Stored.
func (c *cachedContent) StoredID() string { return cacheKey(c.ID) }

// PreviousID implements runtime.Stored.
func (c *cachedContent) PreviousID() string { return "" }

// Size implements runtime.Stored: the request body it was made of bounds
// what it keeps.
func (c *cachedContent) Size() int64 { return c.bytes }

func cacheKey(id string) string { return "cachedContents/" + id }

// defaultTTL is the API's TTL for a cache created without one (one hour).
const defaultTTL = time.Hour

// cacheResource is a cached content as the API returns it.
type cacheResource struct {
	Name          string `json:"name"`
	Model         string `json:"model"`
	DisplayName   string `json:"displayName,omitempty"`
	CreateTime    string `json:"createTime"`
	UpdateTime    string `json:"updateTime"`
	ExpireTime    string `json:"expireTime"`
	UsageMetadata struct {
		TotalTokenCount int `json:"totalTokenCount"`
	} `json:"usageMetadata"`
}

func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

func (c *cachedContent) resource() cacheResource {
	r := cacheResource{Name: cacheKey(c.ID), Model: "models/" + c.Model, DisplayName: c.DisplayName,
		CreateTime: timestamp(c.Created), UpdateTime: timestamp(c.Updated), ExpireTime: timestamp(c.Expires)}
	r.UsageMetadata.TotalTokenCount = c.Tokens
	return r
}

var (
	createCacheMessage = msg("CachedContent", map[string]*field{
		"model": str(), "contents": list(of(contentMessage)), "systemInstruction": of(contentMessage),
		"tools": list(of(toolMessage)), "toolConfig": of(toolConfigMessage), "displayName": str(),
		"ttl": duration(), "expireTime": str(), "name": str(),
	})
	updateCacheMessage = msg("CachedContent", map[string]*field{"ttl": duration(), "expireTime": str(), "name": str(),
		"model": str(), "displayName": str()})
)

type cacheBody struct {
	Model             string      `json:"model"`
	Contents          []Content   `json:"contents"`
	SystemInstruction *Content    `json:"systemInstruction"`
	Tools             []Tool      `json:"tools"`
	ToolConfig        *ToolConfig `json:"toolConfig"`
	DisplayName       string      `json:"displayName"`
	TTL               string      `json:"ttl"`
	ExpireTime        string      `json:"expireTime"`
}

// serveCaches serves cachedContents: create, get, list, patch, delete.
func serveCaches(x *provider.Exchange, t target) provider.Response {
	m := x.Request.Method
	switch {
	case t.Method != "":
	case t.Name == "" && m == http.MethodPost:
		return createCache(x)
	case t.Name == "" && m == http.MethodGet:
		return listCaches(x)
	case t.Name != "" && m == http.MethodGet:
		c, err := liveCache(x, t.Name)
		if err != nil {
			return provider.Response{Err: err}
		}
		return provider.Response{JSON: c.resource(), Model: c.Model}
	case t.Name != "" && m == http.MethodPatch:
		return updateCache(x, t.Name)
	case t.Name != "" && m == http.MethodDelete:
		c, err := liveCache(x, t.Name)
		if err != nil {
			return provider.Response{Err: err}
		}
		x.Runtime.Forget(cacheKey(c.ID))
		return provider.Response{JSON: struct{}{}, Model: c.Model}
	}
	return provider.Response{Err: routeNotFound(x)}
}

// cacheNotFound is the API's answer for a cache it does not have, or no
// longer has.
func cacheNotFound() *apierr.Error {
	return &apierr.Error{Kind: scenario.ErrorPermission, Status: http.StatusForbidden, Type: statusPermissionDenied,
		Message: "CachedContent not found (or permission denied)"}
}

// liveCache is the cache called name ("cachedContents/x" or x), unless it
// expired on the session's clock.
func liveCache(x *provider.Exchange, name string) (*cachedContent, *apierr.Error) {
	s, ok := x.Runtime.Lookup(cacheKey(strings.TrimPrefix(name, "cachedContents/")))
	c, isCache := s.(*cachedContent)
	if !ok || !isCache {
		return nil, cacheNotFound()
	}
	if !x.Runtime.Now().Before(c.Expires) {
		x.Runtime.Forget(cacheKey(c.ID))
		return nil, cacheNotFound()
	}
	return c, nil
}

// useCache is the cache a generate request names, for model: the API
// refuses a cache made for another model.
func useCache(x *provider.Exchange, name, model string) (*cachedContent, *apierr.Error) {
	c, err := liveCache(x, name)
	if err != nil {
		return nil, err
	}
	if c.Model != strings.TrimPrefix(model, "models/") {
		return nil, invalid("cachedContent", "Model used by GenerateContent request (models/%s) and CachedContent (models/%s) has to be the same.",
			strings.TrimPrefix(model, "models/"), c.Model)
	}
	return c, nil
}

func createCache(x *provider.Exchange) provider.Response {
	body, err := x.ReadBody()
	if err != nil {
		return provider.Response{Err: err}
	}
	var b cacheBody
	if err := decodeBody(x.Ctx, body, createCacheMessage, &b); err != nil {
		return provider.Response{Err: err}
	}
	model := strings.TrimPrefix(b.Model, "models/")
	if b.Model == "" {
		return provider.Response{Err: fieldError("CreateCachedContentRequest", "cached_content.model", "model is not specified")}
	}
	if !x.Serves(model) {
		return provider.Response{Err: ModelNotFound(model, x.Models(), len(x.Runtime.Settings().Models) > 0, "v1beta", methodCache), Model: model}
	}
	info, known := Lookup(model)
	if known && !info.Supports(methodCache) {
		return provider.Response{Err: ModelNotFound(model, x.Models(), false, "v1beta", methodCache), Model: model}
	}
	if err := validateContents("CreateCachedContentRequest", b.Contents, false); err != nil {
		return provider.Response{Err: err, Model: model}
	}
	now := x.Runtime.Now()
	expires, err := expiry(now, b.TTL, b.ExpireTime, now.Add(defaultTTL))
	if err != nil {
		return provider.Response{Err: err, Model: model}
	}
	c := &cachedContent{ID: x.Runtime.NewID("", 16), Model: model, DisplayName: b.DisplayName,
		Created: now, Updated: now, Expires: expires, System: b.SystemInstruction, Contents: b.Contents,
		Tools: b.Tools, ToolConfig: b.ToolConfig, bytes: int64(len(body)) + 256}
	counter := answer.Counter{Ctx: x.Ctx, Model: model}
	c.Tokens = cacheTokens(&counter, c)
	if counter.Err != nil {
		return provider.Response{Err: apierr.ClientClosed("The client left while the cache was counted."), Model: model}
	}
	if min := minCacheTokens(model); c.Tokens < min {
		return provider.Response{Err: invalid("", "Cached content is too small. total_token_count=%d, min_total_token_count=%d", c.Tokens, min), Model: model}
	}
	if !x.Runtime.Store(c) {
		return provider.Response{Err: &apierr.Error{Kind: scenario.ErrorRateLimit, Status: http.StatusTooManyRequests, Type: statusResourceExhausted,
			Message: "The cached content is larger than this session's history keeps (history.max_bytes)."}, Model: model}
	}
	return provider.Response{JSON: c.resource(), Model: model}
}

// minCacheTokens is the smallest explicit cache the API creates for a
// model: 1,024 tokens on 2.5 Flash, 4,096 on the others (the caching
// docs); a model outside the catalog gets the smaller.
func minCacheTokens(model string) int {
	if model == "gemini-2.5-flash" || model == "gemini-2.5-flash-lite" {
		return 1024
	}
	if info, ok := Lookup(model); ok && info.MinCacheTokens > 0 {
		return 4096
	}
	return 1024
}

// cacheTokens counts a cache as a prompt holding it counts it.
func cacheTokens(counter *answer.Counter, c *cachedContent) int {
	n := 0
	if c.System != nil {
		n += counter.Count(textOf(c.System)) + partOverhead
	}
	for i := range c.Tools {
		for _, d := range c.Tools[i].FunctionDeclarations {
			b, _ := json.Marshal(d)
			n += counter.Count(string(b)) + partOverhead
		}
	}
	for i := range c.Contents {
		n += counter.Count(contentText(&c.Contents[i])) + partOverhead
	}
	return n
}

// expiry is when a cache expires: after ttl ("300s"), at expireTime (RFC
// 3339), or at fallback when neither is given.
func expiry(now time.Time, ttl, expireTime string, fallback time.Time) (time.Time, *apierr.Error) {
	switch {
	case ttl != "" && expireTime != "":
		return time.Time{}, invalid("ttl", "Only one of ttl and expire_time can be set.")
	case ttl != "":
		secs, ok := strings.CutSuffix(ttl, "s")
		f, err := strconv.ParseFloat(secs, 64)
		if !ok || err != nil || f < 0 {
			return time.Time{}, invalid("ttl", "Invalid value at 'cached_content.ttl' (type.googleapis.com/google.protobuf.Duration), %q", ttl)
		}
		return now.Add(time.Duration(f * float64(time.Second))), nil
	case expireTime != "":
		t, err := time.Parse(time.RFC3339Nano, expireTime)
		if err != nil {
			return time.Time{}, invalid("expireTime", "Invalid value at 'cached_content.expire_time' (type.googleapis.com/google.protobuf.Timestamp), %q", expireTime)
		}
		return t, nil
	}
	return fallback, nil
}

func updateCache(x *provider.Exchange, name string) provider.Response {
	body, err := x.ReadBody()
	if err != nil {
		return provider.Response{Err: err}
	}
	var b cacheBody
	if err := decodeBody(x.Ctx, body, updateCacheMessage, &b); err != nil {
		return provider.Response{Err: err}
	}
	c, err := liveCache(x, name)
	if err != nil {
		return provider.Response{Err: err}
	}
	now := x.Runtime.Now()
	expires, err := expiry(now, b.TTL, b.ExpireTime, c.Expires)
	if err != nil {
		return provider.Response{Err: err, Model: c.Model}
	}
	updated := *c
	updated.Expires, updated.Updated = expires, now
	x.Runtime.Replace(&updated)
	return provider.Response{JSON: updated.resource(), Model: c.Model}
}

// cacheList is the list's page.
type cacheList struct {
	CachedContents []cacheResource `json:"cachedContents,omitempty"`
	NextPageToken  string          `json:"nextPageToken,omitempty"`
}

func listCaches(x *provider.Exchange) provider.Response {
	size, start, err := pageQuery(x.Request, 1000, 1000)
	if err != nil {
		return provider.Response{Err: err}
	}
	now := x.Runtime.Now()
	var live []*cachedContent
	for _, s := range x.Runtime.Records() {
		if c, ok := s.(*cachedContent); ok && now.Before(c.Expires) {
			live = append(live, c)
		}
	}
	var out cacheList
	for i := start; i < len(live) && i < start+size; i++ {
		out.CachedContents = append(out.CachedContents, live[i].resource())
	}
	if start+size < len(live) {
		out.NextPageToken = pageToken(start + size)
	}
	return provider.Response{JSON: out}
}

// systemText, messages and tools are what the cache adds to the
// normalized request of a generate request that uses it.
func (c *cachedContent) systemText() string {
	if c.System == nil {
		return ""
	}
	return textOf(c.System)
}

func (c *cachedContent) messages(model string) []scenario.Message {
	r := GenerateRequest{Contents: c.Contents}
	return r.Normalize(model, false).Messages
}

func (c *cachedContent) tools(model string) []scenario.Tool {
	r := GenerateRequest{Tools: c.Tools}
	return r.Normalize(model, false).Tools
}
