package scenario

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// moduleRoot is the directory of this module's sources as the compiler
// recorded them (a full path, or the module path under -trimpath), with a
// trailing slash: the parent of this file's directory.
var moduleRoot = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.ToSlash(filepath.Dir(filepath.Dir(file))) + "/"
}()

// maxCallerDepth is how many frames callSite looks through: the builder's
// own and those of the module's helpers between the test and it.
const maxCallerDepth = 16

// callSite returns "file:line", the file's base name as go test prints it,
// of the first caller outside this module's non-test sources: the test
// line that called a Builder method, directly or through a helper of
// session or llmtest. It returns "" when no such frame is found.
//
// A fixed runtime.Caller skip would name the helper instead whenever a
// method is reached through another (Responds through Reply, a session
// helper through Responds); walking past every frame of the module's own
// code names the user's line however deep the chain is, as httpmock's
// call sites do.
func callSite() string {
	var pcs [maxCallerDepth]uintptr
	n := runtime.Callers(2, pcs[:]) // skip runtime.Callers and callSite
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		file := filepath.ToSlash(f.File)
		if file != "" && !(moduleRoot != "/" && strings.HasPrefix(file, moduleRoot) && !strings.HasSuffix(file, "_test.go")) {
			return filepath.Base(file) + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return ""
		}
	}
}
