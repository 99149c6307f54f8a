package gemini

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// errReader is a body that breaks off.
type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

// rendered is an error as the client sees it: Resolve, as the core calls
// it, then the envelope, decoded.
func rendered(t *testing.T, e *apierr.Error) (int, rpcStatus) {
	t.Helper()
	status, body := Codec{}.RenderError(Codec{}.Resolve(e), 0)
	b, err := json.Marshal(body)
	require.NoError(t, err)
	var env struct {
		Error rpcStatus `json:"error"`
	}
	require.NoError(t, json.Unmarshal(b, &env))
	assert.Equal(t, status, env.Error.Code, "the body's code is the HTTP status")
	return status, env.Error
}

// detailOf is the detail of type typ, or nil.
func detailOf(st rpcStatus, typ string) detail {
	for _, d := range st.Details {
		if d["@type"] == typ {
			return d
		}
	}
	return nil
}

// A neutral error of any status a script or the core may use gets the
// canonical code genai's APIError reads as its status, and a message.
func TestResolveStatuses(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   string
	}{
		{400, statusInvalidArgument},
		{401, statusUnauthenticated},
		{403, statusPermissionDenied},
		{404, statusNotFound},
		{409, statusAlreadyExists},
		{429, statusResourceExhausted},
		{499, statusCancelled},
		{500, statusInternal},
		{503, statusUnavailable},
		{504, statusDeadlineExceeded},
		// Anthropic's overloaded status, which scenarios may script.
		{529, statusUnavailable},
	} {
		t.Run(http.StatusText(tc.status), func(t *testing.T) {
			code, st := rendered(t, &apierr.Error{Status: tc.status})
			assert.Equal(t, tc.status, code)
			assert.Equal(t, tc.want, st.Status)
			assert.NotEmpty(t, st.Message, "an error without a message gets its code's")
		})
	}
}

// A script may name the canonical code itself: it is the error's status,
// and its HTTP status follows unless the script chose one other than the
// default 500.
func TestResolveCanonicalCode(t *testing.T) {
	for _, tc := range []struct {
		in         apierr.Error
		wantStatus int
		want       string
	}{
		{apierr.Error{Code: "UNAVAILABLE", Status: 500}, 503, statusUnavailable},
		{apierr.Error{Code: "UNAVAILABLE"}, 503, statusUnavailable},
		{apierr.Error{Code: "NOT_FOUND"}, 404, statusNotFound},
		{apierr.Error{Code: "RESOURCE_EXHAUSTED", Status: 500}, 429, statusResourceExhausted},
		{apierr.Error{Code: "FAILED_PRECONDITION"}, 400, statusFailedPrecondition},
		// A status the script chose explicitly is kept.
		{apierr.Error{Code: "INTERNAL", Status: 502}, 502, statusInternal},
	} {
		t.Run(tc.in.Code, func(t *testing.T) {
			e := tc.in
			code, st := rendered(t, &e)
			assert.Equal(t, tc.wantStatus, code)
			assert.Equal(t, tc.want, st.Status)
			assert.Nil(t, detailOf(st, typeErrorInfo), "a canonical code is no ErrorInfo reason")
		})
	}
}

// A 429 with Retry-After carries RetryInfo, which genai's retry logic
// and users read; OpenAI's rate_limit_exceeded code, which the rate-limit
// scenario scripts, is no reason of the API's.
func TestResolveRetryInfo(t *testing.T) {
	e := (&apierr.Error{Status: 429, Code: "rate_limit_exceeded", Message: "Slow down."}).WithHeader("Retry-After", "7")
	code, st := rendered(t, e)
	assert.Equal(t, 429, code)
	assert.Equal(t, statusResourceExhausted, st.Status)
	assert.Equal(t, "Slow down.", st.Message)
	d := detailOf(st, typeRetryInfo)
	require.NotNil(t, d, "details %v", st.Details)
	assert.Equal(t, "7s", d["retryDelay"])
	assert.Nil(t, detailOf(st, typeErrorInfo))

	// Retry-After on another status is no RetryInfo.
	e = (&apierr.Error{Status: 503}).WithHeader("Retry-After", "7")
	_, st = rendered(t, e)
	assert.Nil(t, detailOf(st, typeRetryInfo))
}

// A body that broke off is answered as one that is not JSON, as the
// transcoder answers it.
func TestResolveBodyUnreadable(t *testing.T) {
	req := httptest.NewRequest(http.MethodPost, "/v1beta/models/m:generateContent", errReader{})
	_, e := provider.ReadBody(req, 1<<20)
	require.NotNil(t, e)
	code, st := rendered(t, e)
	assert.Equal(t, 400, code)
	assert.Equal(t, statusInvalidArgument, st.Status)
	assert.Contains(t, st.Message, "Invalid JSON payload received.")
}

