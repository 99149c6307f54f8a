package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoRoot is the repository's root, from this package's directory.
const repoRoot = "../.."

// instruction is one instruction of a Dockerfile: its upper-cased keyword
// and the rest of its line, continuations joined.
type instruction struct {
	keyword string
	args    string
}

// stage is one FROM and the instructions under it.
type stage struct {
	image, name string
	body        []instruction
}

// parseDockerfile splits a Dockerfile into stages, joining the lines
// continued with a backslash and dropping comments.
func parseDockerfile(text string) ([]stage, error) {
	var stages []stage
	var pending string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if pending == "" && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if cont, ok := strings.CutSuffix(line, "\\"); ok {
			pending += cont + " "
			continue
		}
		line, pending = pending+line, ""
		keyword, args, _ := strings.Cut(line, " ")
		in := instruction{strings.ToUpper(keyword), strings.TrimSpace(args)}
		if in.keyword == "FROM" {
			f := strings.Fields(in.args)
			st := stage{image: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				st.name = f[2]
			}
			stages = append(stages, st)
			continue
		}
		if len(stages) == 0 {
			if in.keyword == "ARG" {
				continue // an ARG before the first FROM
			}
			return nil, fmt.Errorf("%s before the first FROM", in.keyword)
		}
		stages[len(stages)-1].body = append(stages[len(stages)-1].body, in)
	}
	return stages, sc.Err()
}

// execForm decodes an instruction's JSON array, or returns nil if it is in
// the shell form (which a scratch image cannot run).
func execForm(args string) []string {
	var argv []string
	if json.Unmarshal([]byte(args), &argv) != nil {
		return nil
	}
	return argv
}

// flagValue returns the value of -name (or --name) in argv.
func flagValue(argv []string, name string) (string, bool) {
	for i, a := range argv {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, true
		}
		if a == name && i+1 < len(argv) {
			return argv[i+1], true
		}
	}
	return "", false
}

var goDirective = regexp.MustCompile(`(?m)^go (\d+\.\d+)`)

