package admin_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/admin"
	"github.com/llmtestserver/llmtestserver/internal/jsonschema"
)

// spec is the OpenAPI description, decoded.
type spec struct {
	doc map[string]any
}

func loadSpec(t *testing.T) spec {
	t.Helper()
	var doc map[string]any
	require.NoError(t, json.Unmarshal(admin.OpenAPI(), &doc))
	return spec{doc}
}

// operations lists every documented path and method.
func (s spec) operations() []admin.Route {
	var out []admin.Route
	for path, item := range s.doc["paths"].(map[string]any) {
		for method := range item.(map[string]any) {
			out = append(out, admin.Route{Method: strings.ToUpper(method), Path: path})
		}
	}
	return out
}

// operation returns the documented operation of r, or nil.
func (s spec) operation(r admin.Route) map[string]any {
	item, _ := s.doc["paths"].(map[string]any)[r.Path].(map[string]any)
	op, _ := item[strings.ToLower(r.Method)].(map[string]any)
	return op
}

// deref follows a "#/..." reference of the description.
func (s spec) deref(v map[string]any) map[string]any {
	ref, ok := v["$ref"].(string)
	if !ok {
		return v
	}
	var cur any = s.doc
	for _, tok := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		cur = cur.(map[string]any)[tok]
	}
	return cur.(map[string]any)
}

// problems validates an answer of r against the description: its status
// is documented for r, and its body is what the status documents (the
// schema of its JSON content, or nothing).
func (s spec) problems(r admin.Route, status int, contentType string, body []byte) []string {
	op := s.operation(r)
	if op == nil {
		return []string{"the operation is not documented"}
	}
	resp, ok := op["responses"].(map[string]any)[strconv.Itoa(status)].(map[string]any)
	if !ok {
		return []string{"status " + strconv.Itoa(status) + " is not documented"}
	}
	resp = s.deref(resp)
	content, _ := resp["content"].(map[string]any)
	if content == nil {
		if len(body) > 0 {
			return []string{"a body where the status documents none"}
		}
		return nil
	}
	media, ok := content["application/json"].(map[string]any)
	if !ok || !strings.HasPrefix(contentType, "application/json") {
		return []string{"Content-Type " + contentType + ", want application/json"}
	}
	// The schema is checked inside a document that has the description's
	// components, where its references lead.
	schema, _ := json.Marshal(map[string]any{"allOf": []any{media["schema"]}, "components": s.doc["components"]})
	problems, err := jsonschema.Validate(schema, body)
	if err != nil {
		return []string{"the documented schema cannot be used: " + err.Error()}
	}
	return problems
}

// The description is OpenAPI 3.1, and documents every route the handler
// serves and nothing it does not.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	s := loadSpec(t)
	assert.Equal(t, "3.1.0", s.doc["openapi"])
	documented := s.operations()
	served := admin.Routes()
	for _, r := range served {
		assert.Contains(t, documented, r, "served but not documented")
	}
	for _, r := range documented {
		assert.Contains(t, served, r, "documented but not served")
	}
	// Every operation documents its errors in the envelope, and every
	// schema of the description compiles with its references.
	for _, r := range documented {
		op := s.operation(r)
		require.NotEmpty(t, op["operationId"], "%s %s", r.Method, r.Path)
		for status, resp := range op["responses"].(map[string]any) {
			resp := s.deref(resp.(map[string]any))
			if status[0] == '4' || status[0] == '5' {
				schema := resp["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
				assert.Equal(t, map[string]any{"$ref": "#/components/schemas/Error"}, schema, "%s %s %s", r.Method, r.Path, status)
			}
		}
	}
	for name := range s.doc["components"].(map[string]any)["schemas"].(map[string]any) {
		schema, _ := json.Marshal(map[string]any{"$ref": "#/components/schemas/" + name, "components": s.doc["components"]})
		_, err := jsonschema.Compile(schema)
		assert.NoError(t, err, name)
	}
}

// The check of answers against the description fails what it should: an
// undocumented status, a body off its schema, a body where none is
// documented.
func TestOpenAPICheckCanFail(t *testing.T) {
	s := loadSpec(t)
	clock := admin.Route{Method: http.MethodGet, Path: "/admin-api/clock"}
	assert.Empty(t, s.problems(clock, 200, "application/json", []byte(`{"now":"2030-01-01T00:00:00Z","fake":true}`)))
	assert.NotEmpty(t, s.problems(clock, 200, "application/json", []byte(`{"now":3,"fake":true}`)))
	assert.NotEmpty(t, s.problems(clock, 200, "application/json", []byte(`{"now":"x","fake":true,"extra":1}`)))
	assert.NotEmpty(t, s.problems(clock, 418, "application/json", []byte(`{}`)))
	assert.NotEmpty(t, s.problems(clock, 401, "application/json", []byte(`{"error":{"message":"m"}}`)))
	reset := admin.Route{Method: http.MethodPost, Path: "/admin-api/reset"}
	assert.NotEmpty(t, s.problems(reset, 204, "", []byte(`{}`)))
	assert.Empty(t, s.problems(reset, 204, "", nil))
}
