package jsonschema

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// checker holds one validation's findings.
type checker struct {
	problems []string
	visits   int
}

func (c *checker) fail(path, format string, args ...any) {
	c.problems = append(c.problems, display(path)+": "+fmt.Sprintf(format, args...))
}

// matches reports whether v matches n, without recording problems, and
// returns what they would have been.
func (c *checker) matches(n *node, v any, path string) []string {
	saved := c.problems
	c.problems = nil
	c.check(n, v, path)
	found := c.problems
	c.problems = saved
	return found
}

func (c *checker) check(n *node, v any, path string) {
	c.visits++
	if c.visits > maxVisits {
		return
	}
	if n.always != nil {
		if !*n.always {
			c.fail(path, "no value is allowed here")
		}
		return
	}
	if n.target != nil {
		c.check(n.target, v, path)
	}
	if len(n.types) > 0 && !hasType(n.types, v) {
		want := n.types[0]
		if len(n.types) > 1 {
			want = "one of " + strings.Join(n.types, ", ")
		}
		c.fail(path, "expected %s, got %s", want, kind(v))
		return
	}
	if n.hasEnum && !slices.ContainsFunc(n.enum, func(e any) bool { return equal(e, v) }) {
		c.fail(path, "%s is not one of %s", show(v), show(n.enum))
	}
	if n.hasConst && !equal(n.konst, v) {
		c.fail(path, "%s is not the constant %s", show(v), show(n.konst))
	}
	for _, m := range n.allOf {
		c.check(m, v, path)
	}
	if len(n.anyOf) > 0 {
		c.alternatives("anyOf", n.anyOf, v, path, false)
	}
	if len(n.oneOf) > 0 {
		c.alternatives("oneOf", n.oneOf, v, path, true)
	}
	if n.not != nil && len(c.matches(n.not, v, path)) == 0 {
		c.fail(path, "matches the schema under \"not\"")
	}
	switch x := v.(type) {
	case map[string]any:
		c.object(n, x, path)
	case []any:
		c.array(n, x, path)
	case string:
		c.str(n, x, path)
	case json.Number:
		c.num(n, x, path)
	}
}

func (c *checker) alternatives(keyword string, alts []*node, v any, path string, exactlyOne bool) {
	matched, best := 0, 0
	var closest []string
	for _, m := range alts {
		p := c.matches(m, v, path)
		if len(p) == 0 {
			matched++
			continue
		}
		// The closest alternative has the fewest problems, preferring one
		// whose type fits.
		score := 2 * len(p)
		if strings.HasPrefix(p[0], display(path)+": expected ") {
			score++
		}
		if closest == nil || score < best {
			closest, best = p, score
		}
	}
	switch {
	case matched == 0:
		c.fail(path, "matches none of the %d %s alternatives (closest: %s)", len(alts), keyword, strings.Join(closest, "; "))
	case exactlyOne && matched > 1:
		c.fail(path, "matches %d of the oneOf alternatives, not exactly one", matched)
	}
}

func (c *checker) object(n *node, obj map[string]any, path string) {
	for _, name := range n.required {
		if _, ok := obj[name]; !ok {
			c.fail(child(path, name), "required property is missing")
		}
	}
	for _, name := range sortedKeys(obj) {
		if p, ok := n.properties[name]; ok {
			c.check(p, obj[name], child(path, name))
			continue
		}
		if n.additional == nil {
			continue
		}
		if a := n.additional.always; a != nil && !*a {
			c.fail(child(path, name), "property is not allowed")
			continue
		}
		c.check(n.additional, obj[name], child(path, name))
	}
	if len(obj) < n.minProps {
		c.fail(path, "object has %d properties, fewer than %d", len(obj), n.minProps)
	}
	if n.maxProps >= 0 && len(obj) > n.maxProps {
		c.fail(path, "object has %d properties, more than %d", len(obj), n.maxProps)
	}
}

func (c *checker) array(n *node, arr []any, path string) {
	for i, e := range arr {
		switch {
		case i < len(n.prefixItems):
			c.check(n.prefixItems[i], e, index(path, i))
		case n.items != nil:
			c.check(n.items, e, index(path, i))
		}
	}
	if len(arr) < n.minItems {
		c.fail(path, "array has %d items, fewer than %d", len(arr), n.minItems)
	}
	if n.maxItems >= 0 && len(arr) > n.maxItems {
		c.fail(path, "array has %d items, more than %d", len(arr), n.maxItems)
	}
	if n.unique {
		for i := range arr {
			for j := i + 1; j < len(arr); j++ {
				if equal(arr[i], arr[j]) {
					c.fail(path, "items %d and %d are equal, but items must be unique", i, j)
					return
				}
			}
		}
	}
}

func (c *checker) str(n *node, s, path string) {
	length := utf8.RuneCountInString(s)
	if length < n.minLength {
		c.fail(path, "string has %d characters, fewer than %d", length, n.minLength)
	}
	if n.maxLength >= 0 && length > n.maxLength {
		c.fail(path, "string has %d characters, more than %d", length, n.maxLength)
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		c.fail(path, "%s does not match the pattern %s", show(s), show(n.pattern.String()))
	}
}

func (c *checker) num(n *node, x json.Number, path string) {
	f, err := x.Float64()
	if err != nil {
		c.fail(path, "%s is out of range", x)
		return
	}
	switch {
	case n.minimum != nil && f < *n.minimum:
		c.fail(path, "%s is less than the minimum %v", x, *n.minimum)
	case n.exclMin != nil && f <= *n.exclMin:
		c.fail(path, "%s is not greater than the exclusive minimum %v", x, *n.exclMin)
	}
	switch {
	case n.maximum != nil && f > *n.maximum:
		c.fail(path, "%s is greater than the maximum %v", x, *n.maximum)
	case n.exclMax != nil && f >= *n.exclMax:
		c.fail(path, "%s is not less than the exclusive maximum %v", x, *n.exclMax)
	}
	if m := n.multipleOf; m != nil {
		q := f / *m
		if math.IsInf(q, 0) || math.Abs(q-math.Round(q)) > 1e-9*math.Max(1, math.Abs(q)) {
			c.fail(path, "%s is not a multiple of %v", x, *m)
		}
	}
}

// equal compares decoded JSON values, numbers by value.
func equal(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		fx, errx := x.Float64()
		fy, erry := y.Float64()
		return errx == nil && erry == nil && fx == fy
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, equal)
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

// show renders a value for a message.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const limit = 80
	if len(b) > limit {
		return string(b[:limit]) + "…"
	}
	return string(b)
}
