package llmtest_test

// The agent tests run one tool-calling loop, written once over an SDK-neutral
// conversation, through openai-go and go-openai, streamed and not.