// checkDockerfile returns what is wrong with the Dockerfile text: the
// build stage's Go must be go.mod's (goMod), the build static (CGO_ENABLED=0)
// with -trimpath and the version in -ldflags, the final image scratch or
// distroless static with a numeric user other than root, the entrypoint
// the binary built, its default address loopback, and every COPY source
// present (exists reports whether a path of the build context does).
func checkDockerfile(text, goMod string, exists func(string) bool) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	stages, err := parseDockerfile(text)
	if err != nil {
		return []string{err.Error()}
	}
	if len(stages) < 2 {
		return []string{fmt.Sprintf("%d stages, want a build stage and a final one", len(stages))}
	}
	m := goDirective.FindStringSubmatch(goMod)
	if m == nil {
		return []string{"go.mod has no go directive"}
	}
	wantGo := m[1]

	// The build stage: the one whose image is golang.
	var build *stage
	for i := range stages[:len(stages)-1] {
		if strings.HasPrefix(stages[i].image, "golang:") || strings.HasPrefix(stages[i].image, "docker.io/library/golang:") {
			build = &stages[i]
		}
	}
	var output string // what the build writes, from -o
	if build == nil {
		fail("no build stage FROM golang:<version>")
	} else {
		_, tag, _ := strings.Cut(build.image, "golang:")
		tag, _, _ = strings.Cut(tag, "@")
		version, _, _ := strings.Cut(tag, "-")
		if version != wantGo && !strings.HasPrefix(version, wantGo+".") {
			fail("build stage uses Go %q, go.mod says go %s", version, wantGo)
		}
		for _, in := range build.body {
			if in.keyword != "RUN" || !strings.Contains(in.args, "go build") {
				continue
			}
			if !regexp.MustCompile(`(^|\s)CGO_ENABLED=0\s`).MatchString(in.args) {
				fail("go build without CGO_ENABLED=0: %s", in.args)
			}
			if !strings.Contains(in.args, "-trimpath") {
				fail("go build without -trimpath")
			}
			if !strings.Contains(in.args, "-X main.version=") {
				fail("go build does not set the version with -ldflags -X main.version=")
			}
			if f := regexp.MustCompile(`\s-o\s+(\S+)`).FindStringSubmatch(in.args); f != nil {
				output = f[1]
			}
			if !strings.Contains(in.args, "./cmd/llmtestserver") {
				fail("go build does not build ./cmd/llmtestserver")
			}
		}
		if output == "" {
			fail("no RUN go build -o <binary> in the build stage")
		}
	}

	// Every COPY from the build context names something that exists.
	for _, st := range stages {
		for _, in := range st.body {
			if in.keyword != "COPY" && in.keyword != "ADD" {
				continue
			}
			f := strings.Fields(in.args)
			if len(f) > 0 && strings.HasPrefix(f[0], "--from=") {
				continue
			}
			var srcs []string
			for _, a := range f {
				if !strings.HasPrefix(a, "--") {
					srcs = append(srcs, a)
				}
			}
			if len(srcs) < 2 {
				fail("%s %s: want sources and a destination", in.keyword, in.args)
				continue
			}
			for _, src := range srcs[:len(srcs)-1] {
				if !exists(src) {
					fail("%s source %s does not exist", in.keyword, src)
				}
			}
		}
	}

	final := stages[len(stages)-1]
	if final.image != "scratch" && !strings.HasPrefix(final.image, "gcr.io/distroless/static") {
		fail("final stage is FROM %s, want scratch or gcr.io/distroless/static", final.image)
	}
	var user string
	var entrypoint, cmd []string
	var copied []string // what the final stage takes from the build stage, as destinations
	addrEnv := ""       // LLMTEST_ADDR set by ENV
	for _, in := range final.body {
		switch in.keyword {
		case "USER":
			user = in.args
		case "ENTRYPOINT":
			if entrypoint = execForm(in.args); entrypoint == nil {
				fail("ENTRYPOINT %s is not in exec form: scratch has no shell", in.args)
			}
		case "CMD":
			cmd = execForm(in.args)
		case "ENV":
			if v, ok := strings.CutPrefix(in.args, "LLMTEST_ADDR="); ok {
				addrEnv = v
			}
		case "COPY":
			f := strings.Fields(in.args)
			if len(f) == 3 && build != nil && (f[0] == "--from="+build.name) && f[1] == output {
				copied = append(copied, f[2])
			}
		case "HEALTHCHECK":
			if !strings.Contains(in.args, "CMD [") {
				fail("HEALTHCHECK is not in exec form: scratch has no shell")
			}
		}
	}
	uid, _, _ := strings.Cut(user, ":")
	if n, err := strconv.Atoi(uid); err != nil || n == 0 {
		fail("USER %q: want a numeric user other than 0", user)
	} else if _, gid, ok := strings.Cut(user, ":"); ok {
		if _, err := strconv.Atoi(gid); err != nil {
			fail("USER %q: want a numeric group", user)
		}
	}
	if len(entrypoint) == 0 {
		fail("no ENTRYPOINT")
	} else if !contains(copied, entrypoint[0]) {
		fail("ENTRYPOINT runs %s, which is not the binary built (%s copied to %v)", entrypoint[0], output, copied)
	}

	// The address the container listens on without arguments.
	argv := append(append([]string(nil), entrypoint...), cmd...)
	addr, fromArgs := flagValue(argv, "addr")
	switch {
	case fromArgs:
	case addrEnv != "":
		addr = addrEnv
	default:
		var s settings
		addr = newFlagSet(&s).Lookup("addr").DefValue
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
		fail("the container listens on %q by default, want loopback", addr)
	}
	return problems
}

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	require.NoError(t, err)
	return string(b)
}

func existsInRepo(path string) bool {
	_, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(path)))
	return err == nil
}

