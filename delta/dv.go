package delta

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/google/uuid"
)

// z85Alphabet is the Z85 (ZeroMQ base85) alphabet Delta uses for inline
// deletion vectors and DV file UUIDs.
const z85Alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"

var z85Decoder = func() (d [256]byte) {
	for i := range d {
		d[i] = 0xFF
	}
	for i := 0; i < len(z85Alphabet); i++ {
		d[z85Alphabet[i]] = byte(i)
	}
	return d
}()

// z85Decode decodes Z85 text (a multiple of 5 characters) into bytes.
func z85Decode(s string) ([]byte, error) {
	if len(s)%5 != 0 {
		return nil, fmt.Errorf("Z85 text of length %d is not a multiple of 5", len(s))
	}
	out := make([]byte, 0, len(s)/5*4)
	for i := 0; i < len(s); i += 5 {
		var v uint64
		for j := 0; j < 5; j++ {
			d := z85Decoder[s[i+j]]
			if d == 0xFF {
				return nil, fmt.Errorf("invalid Z85 character %q", s[i+j])
			}
			v = v*85 + uint64(d)
		}
		if v > 0xFFFFFFFF {
			return nil, fmt.Errorf("invalid Z85 block %q", s[i:i+5])
		}
		out = binary.BigEndian.AppendUint32(out, uint32(v))
	}
	return out, nil
}

// z85Encode encodes bytes as Z85, zero-padding them to a multiple of 4
// bytes as Delta does (the DV's sizeInBytes keeps the real length).
func z85Encode(b []byte) string {
	if r := len(b) % 4; r != 0 {
		b = append(bytes.Clone(b), make([]byte, 4-r)...)
	}
	out := make([]byte, 0, len(b)/4*5)
	for i := 0; i < len(b); i += 4 {
		v := binary.BigEndian.Uint32(b[i:])
		var chunk [5]byte
		for j := 4; j >= 0; j-- {
			chunk[j] = z85Alphabet[v%85]
			v /= 85
		}
		out = append(out, chunk[:]...)
	}
	return string(out)
}

// Magic numbers of the two RoaringBitmapArray serializations: "portable"
// (what Spark and delta-rs write: the standard 64-bit roaring format) and
// "native" (an array of 32-bit bitmaps, used by the protocol's example).
const (
	dvMagic       = 1681511377
	dvMagicNative = 1681511376
)

// DVFilePath returns the absolute path of an on-disk deletion vector
// ("u": <root>/<prefix>/deletion_vector_<uuid>.bin; "p": the absolute path,
// which must lie inside the table folder). It fails for inline DVs.
func (dv *DeletionVector) DVFilePath(root string) (string, error) {
	switch dv.StorageType {
	case "u":
		s := dv.PathOrInlineDv
		if len(s) < 20 {
			return "", fmt.Errorf("%w: pathOrInlineDv %q is shorter than a Z85 UUID", ErrCorruptDeletionVector, s)
		}
		raw, err := z85Decode(s[len(s)-20:])
		if err != nil {
			return "", fmt.Errorf("%w: pathOrInlineDv %q: %v", ErrCorruptDeletionVector, s, err)
		}
		id, err := uuid.FromBytes(raw)
		if err != nil {
			return "", fmt.Errorf("%w: pathOrInlineDv %q: %v", ErrCorruptDeletionVector, s, err)
		}
		rel := "deletion_vector_" + id.String() + ".bin"
		if prefix := s[:len(s)-20]; prefix != "" {
			rel = prefix + "/" + rel
		}
		return resolveTablePath(root, rel)
	case "p":
		return resolveTablePath(root, dv.PathOrInlineDv)
	case "i":
		return "", fmt.Errorf("%w: an inline deletion vector has no file", ErrCorruptDeletionVector)
	}
	return "", fmt.Errorf("%w: unknown storageType %q", ErrCorruptDeletionVector, dv.StorageType)
}

