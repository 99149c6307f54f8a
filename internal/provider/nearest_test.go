package provider

import (
	"strings"
	"testing"
)

// A hostile model name is compared by its first maxCompared bytes only:
// what follows them, however close to a served name, changes nothing.
func TestNearestComparesAPrefix(t *testing.T) {
	names := []string{"gpt-4.1-mini", "o3", "gemini-2.5-flash"}
	s := "o3" + strings.Repeat(" ", maxCompared-2) + strings.Repeat("gpt-4.1-mini", 1000)
	if got := Nearest(s, names, 1); len(got) != 1 || got[0] != "o3" {
		t.Errorf("Nearest = %q, want the nearest to the name's first %d bytes, o3", got, maxCompared)
	}
}

// The nearest names come first, ties in the order given.
func TestNearestOrder(t *testing.T) {
	got := Nearest("gemini-2.5-flsh", []string{"gpt-4o", "gemini-2.5-pro", "gemini-2.5-flash"}, 2)
	if strings.Join(got, ",") != "gemini-2.5-flash,gemini-2.5-pro" {
		t.Errorf("Nearest = %q", got)
	}
}
