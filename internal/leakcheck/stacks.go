package leakcheck

import (
	"runtime"
	"strconv"
	"strings"
)

// goroutine is one goroutine of a runtime.Stack dump.
type goroutine struct {
	id uint64
	// top is the function the goroutine is in; creator is the function that
	// started it, empty for the main goroutine.
	top, creator string
	// stack is the goroutine's whole entry, for the failure message.
	stack string
}

// Stacks returns the stacks of every goroutine, as runtime.Stack writes
// them, however long they are.
func Stacks() string { return dump(true) }

// dump returns the stacks of all goroutines (all) or of the calling one.
func dump(all bool) string {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, all)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// parse splits a runtime.Stack dump into its goroutines. An entry starts
// with "goroutine N [state]:", then function and file lines in pairs, and
// may end with "created by F in goroutine M".
func parse(text string) []goroutine {
	var gs []goroutine
	for entry := range strings.SplitSeq(strings.TrimSpace(text), "\n\n") {
		lines := strings.Split(entry, "\n")
		head, ok := strings.CutPrefix(lines[0], "goroutine ")
		if !ok {
			continue
		}
		idText, _, _ := strings.Cut(head, " ")
		id, err := strconv.ParseUint(idText, 10, 64)
		if err != nil {
			continue
		}
		g := goroutine{id: id, stack: entry}
		if len(lines) > 1 {
			g.top = funcName(lines[1])
		}
		for _, l := range lines[1:] {
			if c, ok := strings.CutPrefix(l, "created by "); ok {
				c, _, _ = strings.Cut(c, " in goroutine ")
				g.creator = c
			}
		}
		gs = append(gs, g)
	}
	return gs
}

// funcName strips the arguments from a stack line: "pkg.(*T).m(0x1, ...)"
// is "pkg.(*T).m".
func funcName(line string) string {
	if i := strings.LastIndex(line, "("); i > 0 && strings.HasSuffix(line, ")") {
		return line[:i]
	}
	return line
}

// currentID is the ID of the calling goroutine.
func currentID() uint64 {
	gs := parse(dump(false))
	if len(gs) == 0 {
		return 0
	}
	return gs[0].id
}
