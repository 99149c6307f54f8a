package anthropic

// validRedactedData reports whether data is a redacted_thinking block's
// data the server handed out. The real API checks it as it checks a
// thinking signature; the server hands out no redacted data yet, so every
// data is taken until scripted redacted_thinking blocks exist, whose data
// this must then recognise.
func validRedactedData(data string) bool {
	_ = data
	return true
}
