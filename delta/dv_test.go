package delta

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The examples of the protocol's "Deletion Vectors" section.
func TestDeletionVectorProtocolExamples(t *testing.T) {
	inline := &DeletionVector{StorageType: "i", PathOrInlineDv: "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", SizeInBytes: 40, Cardinality: 6}
	bm, err := LoadDeletionVector(t.TempDir(), inline)
	if err != nil {
		t.Fatal(err)
	}
	if got := bm.ToArray(); !reflect.DeepEqual(got, []uint64{3, 4, 7, 11, 18, 29}) {
		t.Fatalf("inline rows %v", got)
	}
	// The same rows in the portable format Spark writes (a vector other
	// readers use in their tests).
	portable := &DeletionVector{StorageType: "i", PathOrInlineDv: "^Bg9^0rr910000000000iXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", SizeInBytes: 44, Cardinality: 6}
	if bm, err := LoadDeletionVector("", portable); err != nil || !reflect.DeepEqual(bm.ToArray(), []uint64{3, 4, 7, 11, 18, 29}) {
		t.Fatalf("portable inline: %v, %v", bm, err)
	}
	u := &DeletionVector{StorageType: "u", PathOrInlineDv: "ab^-aqEH.-t@S}K{vb[*k^", Offset: ptr(int32(4)), SizeInBytes: 40, Cardinality: 6}
	p, err := u.DVFilePath("/mytable")
	if err != nil || p != "/mytable/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin" {
		t.Fatalf("DVFilePath = %q, %v", p, err)
	}
	noPrefix := &DeletionVector{StorageType: "u", PathOrInlineDv: "^-aqEH.-t@S}K{vb[*k^"}
	if p, _ := noPrefix.DVFilePath("/t"); p != "/t/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin" {
		t.Fatalf("no prefix: %q", p)
	}
}

func TestZ85RoundTrip(t *testing.T) {
	for _, in := range [][]byte{{}, {0}, {1, 2, 3}, {0xFF, 0xFE, 0xFD, 0xFC}, bytes.Repeat([]byte{0x86, 0x4F, 0xD2, 0x6F, 0xB5}, 7)} {
		enc := z85Encode(in)
		dec, err := z85Decode(enc)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(dec[:len(in)], in) || len(dec)%4 != 0 {
			t.Fatalf("round trip %x -> %q -> %x", in, enc, dec)
		}
	}
	// The Z85 spec's test vector.
	if got := z85Encode([]byte{0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B}); got != "HelloWorld" {
		t.Fatalf("z85 vector: %q", got)
	}
	for _, bad := range []string{"abcd", "abc d", "%%%%%"} {
		if _, err := z85Decode(bad); err == nil {
			t.Errorf("z85Decode(%q) accepted", bad)
		}
	}
}

func TestDeletionVectorRoundTripAndCorruption(t *testing.T) {
	rows := []uint64{0, 1, 2, 70000, 1 << 33}
	dv, err := InlineDeletionVector(rows)
	if err != nil {
		t.Fatal(err)
	}
	bm, err := LoadDeletionVector("", dv)
	if err != nil || !reflect.DeepEqual(bm.ToArray(), rows) {
		t.Fatalf("round trip: %v, %v", bm, err)
	}
	good, _ := EncodeDeletionVector(rows)
	hugeBuckets := bytes.Clone(good)
	binary.LittleEndian.PutUint64(hugeBuckets[4:], 1<<60)
	tests := []struct {
		name string
		dv   *DeletionVector
	}{
		{"cardinality mismatch", &DeletionVector{StorageType: "i", PathOrInlineDv: dv.PathOrInlineDv, SizeInBytes: dv.SizeInBytes, Cardinality: 4}},
		{"size beyond data", &DeletionVector{StorageType: "i", PathOrInlineDv: dv.PathOrInlineDv, SizeInBytes: 4000, Cardinality: 5}},
		{"bad magic", &DeletionVector{StorageType: "i", PathOrInlineDv: z85Encode(append([]byte{1, 2, 3, 4}, good[4:]...)), SizeInBytes: int32(len(good)), Cardinality: 5}},
		{"huge bucket count", &DeletionVector{StorageType: "i", PathOrInlineDv: z85Encode(hugeBuckets), SizeInBytes: int32(len(good)), Cardinality: 5}},
		{"truncated bitmap", &DeletionVector{StorageType: "i", PathOrInlineDv: z85Encode(good[:len(good)-6]), SizeInBytes: int32(len(good) - 6), Cardinality: 5}},
		{"bad z85", &DeletionVector{StorageType: "i", PathOrInlineDv: "~~~~~", SizeInBytes: 4, Cardinality: 1}},
		{"unknown storage type", &DeletionVector{StorageType: "x", PathOrInlineDv: "abc"}},
		{"short uuid", &DeletionVector{StorageType: "u", PathOrInlineDv: "abc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := LoadDeletionVector(t.TempDir(), tt.dv); !errors.Is(err, ErrCorruptDeletionVector) {
				t.Fatalf("err = %v", err)
			}
		})
	}
	// On-disk: truncated file and wrong size field.
	root := t.TempDir()
	u := &DeletionVector{StorageType: "u", PathOrInlineDv: "^-aqEH.-t@S}K{vb[*k^", Offset: ptr(int32(1)), SizeInBytes: int32(len(good)), Cardinality: 5}
	path, _ := u.DVFilePath(root)
	file := append([]byte{1}, binary.BigEndian.AppendUint32(nil, uint32(len(good)))...)
	file = append(file, good...)
	if err := os.WriteFile(path, file, 0o644); err != nil { // no checksum: truncated
		t.Fatal(err)
	}
	if _, err := LoadDeletionVector(root, u); !errors.Is(err, ErrCorruptDeletionVector) {
		t.Fatalf("truncated file: %v", err)
	}
	binary.BigEndian.PutUint32(file[1:], 3)
	file = append(file, 0, 0, 0, 0)
	os.WriteFile(path, file, 0o644)
	if _, err := LoadDeletionVector(root, u); !errors.Is(err, ErrCorruptDeletionVector) {
		t.Fatalf("size mismatch: %v", err)
	}
	escaping := &DeletionVector{StorageType: "p", PathOrInlineDv: filepath.Join(root, "..", "x.bin")}
	if _, err := LoadDeletionVector(root, escaping); !errors.Is(err, ErrPathEscapesTable) {
		t.Fatalf("escaping DV path: %v", err)
	}
}
