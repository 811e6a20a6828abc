// Command laktory is a local workbench for Laktory pipelines: it validates a
// workspace of pipeline YAML, draws its writer -> table graph, and runs
// refreshes against Delta Lake tables on the local filesystem.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