// LoadDeletionVector reads the deleted row indexes of a DV (inline or on
// disk under the table root). Errors wrap ErrCorruptDeletionVector (bad
// encoding, checksum, size or cardinality), ErrMissingDataFile (the DV
// file does not exist) or ErrPathEscapesTable.
func LoadDeletionVector(root string, dv *DeletionVector) (*roaring64.Bitmap, error) {
	var data []byte
	if dv.StorageType == "i" {
		raw, err := z85Decode(dv.PathOrInlineDv)
		if err != nil {
			return nil, fmt.Errorf("%w: inline deletion vector: %v", ErrCorruptDeletionVector, err)
		}
		if int(dv.SizeInBytes) > len(raw) || dv.SizeInBytes < 0 {
			return nil, fmt.Errorf("%w: inline deletion vector holds %d bytes, descriptor says %d", ErrCorruptDeletionVector, len(raw), dv.SizeInBytes)
		}
		data = raw[:dv.SizeInBytes]
	} else {
		path, err := dv.DVFilePath(root)
		if err != nil {
			return nil, err
		}
		if data, err = readDVFile(root, path, dv); err != nil {
			return nil, err
		}
	}
	bm, err := decodeDVBitmap(data)
	if err != nil {
		return nil, err
	}
	if card := bm.GetCardinality(); int64(card) != dv.Cardinality {
		return nil, fmt.Errorf("%w: holds %d rows, descriptor says %d", ErrCorruptDeletionVector, card, dv.Cardinality)
	}
	return bm, nil
}

// readDVFile reads one DV of a DV file: at the offset, a big-endian size,
// the bitmap, and its big-endian CRC-32.
func readDVFile(root, path string, dv *DeletionVector) ([]byte, error) {
	var readAt func(buf []byte, off int64) error
	if IsRemoteLocation(root) {
		// A remote table's DV: one ranged read of the object.
		ctx := context.Background()
		st, err := storeFor(ctx, root)
		if err != nil {
			return nil, err
		}
		key := strings.TrimPrefix(path, root+"/")
		readAt = func(buf []byte, off int64) error {
			b, err := st.ReadRange(ctx, key, off, int64(len(buf)))
			if err != nil {
				return err
			}
			if copy(buf, b) < len(buf) {
				return io.ErrUnexpectedEOF
			}
			return nil
		}
	} else {
		f, err := os.Open(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w: deletion vector file %s", ErrMissingDataFile, path)
			}
			return nil, err
		}
		defer f.Close()
		readAt = func(buf []byte, off int64) error { _, err := f.ReadAt(buf, off); return err }
	}
	offset := int64(0)
	if dv.Offset != nil {
		offset = int64(*dv.Offset)
	}
	if dv.SizeInBytes < 0 || dv.SizeInBytes > 1<<30 {
		return nil, fmt.Errorf("%w: %s: size %d out of range", ErrCorruptDeletionVector, path, dv.SizeInBytes)
	}
	buf := make([]byte, 4+int(dv.SizeInBytes)+4)
	if err := readAt(buf, offset); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: deletion vector file %s", ErrMissingDataFile, path)
		}
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: %s is truncated (DV at offset %d, %d bytes)", ErrCorruptDeletionVector, path, offset, dv.SizeInBytes)
		}
		return nil, err
	}
	if size := binary.BigEndian.Uint32(buf); size != uint32(dv.SizeInBytes) {
		return nil, fmt.Errorf("%w: %s: DV at offset %d has %d bytes, descriptor says %d", ErrCorruptDeletionVector, path, offset, size, dv.SizeInBytes)
	}
	data := buf[4 : 4+dv.SizeInBytes]
	if sum := binary.BigEndian.Uint32(buf[4+dv.SizeInBytes:]); sum != crc32.ChecksumIEEE(data) {
		return nil, fmt.Errorf("%w: %s: checksum mismatch for the DV at offset %d", ErrCorruptDeletionVector, path, offset)
	}
	return data, nil
}

