package layering_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// openaiFamily names the API family of each file of internal/openai by
// its name; the files of none are shared (see the package's doc.go).
func openaiFamily(file string) string {
	for _, f := range []struct{ family, prefixes string }{
		{"chat", "chat_ codec_chat"},
		{"responses", "responses_ codec_responses codec_conversations conversations"},
		{"embeddings", "embeddings codec_embeddings"},
	} {
		for p := range strings.FieldsSeq(f.prefixes) {
			if strings.HasPrefix(file, p) {
				return f.family
			}
		}
	}
	return ""
}

// routeTable is the one shared file that reaches into every family: it
// lists their routes.
const routeTable = "codec.go"

// The files of internal/openai keep their families apart: a family's
// files use its own package-level names and the shared files' ones, never
// another family's, and the shared files use no family's (the route table
// aside), so that each API can be read, and split off, on its own.
func TestOpenAIFamiliesStayApart(t *testing.T) {
	files := map[string][]byte{}
	dir := filepath.Join("..", "openai")
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = src
	}
	if len(files) == 0 {
		t.Fatal("no files in internal/openai: update this test")
	}
	for _, v := range familyViolations(t, files) {
		t.Error(v)
	}
}

// familyViolations lists the uses across families among files (by name).
func familyViolations(t *testing.T, files map[string][]byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	parsed := map[string]*ast.File{}
	defs := map[string]string{} // package-level name -> file
	for name, src := range files {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = f
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					defs[d.Name.Name] = name
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						defs[s.Name.Name] = name
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.Name != "_" {
								defs[n.Name] = name
							}
						}
					}
				}
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	for name, f := range parsed {
		from := openaiFamily(name)
		for _, id := range packageUses(f) {
			def, ok := defs[id]
			if !ok || def == name {
				continue
			}
			to := openaiFamily(def)
			var v string
			switch {
			case to == "" || to == from:
			case from == "" && name != routeTable:
				v = fmt.Sprintf("the shared %s uses %s of the %s family (%s)", name, id, to, def)
			case from != "":
				v = fmt.Sprintf("%s of the %s family uses %s of the %s family (%s)", name, from, id, to, def)
			}
			if v != "" && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	sort.Strings(out)
	return out
}

// packageUses lists the identifiers of f that its own scopes do not
// resolve: the uses of other files' package-level names (and of
// predeclared ones), not field or method selections, struct keys or
// labels.
func packageUses(f *ast.File) []string {
	skip := map[*ast.Ident]bool{}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			skip[n.Sel] = true
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok && id.Obj == nil {
				skip[id] = true // a struct literal's field name
			}
		case *ast.BranchStmt:
			if n.Label != nil {
				skip[n.Label] = true
			}
		case *ast.LabeledStmt:
			skip[n.Label] = true
		case *ast.Ident:
			if !skip[n] && n.Obj == nil && !slices.Contains(out, n.Name) {
				out = append(out, n.Name)
			}
		}
		return true
	})
	return out
}

// The check finds a family reaching into another, and a shared file into
// a family, so that TestOpenAIFamiliesStayApart cannot pass by finding
// nothing.
func TestFamilyViolationsCatchBreaks(t *testing.T) {
	files := map[string][]byte{
		"chat_x.go":      []byte("package p\n\nfunc chatHelper() {}\n\nfunc chatServe() { respHelper(); sharedHelper() }\n"),
		"responses_x.go": []byte("package p\n\nfunc respHelper() {}\n\nfunc respServe() { v := 1; _ = v; sharedHelper() }\n"),
		"shared.go":      []byte("package p\n\nfunc sharedHelper() { chatHelper() }\n"),
		"codec.go":       []byte("package p\n\nvar routes = []func(){chatServe, respServe}\n"),
	}
	got := familyViolations(t, files)
	want := []string{
		"chat_x.go of the chat family uses respHelper of the responses family (responses_x.go)",
		"the shared shared.go uses chatHelper of the chat family (chat_x.go)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations = %q, want %q", got, want)
	}
}
