package delta

import (
	"context"
	"testing"

	"github.com/laktory/workbench/delta/s3test"
)

// TestS3StoreProbeCounted: the conditional-write probe of a bucket's first
// open is counted by the store like its other requests (StatsOf): two
// conditional writes of one key, probeRacers of a new key per race, and a
// delete of each probe object. Fails without: the probe called the
// client directly and a first open counted nothing.
func TestS3StoreProbeCounted(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Shared(t)
	cases := []struct {
		name  string
		front string // a conditionalFront mode, "" for the server itself
		want  StoreStats
	}{
		{name: "the race has its winner", want: StoreStats{Conditional: 2 + probeRacers, Deletes: 2, BytesWritten: 2}},
		{name: "a first race of 409s is run again", front: "conflict-first-race",
			want: StoreStats{Conditional: 2 + 2*probeRacers, Deletes: 2, BytesWritten: 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv.Setenv(t)
			bucket := srv.Bucket(t) // a bucket new to the process: its open probes
			if c.front != "" {
				front := conditionalFront(t, srv, c.front)
				t.Setenv("AWS_ENDPOINT_URL_S3", front)
				t.Setenv("AWS_ENDPOINT_URL", front)
			}
			st, err := OpenS3Store(ctx, "s3://"+bucket+"/lake/t")
			if err != nil {
				t.Fatal(err)
			}
			got, ok := StatsOf(st)
			if !ok {
				t.Fatal("StatsOf: the S3 store keeps no counts")
			}
			if got != c.want {
				t.Fatalf("after the first open: %s, %d B written; want %s, %d B written", got, got.BytesWritten, c.want, c.want.BytesWritten)
			}
			if err := CheckWritable(st); err != nil {
				t.Fatal(err)
			}
		})
	}
}
