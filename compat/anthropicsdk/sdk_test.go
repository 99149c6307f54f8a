package anthropicsdk_test

// The blank import pins the SDK version the Messages API is verified
// against (see the wire notes) in this module's go.mod until the tests that
// use it arrive; without an import, go mod tidy would drop the requirement.
import _ "github.com/anthropics/anthropic-sdk-go/v2"