// A request without a key is 403 PERMISSION_DENIED; one with a wrong key
// 400 INVALID_ARGUMENT with the ErrorInfo reason API_KEY_INVALID, which
// is how clients tell a bad key from a bad request.
func TestAuthError(t *testing.T) {
	code, st := rendered(t, Codec{}.AuthError(true, "/v1beta/models"))
	assert.Equal(t, 403, code)
	assert.Equal(t, statusPermissionDenied, st.Status)
	assert.Nil(t, detailOf(st, typeErrorInfo))

	code, st = rendered(t, Codec{}.AuthError(false, "/v1beta/models"))
	assert.Equal(t, 400, code)
	assert.Equal(t, statusInvalidArgument, st.Status)
	assert.Equal(t, "API key not valid. Please pass a valid API key.", st.Message)
	info := detailOf(st, typeErrorInfo)
	require.NotNil(t, info, "details %v", st.Details)
	assert.Equal(t, codeAPIKeyInvalid, info["reason"])
	assert.Equal(t, errorDomain, info["domain"])
	assert.NotNil(t, detailOf(st, typeLocalized))
}

// This server's own codes go out as ErrorInfo from its own domain, so a
// test can tell them from the API's.
func TestEnvelopeOwnCode(t *testing.T) {
	_, st := rendered(t, apierr.NoScenario("no scenario matched"))
	info := detailOf(st, typeErrorInfo)
	require.NotNil(t, info, "details %v", st.Details)
	assert.Equal(t, "llmtestserver", info["domain"])
}

// A field error names its field in a BadRequest detail.
func TestEnvelopeBadRequest(t *testing.T) {
	_, st := rendered(t, invalid("contents", "bad"))
	d := detailOf(st, typeBadRequest)
	require.NotNil(t, d, "details %v", st.Details)
	assert.Equal(t, []any{map[string]any{"field": "contents", "description": "bad"}}, d["fieldViolations"])
}

// The codec shares /v1 with OpenAI's and Anthropic's: it must claim what
// genai and curl users send, and nothing that looks like OpenAI's.
func TestClaims(t *testing.T) {
	for _, tc := range []struct {
		name, method, target string
		header               http.Header
		want                 bool
	}{
		{"api key header", "POST", "/v1/chat/completions", http.Header{"X-Goog-Api-Key": {"k"}}, true},
		{"api client header", "GET", "/v1/models", http.Header{"X-Goog-Api-Client": {"google-genai-sdk/1.0"}}, true},
		{"key query", "GET", "/v1/models?key=k", nil, true},
		{"bearer on v1beta", "POST", "/v1beta/models/m:generateContent", http.Header{"Authorization": {"Bearer k"}}, true},
		{"model method on v1", "POST", "/v1/models/gemini-2.5-flash:generateContent", nil, true},
		{"vertex", "POST", "/v1beta1/publishers/google/models/m:generateContent", nil, true},
		{"cached contents on v1", "GET", "/v1/cachedContents", nil, true},
		{"openai chat", "POST", "/v1/chat/completions", http.Header{"Authorization": {"Bearer sk-x"}}, false},
		{"openai models", "GET", "/v1/models", http.Header{"Authorization": {"Bearer sk-x"}}, false},
		{"openai model", "GET", "/v1/models/gpt-4o", http.Header{"Authorization": {"Bearer sk-x"}}, false},
		{"anthropic messages", "POST", "/v1/messages", http.Header{"X-Api-Key": {"k"}}, false},
		{"other query", "GET", "/v1/models?limit=3", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.target, nil)
			for k, vs := range tc.header {
				r.Header[k] = vs
			}
			assert.Equal(t, tc.want, Codec{}.Claims(r))
		})
	}
}

// The key comes from x-goog-api-key (genai), else ?key= (curl), else a
// bearer token.
func TestAPIKey(t *testing.T) {
	for _, tc := range []struct {
		name, target string
		header       http.Header
		want         string
		ok           bool
	}{
		{"header", "/v1beta/models", http.Header{"X-Goog-Api-Key": {"k1"}}, "k1", true},
		{"query", "/v1beta/models?key=k2", nil, "k2", true},
		{"bearer", "/v1beta/models", http.Header{"Authorization": {"Bearer k3 "}}, "k3", true},
		{"header first", "/v1beta/models?key=k2", http.Header{"X-Goog-Api-Key": {"k1"}, "Authorization": {"Bearer k3"}}, "k1", true},
		{"query before bearer", "/v1beta/models?key=k2", http.Header{"Authorization": {"Bearer k3"}}, "k2", true},
		{"empty query key is given", "/v1beta/models?key=", nil, "", true},
		{"none", "/v1beta/models", nil, "", false},
		{"basic auth is no key", "/v1beta/models", http.Header{"Authorization": {"Basic eDp5"}}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, tc.target, nil)
			for k, vs := range tc.header {
				r.Header[k] = vs
			}
			key, ok := Codec{}.APIKey(r)
			assert.Equal(t, tc.want, key)
			assert.Equal(t, tc.ok, ok)
		})
	}
}
