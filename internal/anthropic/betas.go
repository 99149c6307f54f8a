package anthropic

// sdkBetas are the anthropic-beta values anthropic-sdk-go names: every
// AnthropicBeta constant of v2.17.0 (beta.go), which a compat test keeps
// in step with the SDK; nodeOnlyBetas are the few the official SDKs send
// without a Go constant. The real API knows more (retired betas among
// them): a session that sends one relaxes the check
// (session.RelaxAPIHeaders).
var sdkBetas = map[string]bool{
	"computer-use-2024-10-22":                     true,
	"computer-use-2025-01-24":                     true,
	"output-128k-2025-02-19":                      true,
	"mcp-client-2025-04-04":                       true,
	"mcp-client-2025-11-20":                       true,
	"dev-full-thinking-2025-05-14":                true,
	"interleaved-thinking-2025-05-14":             true,
	"code-execution-2025-05-22":                   true,
	"context-1m-2025-08-07":                       true,
	"context-management-2025-06-27":               true,
	"model-context-window-exceeded-2025-08-26":    true,
	"fast-mode-2026-02-01":                        true,
	"output-300k-2026-03-24":                      true,
	"user-profiles-2026-03-24":                    true,
	"user-profiles-2026-08-18":                    true,
	"user-profiles-2026-09-04":                    true,
	"advisor-tool-2026-03-01":                     true,
	"managed-agents-2026-04-01":                   true,
	"dreaming-2026-04-21":                         true,
	"thinking-token-count-2026-05-13":             true,
	"server-side-fallback-2026-06-01":             true,
	"server-side-fallback-2026-07-01":             true,
	"fallback-credit-2026-06-01":                  true,
	"fallback-credit-2026-07-01":                  true,
	"agent-memory-2026-07-22":                     true,
	"mid-conversation-tool-changes-2026-07-01":    true,
	"compact-2026-01-12":                          true,
	"computer-use-2025-11-24":                     true,
	"mcp-tunnels-2026-06-22":                      true,
	"structured-outputs-2025-11-13":               true,
	"task-budgets-2026-03-13":                     true,
	"thinking-display-updates-2026-08-18":         true,
	"mid-conversation-output-config-2026-07-01":   true,
	"thinking-binding-controls-2026-08-01":        true,
	"mid-conversation-system-clear-at-2026-08-21": true,
	"compact-2026-09-04":                          true,
	"inline-tools-2026-09-15":                     true,
	"mcp-client-2026-09-15":                       true,
	"ce-plugins-2026-09-01":                       true,
	"spend-limit-reads-2026-09-26":                true,
	"telemetry-destinations-2026-08-11":           true,
	"webhooks-2026-10-07":                         true,
	"admin-user-sign-out-2026-10-08":              true,
	"message-threads-2026-08-12":                  true,
	"analytics-usage-cost-2026-08-24":             true,
	"experimental-claude-tag-2026-10-21":          true,
	"message-batches-2024-09-24":                  true,
	"prompt-caching-2024-07-31":                   true,
	"pdfs-2024-09-25":                             true,
	"token-counting-2024-11-01":                   true,
	"token-efficient-tools-2025-02-19":            true,
	"files-api-2025-04-14":                        true,
	"extended-cache-ttl-2025-04-11":               true,
	"skills-2025-10-02":                           true,
	"cache-diagnosis-2026-04-07":                  true,
	"ce-user-management-2026-07-13":               true,
	"ce-claude-code-managed-settings-2026-10-06":  true,
	"efs-2026-10-01":                              true,
	"google-managed-data-controls-2026-09-01":     true,
	"user-profiles-billing-2026-10-01":            true,
}

// nodeOnlyBetas are the values @anthropic-ai/sdk sends on its own that the
// Go SDK has no constant for: OAuth, OIDC federation, and structured
// outputs' first beta.
var nodeOnlyBetas = map[string]bool{"oauth-2025-04-20": true, "oidc-federation-2026-04-01": true, "structured-outputs-2025-12-15": true}

// knownBeta reports whether the server accepts b in anthropic-beta.
func knownBeta(b string) bool { return sdkBetas[b] || nodeOnlyBetas[b] }

// SDKBetas lists the anthropic-beta values anthropic-sdk-go names, for the
// test that checks them against the SDK's constants.
func SDKBetas() []string {
	out := make([]string, 0, len(sdkBetas))
	for b := range sdkBetas {
		out = append(out, b)
	}
	return out
}
