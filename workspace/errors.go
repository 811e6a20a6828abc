package workspace

import "errors"

// ErrNotDir is returned by Load when the workspace path is not a folder.
var ErrNotDir = errors.New("workspace is not a folder")

// ErrNilSnapshot is returned by Reload and Watch without a previous snapshot.
var ErrNilSnapshot = errors.New("no previous snapshot")

// ErrConfig: the workbench config file (ConfigFileName) has errors, for
// commands that read it without loading the workspace (OpenLayout's
// diagnostics say where).
var ErrConfig = errors.New("invalid workbench config")
