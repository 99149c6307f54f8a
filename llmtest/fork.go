package llmtest

import (
	"fmt"

	"github.com/llmtestserver/llmtestserver/session"
)

// Fork admits a copy of parent for the test t, which t.Cleanup closes, as
// NewSession admits a session: build a base session once, with its
// scenarios and whatever set-up requests it needs, and fork it in each
// parallel subtest, which then changes only its own copy:
//
//	base := srv.NewSession(t)
//	base.Chat("greeting").Responds("Hello").Then("Hello again")
//	for _, tc := range cases {
//		t.Run(tc.name, func(t *testing.T) {
//			t.Parallel()
//			sess := srv.Fork(t, base)
//			// ... the code under test talks to sess ...
//		})
//	}
//
// The fork copies parent's configuration and state and starts its own
// journal (see session.Session.Fork for what is copied). A seeded parent
// gives the fork an ID seed derived from its own and the name of t, so
// that each subtest sees the same IDs on every run whatever order the
// subtests fork in.
//
// It fails the test if the fork cannot be admitted: parent is closed, or
// the server's bounds are full. At cleanup the fork is checked and logged
// as a session of NewSession is: a server started WithStrict checks its
// assertions, and a failed test logs its transcript and leaves its journal
// in the artifacts directory.
func (s *Server) Fork(t TB, parent *session.Session) *session.Session {
	t.Helper()
	fork, err := parent.Fork(session.ForkName(t.Name()))
	if err != nil {
		t.Fatalf("llmtest: Fork of session %s: %v", parent.ID(), err)
	}
	s.closeAtCleanup(t, fork, fmt.Sprintf("session %s (fork of %s)", fork.ID(), parent.ID()))
	return fork
}
