package provider

import "slices"

// maxCompared is the longest prefix of a model name Nearest compares:
// model IDs are far shorter, and the distance costs the product of the
// lengths, so a hostile megabyte of name costs no more than a typo.
const maxCompared = 128

// Nearest returns the n names of names nearest to s by edit distance,
// nearest first, ties in the order of names.
func Nearest(s string, names []string, n int) []string {
	s = s[:min(len(s), maxCompared)]
	out := slices.Clone(names)
	dist := make(map[string]int, len(out))
	for _, name := range out {
		dist[name] = editDistance(s, name)
	}
	slices.SortStableFunc(out, func(a, b string) int { return dist[a] - dist[b] })
	return out[:min(n, len(out))]
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			diag, row[j] = row[j], min(row[j]+1, row[j-1]+1, diag+cost)
		}
	}
	return row[len(b)]
}
