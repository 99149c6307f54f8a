// Package layering_test checks the dependency rule of the repository (see
// ARCHITECTURE.md): the neutral packages import no codec, the core knows
// no provider, no codec imports another, and testing is linked only into
// tests.
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
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/llmtestserver/llmtestserver"

// codecs are the packages that speak one provider's wire format.
var codecs = []string{"internal/openai", "internal/anthropic", "internal/gemini"}

// neutral are the packages that must not reach a codec, even through
// another package.
var neutral = []string{"scenario", "journal", "clock", "internal/runtime", "internal/apierr", "internal/provider",
	"internal/answer", "internal/httpx", "internal/admin", "internal/tokens", "internal/jsonschema", "internal/dashboard"}

// leaves lists what may import nothing of this module but the packages
// of leafImports.
var leaves = []string{"scenario", "journal", "clock", "internal/memhttp", "internal/dashboard", "internal/friend", "internal/plainjson"}

// leafImports are what a leaf may import: internal/friend, through which
// scenario and journal hand their builders and writers to the module
// alone, and internal/plainjson, which writes their JSON as the server
// writes all of it; both import nothing themselves.
var leafImports = map[string][]string{"scenario": {"internal/friend", "internal/plainjson"}, "journal": {"internal/friend", "internal/plainjson"}}

// testingImporters are the packages whose non-test files may import the
// standard library's testing: the helpers that only test files import
// (the leak check, and internal/e2e, the helpers the end-to-end tests
// share). llmtest takes a small interface of its own instead, so that a
// program built on it (cmd/llmtestserver) does not link testing.
var testingImporters = []string{"internal/leakcheck", "internal/e2e"}

// testOnly are the packages that only test files may import. internal/e2e
// imports llmtest, and so reaches every codec: it is no neutral package,
// and this list keeps it out of every program.
var testOnly = []string{"internal/leakcheck", "internal/sdkwarm", "internal/e2e"}

// graph maps each package of the module (its path under the module) to
// the packages of the module its non-test files import; the standard
// library's testing counts as the package "testing".
type graph map[string][]string

// loadGraph parses the imports of every package under root.
func loadGraph(t *testing.T, root string) graph {
	t.Helper()
	g := graph{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" ||
				fileExists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir // another module, or not Go
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if _, ok := g[pkg]; !ok {
			g[pkg] = nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			dep, ok := strings.CutPrefix(p, module+"/")
			if p == "testing" || strings.HasPrefix(p, "testing/") {
				dep, ok = "testing", true
			}
			if ok && !slices.Contains(g[pkg], dep) {
				g[pkg] = append(g[pkg], dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// reach returns every package pkg imports, directly or not, each with the
// shortest path through which it does.
func (g graph) reach(pkg string) map[string][]string {
	paths := map[string][]string{}
	queue := [][]string{{pkg}}
	for len(queue) > 0 {
		via := queue[0]
		queue = queue[1:]
		for _, dep := range g[via[len(via)-1]] {
			if _, seen := paths[dep]; seen || dep == pkg {
				continue
			}
			route := append(slices.Clone(via), dep)
			paths[dep] = route
			queue = append(queue, route)
		}
	}
	return paths
}

// violations lists every break of the dependency rule in g.
func (g graph) violations() []string {
	var out []string
	for _, pkg := range neutral {
		for dep, via := range g.reach(pkg) {
			if slices.Contains(codecs, dep) {
				out = append(out, pkg+" reaches the codec "+dep+" through "+strings.Join(via, " -> "))
			}
		}
	}
	for _, pkg := range leaves {
		for _, dep := range g[pkg] {
			if dep != "testing" && !slices.Contains(leafImports[pkg], dep) {
				out = append(out, pkg+" imports "+dep+"; it may import nothing of this module")
			}
		}
	}
	for pkg, deps := range g {
		for _, dep := range deps {
			switch {
			case dep == "testing" && !slices.Contains(testingImporters, pkg):
				out = append(out, pkg+" imports testing; only test files and "+strings.Join(testingImporters, ", ")+" may")
			case slices.Contains(testOnly, dep) && !slices.Contains(testOnly, pkg):
				out = append(out, pkg+" imports "+dep+", which only tests may import")
			}
		}
	}
	for _, c := range codecs {
		for dep, via := range g.reach(c) {
			if slices.Contains(codecs, dep) && dep != c {
				out = append(out, "the codec "+c+" reaches the codec "+dep+" through "+strings.Join(via, " -> "))
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestDependencyRule(t *testing.T) {
	g := loadGraph(t, filepath.Join("..", ".."))
	for _, pkg := range slices.Concat(neutral, codecs, testingImporters, testOnly) {
		if _, ok := g[pkg]; !ok {
			t.Errorf("package %s not found: update the lists of this test", pkg)
		}
	}
	for _, v := range g.violations() {
		t.Error(v)
	}
}

// The rule's checker finds each kind of break, so that TestDependencyRule
// cannot pass by checking nothing.
func TestDependencyRuleCatchesBreaks(t *testing.T) {
	broken := graph{
		"internal/runtime":   {"internal/tokens"},
		"internal/tokens":    {"internal/openai"},
		"journal":            {"scenario"},
		"internal/anthropic": {"internal/answer", "internal/openai"},
		"internal/openai":    {"internal/answer"},
		"internal/answer":    {"internal/runtime"},
		"scenario":           {"internal/friend"},
		"session":            {"testing", "internal/leakcheck"},
		"cmd/llmtestserver":  {"internal/e2e"},
	}
	got := broken.violations()
	want := []string{
		"internal/answer reaches the codec internal/openai through internal/answer -> internal/runtime -> internal/tokens -> internal/openai",
		"internal/runtime reaches the codec internal/openai through internal/runtime -> internal/tokens -> internal/openai",
		"internal/tokens reaches the codec internal/openai through internal/tokens -> internal/openai",
		"journal imports scenario; it may import nothing of this module",
		"the codec internal/anthropic reaches the codec internal/openai through internal/anthropic -> internal/openai",
		"session imports testing; only test files and internal/leakcheck, internal/e2e may",
		"session imports internal/leakcheck, which only tests may import",
		"cmd/llmtestserver imports internal/e2e, which only tests may import",
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing violation %q in %q", w, got)
		}
	}
	for _, v := range got {
		if strings.HasPrefix(v, "scenario ") {
			t.Errorf("scenario may import internal/friend, but the checker says %q", v)
		}
	}
}

// The core fills every journal entry from what the codecs return: no codec
// reaches the entry of a request in progress (provider.Exchange.Entry),
// so that which package writes which journal field has one answer.
func TestCodecsLeaveTheJournalEntryToTheCore(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, c := range codecs {
		dir := filepath.Join(root, filepath.FromSlash(c))
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, use := range entryUses(t, path, src) {
				t.Errorf("%s reaches the journal entry (%s): return what the journal needs to the core instead", use, c)
			}
		}
	}
}

// entryUses lists where a Go source selects a field or method named Entry,
// as file:line.
func entryUses(t *testing.T, path string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Entry" {
			p := fset.Position(sel.Pos())
			out = append(out, fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line))
		}
		return true
	})
	return out
}

// entryUses finds a codec's write to the entry, so that the check above
// cannot pass by finding nothing.
func TestEntryUsesFindsAWrite(t *testing.T) {
	src := "package c\n\nfunc serve(x *provider.Exchange) {\n\tx.Entry.Model = \"m\"\n}\n"
	if got := entryUses(t, "codec.go", []byte(src)); !slices.Equal(got, []string{"codec.go:4"}) {
		t.Errorf("entryUses = %q, want the write on line 4", got)
	}
}