// The repository's Dockerfile builds a static binary with go.mod's Go and
// runs it from scratch as a non-root user on loopback. Docker is not
// needed: the file is parsed.
func TestDockerfile(t *testing.T) {
	t.Parallel()
	assert.Empty(t, checkDockerfile(readRepoFile(t, "Dockerfile"), readRepoFile(t, "go.mod"), existsInRepo))
	// What the build needs is not left out of the build context.
	ignored := strings.Fields(readRepoFile(t, ".dockerignore"))
	for _, need := range []string{"go.mod", "go.sum", "cmd", "internal", "session", "journal", "scenario", "clock"} {
		assert.NotContains(t, ignored, need)
	}
}

// Each property the check guards fails it when broken.
func TestDockerfileCheckFailsWhenBroken(t *testing.T) {
	t.Parallel()
	good := readRepoFile(t, "Dockerfile")
	goMod := readRepoFile(t, "go.mod")
	require.Empty(t, checkDockerfile(good, goMod, existsInRepo))
	replace := func(old, new string) string {
		t.Helper()
		require.Contains(t, good, old)
		return strings.Replace(good, old, new, 1)
	}
	for name, tc := range map[string]struct {
		dockerfile, goMod string
		want              string
	}{
		"older Go":               {replace("FROM golang:1.26 ", "FROM golang:1.25 "), goMod, "go.mod says"},
		"newer go.mod":           {good, strings.Replace(goMod, "go 1.26", "go 1.27", 1), "go.mod says"},
		"cgo":                    {replace("CGO_ENABLED=0", "CGO_ENABLED=1"), goMod, "CGO_ENABLED=0"},
		"no trimpath":            {replace("-trimpath ", ""), goMod, "-trimpath"},
		"no version":             {replace("-X main.version=${VERSION}", ""), goMod, "main.version"},
		"full base image":        {replace("FROM scratch", "FROM debian:bookworm"), goMod, "want scratch"},
		"root":                   {replace("USER 65532:65532", "USER 0"), goMod, "numeric user"},
		"named user":             {replace("USER 65532:65532", "USER nonroot"), goMod, "numeric user"},
		"no user":                {replace("USER 65532:65532", ""), goMod, "numeric user"},
		"shell entrypoint":       {replace(`ENTRYPOINT ["/llmtestserver"]`, "ENTRYPOINT /llmtestserver"), goMod, "exec form"},
		"other entrypoint":       {replace(`ENTRYPOINT ["/llmtestserver"]`, `ENTRYPOINT ["/bin/server"]`), goMod, "not the binary built"},
		"every interface":        {replace(`ENTRYPOINT ["/llmtestserver"]`, `ENTRYPOINT ["/llmtestserver", "-addr", "0.0.0.0:8080"]`), goMod, "want loopback"},
		"every interface by CMD": {replace(`ENTRYPOINT ["/llmtestserver"]`, `ENTRYPOINT ["/llmtestserver"]`+"\nCMD [\"-addr=:8080\"]"), goMod, "want loopback"},
		"every interface by ENV": {replace(`ENTRYPOINT ["/llmtestserver"]`, "ENV LLMTEST_ADDR=0.0.0.0:8080\n"+`ENTRYPOINT ["/llmtestserver"]`), goMod, "want loopback"},
		"missing COPY source":    {replace("COPY go.mod go.sum ./", "COPY go.mod go.sum go.work ./"), goMod, "go.work does not exist"},
		"shell health check":     {replace(`CMD ["/llmtestserver", "-health-check"`, `CMD /llmtestserver -health-check "http://127.0.0.1:8080/healthz"] #`), goMod, "HEALTHCHECK"},
	} {
		problems := checkDockerfile(tc.dockerfile, tc.goMod, existsInRepo)
		assert.NotEmpty(t, problems, name)
		assert.Contains(t, strings.Join(problems, "\n"), tc.want, name)
	}
}
