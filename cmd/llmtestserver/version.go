package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is the command's version, set at build time:
//
//	go build -ldflags "-X main.version=v1.2.3" ./cmd/llmtestserver
//
// Empty, it comes from the build information (see versionOf).
var version = ""

// printVersion writes the command's version and the Go version that built
// it, on one line.
func printVersion(w io.Writer) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	fmt.Fprintf(w, "llmtestserver %s %s %s/%s\n", versionOf(version, info), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// versionOf returns set when it is not empty; else the module version of
// info, which go install gives a tagged version; else the VCS revision
// go build stamps in a clone ("-dirty" after it when the tree had changes);
// else "(devel)". info may be nil.
func versionOf(set string, info *debug.BuildInfo) string {
	if set != "" {
		return set
	}
	if info == nil {
		return "(devel)"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision == "" {
		return "(devel)"
	}
	if modified == "true" {
		revision += "-dirty"
	}
	return revision
}
