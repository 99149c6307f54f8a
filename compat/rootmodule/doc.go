// Package rootmodule checks the root module's requirements from outside
// it: a user who adds llmtestserver gets only the modules the design names,
// and never the SDKs that the compat module tests against.
package rootmodule
