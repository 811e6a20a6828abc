//go:build !unix

package main

import "testing"

// checkSparkCancel sends SIGINT, which needs a Unix.
func checkSparkCancel(t *testing.T, _ sparkServer) {
	t.Skip("the cancellation check sends SIGINT: Unix only")
}