// decodeDVBitmap decodes a serialized RoaringBitmapArray: the magic
// number, then the portable 64-bit format, or the native one (a count and
// sized 32-bit bitmaps, whose index is the high 32 bits).
func decodeDVBitmap(data []byte) (bm *roaring64.Bitmap, err error) {
	if len(data) < 8 {
		return nil, fmt.Errorf("%w: %d bytes is too short", ErrCorruptDeletionVector, len(data))
	}
	defer func() {
		if r := recover(); r != nil {
			bm, err = nil, fmt.Errorf("%w: %v", ErrCorruptDeletionVector, r)
		}
	}()
	body := data[4:]
	switch {
	case binary.LittleEndian.Uint32(data) == dvMagic:
		// Guard the bucket count before the library allocates for it.
		if len(body) < 8 || binary.LittleEndian.Uint64(body) > uint64(len(body))/8 {
			return nil, fmt.Errorf("%w: bad bucket count", ErrCorruptDeletionVector)
		}
		bm = roaring64.New()
		if _, err := bm.ReadFrom(bytes.NewReader(body)); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorruptDeletionVector, err)
		}
		return bm, nil
	case binary.LittleEndian.Uint32(data) == dvMagicNative:
		return decodeNativeDV(body, binary.LittleEndian)
	case binary.BigEndian.Uint32(data) == dvMagicNative:
		return decodeNativeDV(body, binary.BigEndian)
	}
	return nil, fmt.Errorf("%w: unknown magic number", ErrCorruptDeletionVector)
}

func decodeNativeDV(body []byte, order binary.ByteOrder) (*roaring64.Bitmap, error) {
	if len(body) < 4 {
		return nil, fmt.Errorf("%w: truncated", ErrCorruptDeletionVector)
	}
	n := order.Uint32(body)
	body = body[4:]
	if uint64(n) > uint64(len(body))/4 {
		return nil, fmt.Errorf("%w: bad bitmap count", ErrCorruptDeletionVector)
	}
	out := roaring64.New()
	for high := uint32(0); high < n; high++ {
		if len(body) < 4 {
			return nil, fmt.Errorf("%w: truncated", ErrCorruptDeletionVector)
		}
		size := order.Uint32(body)
		body = body[4:]
		if uint64(size) > uint64(len(body)) {
			return nil, fmt.Errorf("%w: truncated", ErrCorruptDeletionVector)
		}
		b := roaring.New()
		if _, err := b.ReadFrom(bytes.NewReader(body[:size])); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorruptDeletionVector, err)
		}
		body = body[size:]
		it := b.Iterator()
		for it.HasNext() {
			out.Add(uint64(high)<<32 | uint64(it.Next()))
		}
	}
	return out, nil
}

// EncodeDeletionVector serializes deleted row indexes in Delta's DV format
// (magic + portable roaring64), for inline DVs (z85 of these bytes) and DV
// files. Writers and tests use it.
func EncodeDeletionVector(rows []uint64) ([]byte, error) {
	bm := roaring64.BitmapOf(rows...)
	bm.RunOptimize()
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, uint32(dvMagic))
	if _, err := bm.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// InlineDeletionVector builds an inline ("i") descriptor for rows.
func InlineDeletionVector(rows []uint64) (*DeletionVector, error) {
	data, err := EncodeDeletionVector(rows)
	if err != nil {
		return nil, err
	}
	card := roaring64.BitmapOf(rows...).GetCardinality()
	return &DeletionVector{StorageType: "i", PathOrInlineDv: z85Encode(data), SizeInBytes: int32(len(data)), Cardinality: int64(card)}, nil
}

// dvFileName is the DV file of a "u" descriptor, for tests and writers:
// root/prefix/deletion_vector_<uuid>.bin.
func dvFileName(root, prefix string, id uuid.UUID) string {
	return filepath.Join(root, prefix, "deletion_vector_"+id.String()+".bin")
}
