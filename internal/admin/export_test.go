package admin

import "slices"

// OpenAPI returns the embedded description of the admin API that
// GET /admin-api/openapi.json serves, for this package's external tests.
// The slice is the caller's.
func OpenAPI() []byte { return slices.Clone(openAPIDoc) }
