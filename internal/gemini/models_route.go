package gemini

import (
	"net/http"
	"strconv"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// modelResource is a Model as the models API returns it.
type modelResource struct {
	Name                       string   `json:"name"`
	Version                    string   `json:"version,omitempty"`
	DisplayName                string   `json:"displayName,omitempty"`
	Description                string   `json:"description,omitempty"`
	InputTokenLimit            int      `json:"inputTokenLimit,omitempty"`
	OutputTokenLimit           int      `json:"outputTokenLimit,omitempty"`
	SupportedGenerationMethods []string `json:"supportedGenerationMethods"`
	Temperature                float64  `json:"temperature,omitempty"`
	TopP                       float64  `json:"topP,omitempty"`
	TopK                       int      `json:"topK,omitempty"`
	MaxTemperature             float64  `json:"maxTemperature,omitempty"`
	Thinking                   bool     `json:"thinking,omitempty"`
}

// modelObject describes id: the catalog's model, or, for a model a
// session's allow-list names that the catalog lacks, what the name says.
func modelObject(id string) modelResource {
	info, ok := Lookup(id)
	if !ok {
		return modelResource{Name: "models/" + id, DisplayName: id, SupportedGenerationMethods: generative}
	}
	m := modelResource{Name: "models/" + info.ID, Version: info.Version, DisplayName: info.DisplayName,
		Description: info.Description, InputTokenLimit: info.InputTokenLimit, OutputTokenLimit: info.OutputTokenLimit,
		SupportedGenerationMethods: info.Methods, Thinking: info.Thinking}
	if info.Supports(methodGenerate) {
		// The sampling defaults the API lists for its 2.5 and later models.
		m.Temperature, m.TopP, m.TopK, m.MaxTemperature = 1, 0.95, 64, 2
	}
	return m
}

// modelList is a page of the models API.
type modelList struct {
	Models        []modelResource `json:"models"`
	NextPageToken string          `json:"nextPageToken,omitempty"`
}

// serveModelList serves GET models: the models the session serves, paged
// by pageSize (50 by default, at most 1000) and pageToken; v1 lists no
// model it does not serve.
func serveModelList(x *provider.Exchange, t target) provider.Response {
	size, start, err := pageQuery(x.Request, 50, 1000)
	if err != nil {
		return provider.Response{Err: err}
	}
	ids := offered(t, x.Models())
	out := modelList{Models: []modelResource{}}
	for i := start; i < len(ids) && i < start+size; i++ {
		out.Models = append(out.Models, modelObject(ids[i]))
	}
	if start+size < len(ids) {
		out.NextPageToken = pageToken(start + size)
	}
	return provider.Response{JSON: out}
}

// serveModel serves GET models/{id}.
func serveModel(x *provider.Exchange, t target) provider.Response {
	if !x.Serves(t.Name) || !servedOn(t, t.Name) {
		return provider.Response{Err: ModelNotFound(t.Name, offered(t, x.Models()), len(x.Runtime.Settings().Models) > 0, t.Version, "get"), Model: t.Name}
	}
	return provider.Response{JSON: modelObject(t.Name), Model: t.Name}
}

// pageQuery reads pageSize (def when absent or 0, capped at most, as the
// API caps it) and pageToken, this server's own: the offset of the page.
func pageQuery(r *http.Request, def, most int) (size, start int, _ *apierr.Error) {
	q := r.URL.Query()
	size = def
	if s := q.Get("pageSize"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, 0, invalid("pageSize", "Invalid value at 'page_size' (TYPE_INT32), %q", s)
		}
		if n > 0 {
			size = min(n, most)
		}
	}
	if tok := q.Get("pageToken"); tok != "" {
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 {
			return 0, 0, invalid("pageToken", "Invalid page token.")
		}
		start = n
	}
	return size, start, nil
}

func pageToken(offset int) string { return strconv.Itoa(offset) }
