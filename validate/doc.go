// Package validate runs pure rules over a workspace snapshot and returns diagnostics.
package validate
