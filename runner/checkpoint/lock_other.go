//go:build !unix

package checkpoint

import "os"

// tryLock does not lock on systems without flock: concurrent runs of one
// flow or writer are not detected there.
func tryLock(*os.File, bool) error { return nil }

// canLock: records cannot tell a live writer from a dead one here
// (TakeRecord then leaves every record).
const canLock = false
