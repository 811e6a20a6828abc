// Package tui is the laktory workbench, a Bubble Tea application.
package tui
