// Package sdkwarm makes openai-go's first requests of a test binary outside
// any testing/synctest bubble.
//
// openai-go (and anthropic-sdk-go) copy encoding/json's encoder cache,
// which keeps a sync.WaitGroup per type while the type's encoder is being
// built; a goroutine that meets the type meanwhile waits on it, and for a
// recursive type (a Responses file_search CompoundFilter) the wait stays in
// the cached encoder for good. Go 1.26 (seen on 1.26.8) dereferences a nil
// pointer when a WaitGroup first used inside a bubble is waited on outside
// it. So a package whose tests run SDK calls both inside bubbles and
// outside them can crash, depending on which test first encodes a type.
// Each such package's TestMain calls OpenAIGo before its tests, so every
// cache entry those tests use is built outside any bubble.
package sdkwarm
