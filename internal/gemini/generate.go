package gemini

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// generateTurn is one generateContent, streamGenerateContent or
// countTokens on the core's pipeline (see answer.Turn).
type generateTurn struct {
	x    *provider.Exchange
	t    target
	req  *GenerateRequest
	norm *scenario.Request
	// info is the catalog's model, nil for one it does not know.
	info *ModelInfo
	// cache is the cached content the request names, if any.
	cache *cachedContent
	// counting says the turn only counts its prompt.
	counting bool
}

var _ answer.Turn = (*generateTurn)(nil)

// generateDecoder is the answer.Decoder of t's generate method.
func generateDecoder(t target, stream bool) answer.Decoder {
	return func(x *provider.Exchange, body []byte) (answer.Turn, *apierr.Error) {
		var req GenerateRequest
		if err := decodeBody(x.Ctx, body, generateRequestMessage, &req); err != nil {
			return nil, err
		}
		return newTurn(x, t, &req, stream, false)
	}
}

// countDecoder is the answer.Decoder of countTokens, whose body holds
// contents, or a whole generateContentRequest.
func countDecoder(t target) answer.Decoder {
	return func(x *provider.Exchange, body []byte) (answer.Turn, *apierr.Error) {
		var req struct {
			Contents               []Content        `json:"contents"`
			GenerateContentRequest *GenerateRequest `json:"generateContentRequest"`
		}
		if err := decodeBody(x.Ctx, body, countRequestMessage, &req); err != nil {
			return nil, err
		}
		g := req.GenerateContentRequest
		if g == nil {
			if err := validateContents("CountTokensRequest", req.Contents, false); err != nil {
				return nil, err
			}
			g = &GenerateRequest{Contents: req.Contents}
		} else if len(req.Contents) > 0 {
			// Inferred wording: the request takes one or the other.
			return nil, invalid("contents", "contents and generate_content_request cannot both be set.")
		} else if info, ok := Lookup(t.Name); ok {
			if err := validateGenerate(g, &info); err != nil {
				return nil, err
			}
		} else if err := validateGenerate(g, nil); err != nil {
			return nil, err
		}
		return newTurn(x, t, g, false, true)
	}
}

func newTurn(x *provider.Exchange, t target, req *GenerateRequest, stream, counting bool) (*generateTurn, *apierr.Error) {
	turn := &generateTurn{x: x, t: t, req: req, norm: req.Normalize(t.Name, stream), counting: counting}
	if info, ok := Lookup(t.Name); ok {
		turn.info = &info
	}
	if !counting {
		// A count's contents are checked by its decoder.
		if err := validateGenerate(req, turn.info); err != nil {
			return turn, err
		}
	}
	if req.CachedContent != "" {
		c, err := useCache(x, req.CachedContent, t.Name)
		if err != nil {
			return turn, err
		}
		turn.cache = c
		turn.norm.System = c.systemText()
		turn.norm.Messages = append(c.messages(t.Name), turn.norm.Messages...)
		turn.norm.Tools = append(c.tools(t.Name), turn.norm.Tools...)
	}
	return turn, nil
}

// Request implements answer.Turn.
func (t *generateTurn) Request() *scenario.Request { return t.norm }

// Ignored implements answer.Turn.
func (t *generateTurn) Ignored() []string { return nil }

// ModelNotFound implements answer.ModelRefuser: the API names the
// version and the method it was asked for.
func (t *generateTurn) ModelNotFound(model string, served []string, allowList bool) *apierr.Error {
	return ModelNotFound(model, offered(t.t, served), allowList, t.t.Version, t.method())
}

func (t *generateTurn) method() string {
	if t.t.Method == "streamGenerateContent" {
		return methodGenerate
	}
	return t.t.Method
}

// Rules refuses a model that does not support the method, as the API
// does: 404, as for an unknown model.
func (t *generateTurn) Rules() *apierr.Error {
	if t.info != nil && (!t.info.Supports(t.method()) || !servedOn(t.t, t.t.Name)) {
		return t.ModelNotFound(t.t.Name, t.x.Models(), len(t.x.Runtime.Settings().Models) > 0)
	}
	return nil
}

// partOverhead is the tokens each content counts beyond its text, the
// framing of a turn (the stand-in for Gemini's tokenizer, which genai
// downloads and so cannot run offline, is o200k_base).
const partOverhead = 1

// Prompt cuts the prompt into the segments the cache compares: an
// explicit cache's contents, the system instruction, the tools and the
// contents, each counted with the stand-in tokenizer. Implicit caching
// reports a repeated prefix from the model's minimum on; an explicit
// cache is read whole.
func (t *generateTurn) Prompt(ctx context.Context) (answer.Prompt, error) {
	c := answer.Counter{Ctx: ctx, Model: t.norm.Model}
	var p answer.Prompt
	add := func(key, text string) {
		p.Segments = append(p.Segments, runtime.PromptSegment{Text: key, Tokens: c.Count(text) + partOverhead})
	}
	cached := 0
	if t.cache != nil {
		cached = t.cache.Tokens
		p.Segments = append(p.Segments, runtime.PromptSegment{Text: "cachedContents/" + t.cache.ID, Tokens: cached})
	}
	if s := t.req.SystemInstruction; s != nil {
		add("system\x00"+textOf(s), textOf(s))
	}
	for i := range t.req.Tools {
		for _, d := range t.req.Tools[i].FunctionDeclarations {
			b, _ := json.Marshal(d)
			add("tool\x00"+string(b), string(b))
		}
	}
	for i := range t.req.Contents {
		ct := &t.req.Contents[i]
		text := contentText(ct)
		add(ct.Role+"\x00"+text, text)
	}
	if t.cache != nil {
		p.Cache = answer.Cache{Read: cached}
	} else if t.info != nil && t.info.MinCacheTokens > 0 {
		p.Cache = answer.Cache{Prefix: &runtime.PrefixRule{MinTokens: t.info.MinCacheTokens}}
	}
	if t.info != nil {
		// The input limit holds the prompt alone: the output has room
		// of its own, so the window the core checks the prompt and
		// maxOutputTokens against is both.
		p.Window = t.info.InputTokenLimit + max(t.norm.MaxOutputTokens, 0)
	}
	return p, c.Err
}

