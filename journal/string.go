package journal

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxShownRunes is the most runes String shows of one text or name, its
// ellipsis included, so that one entry stays one readable line.
const maxShownRunes = 80

// String renders e on one line, as transcripts and failed assertions show
// it:
//
//	#3 POST /v1/chat/completions -> 200 model=gpt-4.1-mini conversation=conv_…/1 turn=2 user="And then?" scenario=plan reply="step two"
//
// It shows what a test can rely on and nothing else: no time, duration or
// response ID, so the line is the same on every run of a test (the
// conversation of a Responses API chain is a generated ID, the same on
// every run when the session has an ID seed). Each text
// or name is cut at 80 runes, the cut marked with "…"; texts are quoted,
// and names are quoted when they hold a space, a quote or a control
// character. Fields that are empty are left out.
//
// Testify's require.Len and assert.Len print a slice of entries with %v,
// so a failed length check shows these lines, one after the other in
// brackets (quoted: the quotes of texts show as \"). assert.Equal prints
// %#v, which is GoString, and a diff of every field; compare entries
// WithoutTimes, so that the diff shows only what differs.
func (e Entry) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s %s -> %d", e.Seq, shownName(e.Method), shownName(e.Path), e.Status)
	if e.Model != "" {
		b.WriteString(" model=" + shownName(e.Model))
	}
	if e.Conversation != "" {
		fmt.Fprintf(&b, " conversation=%s/%d turn=%d", shownName(e.Conversation), e.Generation, e.Turn)
	}
	if e.Job != "" {
		b.WriteString(" job=" + shownName(e.Job))
		if e.CustomID != "" {
			b.WriteString(" custom_id=" + shownName(e.CustomID))
		}
		if e.JobState != "" {
			b.WriteString(" state=" + shownName(e.JobState))
		}
	}
	if e.UserText != "" {
		b.WriteString(" user=" + shownText(e.UserText))
	}
	if e.Scenario != "" {
		b.WriteString(" scenario=" + shownName(e.Scenario))
	}
	for _, c := range e.ToolCalls {
		b.WriteString(" call=" + shownName(c.Name) + "(" + escaped(shorten(c.Arguments)) + ")")
	}
	if e.ReplyText != "" {
		b.WriteString(" reply=" + shownText(e.ReplyText))
	}
	if e.Refusal != "" {
		b.WriteString(" refusal=" + shownText(e.Refusal))
	}
	if e.ErrorCode != "" {
		b.WriteString(" error=" + shownName(e.ErrorCode))
	}
	if e.Fault != "" {
		b.WriteString(" fault=" + shownName(e.Fault))
	}
	if e.Replay {
		b.WriteString(" replay")
	}
	for _, c := range e.Contradictions {
		b.WriteString(" contradiction=" + shownText(c))
	}
	return b.String()
}

// shownText is a text as String shows it: shortened and quoted.
func shownText(s string) string { return strconv.Quote(shorten(s)) }

// shownName is a name as String shows it: shortened, and quoted only when
// it would not read as one word.
func shownName(s string) string {
	s = shorten(s)
	if strings.IndexFunc(s, func(r rune) bool { return r == '"' || unicode.IsSpace(r) || !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

// shorten returns s, or its first maxShownRunes-1 runes and "…" when it is
// longer than maxShownRunes runes.
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= maxShownRunes {
		return s
	}
	cut, n := 0, 0
	for i := range s {
		if n == maxShownRunes-1 {
			cut = i
			break
		}
		n++
	}
	return s[:cut] + "…"
}

// escaped writes the control characters of s as Go escapes, so that a
// text shown unquoted (a tool call's JSON arguments) stays on one line.
func escaped(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
