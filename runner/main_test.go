package runner

import (
	"testing"

	"github.com/laktory/workbench/delta/s3test"
)

// TestMain stops the S3-compatible test server (started by the first test
// that needs one, for a lake in a bucket) when the package's tests end.
func TestMain(m *testing.M) { s3test.Main(m) }