// contentText is what a content's parts count as: their texts, the
// calls' names and arguments and the responses.
func contentText(c *Content) string {
	// Sized first: the parts may hold megabytes, copied once.
	n := 0
	for i := range c.Parts {
		p := &c.Parts[i]
		switch {
		case p.Text != nil:
			n += len(*p.Text)
		case p.FunctionCall != nil:
			n += len(p.FunctionCall.Name) + len(p.FunctionCall.Args)
		case p.FunctionResponse != nil:
			n += len(p.FunctionResponse.Name) + len(p.FunctionResponse.Response)
		}
		n++
	}
	var b strings.Builder
	b.Grow(n)
	for i := range c.Parts {
		p := &c.Parts[i]
		switch {
		case p.Text != nil:
			b.WriteString(*p.Text)
		case p.FunctionCall != nil:
			b.WriteString(p.FunctionCall.Name)
			b.Write(p.FunctionCall.Args)
		case p.FunctionResponse != nil:
			b.WriteString(p.FunctionResponse.Name)
			b.Write(p.FunctionResponse.Response)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TooLong implements answer.Turn, in the API's words.
func (t *generateTurn) TooLong(n int) *apierr.Error {
	limit := 0
	if t.info != nil {
		limit = t.info.InputTokenLimit
	}
	return invalid("", "The input token count (%d) exceeds the maximum number of tokens allowed (%d).", n, limit)
}

// Spec shapes the response: its responseId, its calls' ids, its
// candidates. A model that does not think, or a request that turns
// thinking off (thinkingBudget 0), gets no thinking.
func (t *generateTurn) Spec(reply *scenario.Reply) answer.Spec {
	if !t.thinks() {
		reply.Thinking = ""
	}
	return answer.Spec{ID: t.x.Runtime.NewID("", 22), ToolCallPrefix: "", ToolCallIDLength: 8, Choices: t.candidates()}
}

func (t *generateTurn) thinks() bool {
	if t.info != nil && !t.info.Thinking {
		return false
	}
	if g := t.req.GenerationConfig; g != nil && g.ThinkingConfig != nil && g.ThinkingConfig.ThinkingBudget != nil {
		return *g.ThinkingConfig.ThinkingBudget != 0
	}
	return true
}

func (t *generateTurn) candidates() int {
	if g := t.req.GenerationConfig; g != nil && g.CandidateCount != nil {
		return *g.CandidateCount
	}
	return 1
}

// includeThoughts says whether the thoughts are shown.
func (t *generateTurn) includeThoughts() bool {
	g := t.req.GenerationConfig
	return g != nil && g.ThinkingConfig != nil && g.ThinkingConfig.IncludeThoughts
}

// Render renders a as the response, or its stream.
func (t *generateTurn) Render(a *provider.Answer, reply *scenario.Reply, s answer.Stream) answer.Rendered {
	r := &render{thoughts: t.includeThoughts(), candidates: t.candidates()}
	if a.Thinking != "" {
		r.signature = signature(a.Thinking)
	}
	if !t.norm.Stream {
		return answer.Rendered{JSON: r.NewResponse(a, reply)}
	}
	return answer.Rendered{SSE: r.newStream(a, reply, s.Split, max(s.TokensPerChunk, 1))}
}

// Delivered implements answer.Turn: the API stores nothing.
func (t *generateTurn) Delivered(*apierr.Error) func() { return nil }

// signature is a thinking's thoughtSignature: opaque, standard base64
// (genai refuses the URL alphabet), the same for the same thinking.
func signature(thinking string) string {
	sum := sha256.Sum256([]byte("llmtestserver gemini thinking\x00" + thinking))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// countResponse is countTokens' answer: the prompt's tokens exactly as
// generateContent counts them in promptTokenCount.
type countResponse struct {
	TotalTokens             int              `json:"totalTokens"`
	CachedContentTokenCount int              `json:"cachedContentTokenCount,omitempty"`
	PromptTokensDetails     []ModalityTokens `json:"promptTokensDetails,omitempty"`
}

func countBody(n int) any {
	return countResponse{TotalTokens: n, PromptTokensDetails: []ModalityTokens{{Modality: "TEXT", TokenCount: n}}}
}

var _ answer.CountRenderer = (*generateTurn)(nil)

// CountBody implements answer.CountRenderer: a count of a request that
// uses a cache reports the cache's tokens too.
func (t *generateTurn) CountBody(n int) any {
	body := countBody(n).(countResponse)
	if t.cache != nil {
		body.CachedContentTokenCount = t.cache.Tokens
	}
	return body
}
