// Package tui is the laktory workbench, a Bubble Tea application: a tree of
// the workspace's pipelines, nodes and sinks beside four tabs (the writer ->
// table graph as a lane matrix, the problems found by live validation, runs
// and their history, and the selected table), with a header that counts the
// problems and running tasks and a footer with the focused pane's keys.
//
// The application never does I/O in Update: file watching, validation,
// table reads, run history and runs happen in commands whose results come
// back as messages tagged with the request they answer, so stale results
// are dropped. What it reads and runs is injected through Deps, behind the
// small interfaces of this package (Runner, RunHandle, History, Lake), so
// tests drive it with fakes.
package tui
