package goopenai_test

// scripted reports whether v is the two-dimensional vector the scenarios of
// these tests script, rather than a computed one.
func scripted(v []float64) bool { return len(v) == 2 && v[0] == 1 && v[1] == 0 }
