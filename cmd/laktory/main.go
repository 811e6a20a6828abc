// Command laktory is a local workbench for Laktory pipelines: it validates a
// workspace of pipeline YAML, draws its writer -> table graph, and runs
// refreshes against Delta Lake tables on the local filesystem.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// stopGrace is how long a command has to end after SIGINT or SIGTERM
// cancelled it before the process exits anyway.
const stopGrace = 800 * time.Millisecond

// runMain runs Main until it returns or a signal stops it. SIGINT and
// SIGTERM cancel the command's context (a run abandons the commit in
// progress: nothing of it is visible); a command that has not returned
// stopGrace later, or a second signal, ends the process at once with
// 128+signal, which the log protocol and the checkpoints are built to
// survive (as a kill).
func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan int, 1)
	go func() { done <- Main(ctx, args, stdin, stdout, stderr, getenv) }()
	var sig os.Signal
	select {
	case code := <-done:
		return code
	case sig = <-sigs:
	}
	cancel()
	timer := time.NewTimer(stopGrace)
	defer timer.Stop()
	select {
	case code := <-done:
		return code
	case <-sigs:
	case <-timer.C:
	}
	fmt.Fprintf(stderr, "laktory: stopped by %v\n", sig)
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return ExitProblems
}
