package delta

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// This file finishes the data files DuckDB's COPY writes: it re-encodes
// the column chunks where DuckDB's choice is larger than it needs to be,
// and leaves every other byte as DuckDB wrote it (values, statistics,
// schema). writeData explains the COPY options; after them:
//
//   - Dictionary indices take the fewest bits: DuckDB 1.5 writes
//     bits.Len(n) bits per index for a dictionary of n entries, one more
//     than needed when n is a power of two (2 bits for a dictionary of 2:
//     twice delta-rs' bytes on a two-valued column, 9 bits for 256
//     entries). Their RLE and bit-packed runs are rewritten at
//     bits.Len(n-1).
//   - No BYTE_STREAM_SPLIT reaches a table: Spark 4.2's vectorized reader
//     refuses it ("Unsupported encoding: BYTE_STREAM_SPLIT"). DuckDB writes
//     it for float and double chunks under PARQUET_VERSION V2, which
//     parquetOptions uses only for tables without such columns; a file
//     with one anyway fails the write.
//
// Only files that need it are rewritten (a footer read otherwise); the
// chunks left alone are copied by the kernel (copy_file_range), and the
// new file replaces the old one by a rename.

// Parquet's enums, as numbered in its Thrift definition.
const (
	pqRepRequired = 0
	pqRepRepeated = 2

	pqEncPlainDict      = 2
	pqEncRLEDict        = 8
	pqEncByteStreamSplt = 9

	pqCodecUncompressed = 0
	pqCodecSnappy       = 1
	pqCodecZstd         = 6

	pqPageData       = 0
	pqPageDictionary = 2
)

var errParquetFile = errors.New("unexpected Parquet data file")

// pqLeaf is what the pages of a leaf column need to be read: its levels.
type pqLeaf struct {
	maxRep, maxDef int
}

// finishDataFile re-encodes the column chunks of the Parquet file at path
// (size bytes, written by DuckDB's COPY) that need it and returns the
// file's size after.
func finishDataFile(path string, size int64) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	md, footerStart, err := readParquetFooter(f, size)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	leaves, err := parquetLeaves(md)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	work := map[[2]int]int{} // (row group, column) -> the width of its dictionary indices
	for i, rg := range md.list(4) {
		for j, cc := range rg.list(1) {
			width, err := indexWidth(f, &cc)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", path, err)
			}
			if width > 0 {
				work[[2]int{i, j}] = width
			}
		}
	}
	if len(work) == 0 {
		return size, nil
	}
	n, err := rewriteParquet(f, path, md, footerStart, leaves, work)
	if err != nil {
		return 0, fmt.Errorf("%s: re-encoding column chunks: %w", path, err)
	}
	return n, nil
}

// readParquetFooter reads a Parquet file's metadata and where it starts.
func readParquetFooter(f *os.File, size int64) (*tValue, int64, error) {
	var tail [8]byte
	if size < 12 {
		return nil, 0, fmt.Errorf("%w: %d bytes", errParquetFile, size)
	}
	if _, err := f.ReadAt(tail[:], size-8); err != nil {
		return nil, 0, err
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if string(tail[4:]) != "PAR1" || n > size-12 {
		return nil, 0, fmt.Errorf("%w: no footer", errParquetFile)
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, size-8-n); err != nil {
		return nil, 0, err
	}
	md, used, err := readStruct(buf)
	if err != nil {
		return nil, 0, err
	}
	if used != len(buf) {
		return nil, 0, fmt.Errorf("%w: %d bytes after the footer", errParquetFile, len(buf)-used)
	}
	return &md, size - 8 - n, nil
}

// parquetLeaves lists the leaf columns of a file's schema (a depth-first
// list of elements, the root first) by path.
func parquetLeaves(md *tValue) (map[string]pqLeaf, error) {
	elems := md.list(2)
	if len(elems) == 0 {
		return nil, fmt.Errorf("%w: no schema", errParquetFile)
	}
	leaves := map[string]pqLeaf{}
	next := 1
	var walk func(path []string, rep, def int) error
	walk = func(path []string, rep, def int) error {
		if next >= len(elems) {
			return fmt.Errorf("%w: schema too short", errParquetFile)
		}
		e := &elems[next]
		next++
		switch e.int(3) {
		case pqRepRepeated:
			rep, def = rep+1, def+1
		case pqRepRequired:
		default:
			def++
		}
		var name string
		if nf := e.field(4); nf != nil {
			name = string(nf.b)
		}
		path = append(path[:len(path):len(path)], name)
		children := int(e.int(5))
		if children == 0 {
			leaves[strings.Join(path, "\x00")] = pqLeaf{maxRep: rep, maxDef: def}
			return nil
		}
		for k := 0; k < children; k++ {
			if err := walk(path, rep, def); err != nil {
				return err
			}
		}
		return nil
	}
	for k := 0; k < int(elems[0].int(5)); k++ {
		if err := walk(nil, 0, 0); err != nil {
			return nil, err
		}
	}
	return leaves, nil
}

// chunkPath is a column chunk's path_in_schema, as parquetLeaves keys it.
func chunkPath(cc *tValue) string {
	md := cc.field(3)
	if md == nil {
		return ""
	}
	var parts []string
	for _, p := range md.list(3) {
		parts = append(parts, string(p.b))
	}
	return strings.Join(parts, "\x00")
}

// chunkStart is where a column chunk's first page starts.
func chunkStart(md *tValue) int64 {
	start := md.int(9)
	if d := md.int(11); d > 0 && d < start {
		start = d
	}
	return start
}

// indexWidth is the width a column chunk's dictionary indices need when
// DuckDB wrote them a bit wider (its dictionary has a power of two
// entries), else 0.
func indexWidth(f *os.File, cc *tValue) (int, error) {
	md := cc.field(3)
	if md == nil {
		return 0, nil
	}
	dict := false
	for _, e := range md.list(2) {
		switch e.i {
		case pqEncByteStreamSplt:
			return 0, fmt.Errorf("%w: column %s is BYTE_STREAM_SPLIT, which Spark cannot read", errParquetFile,
				strings.ReplaceAll(chunkPath(cc), "\x00", "."))
		case pqEncRLEDict, pqEncPlainDict:
			dict = true
		}
	}
	if !dict || md.int(11) <= 0 {
		return 0, nil
	}
	// The dictionary page's header gives the number of entries.
	buf := make([]byte, 256)
	n, err := f.ReadAt(buf, md.int(11))
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, err
	}
	ph, _, err := readStruct(buf[:n])
	if err != nil {
		return 0, err
	}
	if ph.int(1) != pqPageDictionary || ph.field(7) == nil {
		return 0, fmt.Errorf("%w: no dictionary page at the dictionary offset", errParquetFile)
	}
	if entries := ph.field(7).int(1); entries >= 2 && entries&(entries-1) == 0 {
		return bits.Len64(uint64(entries - 1)), nil
	}
	return 0, nil
}

// rewriteParquet writes the file again with the chunks of work re-encoded
// and puts it in place of the old one; it returns the new size.
func rewriteParquet(f *os.File, path string, md *tValue, footerStart int64, leaves map[string]pqLeaf, work map[[2]int]int) (size int64, err error) {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	out, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return 0, err
	}
	defer func() {
		if out != nil {
			out.Close()
		}
		if err != nil {
			RemoveFile(tmp) // best effort: the write fails anyway
		}
	}()
	if _, err := out.Write([]byte("PAR1")); err != nil {
		return 0, err
	}
	pos := int64(4)
	rgs := md.field(4)
	for i := range rgs.items {
		rg := &rgs.items[i]
		ccs := rg.field(1)
		var rgStart int64 = -1
		var dCompressed, dUncompressed int64 // what re-encoding changed
		for j := range ccs.items {
			cc := &ccs.items[j]
			cm := cc.field(3)
			if cm == nil {
				return 0, fmt.Errorf("%w: column chunk without metadata", errParquetFile)
			}
			if cm.int(14) > 0 || cc.int(4) > 0 || cc.int(6) > 0 {
				return 0, fmt.Errorf("%w: bloom filter or page index", errParquetFile)
			}
			start, length := chunkStart(cm), cm.int(7)
			if start < 4 || length < 0 || start+length > footerStart {
				return 0, fmt.Errorf("%w: column chunk outside the file", errParquetFile)
			}
			if rgStart < 0 {
				rgStart = pos
			}
			width, ok := work[[2]int{i, j}]
			if !ok {
				if _, err := f.Seek(start, io.SeekStart); err != nil {
					return 0, err
				}
				if _, err := io.Copy(out, io.LimitReader(f, length)); err != nil {
					return 0, err
				}
				shift := pos - start
				cm.setInt(9, cm.int(9)+shift)
				if cm.int(11) > 0 {
					cm.setInt(11, cm.int(11)+shift)
				}
				if cc.field(2) != nil && cc.int(2) > 0 {
					cc.setInt(2, cc.int(2)+shift)
				}
				pos += length
				continue
			}
			leaf, ok := leaves[chunkPath(cc)]
			if !ok {
				return 0, fmt.Errorf("%w: column chunk of no schema column", errParquetFile)
			}
			raw := make([]byte, length)
			if _, err := f.ReadAt(raw, start); err != nil {
				return 0, err
			}
			oldUncompressed := cm.int(6)
			enc, err := reencodeChunk(raw, cm, leaf, width, pos)
			if err != nil {
				return 0, err
			}
			dCompressed += int64(len(enc)) - length
			dUncompressed += cm.int(6) - oldUncompressed
			if _, err := out.Write(enc); err != nil {
				return 0, err
			}
			if cc.field(2) != nil && cc.int(2) > 0 {
				cc.setInt(2, pos)
			}
			pos += int64(len(enc))
		}
		if rgStart >= 0 && rg.field(5) != nil {
			rg.setInt(5, rgStart)
		}
		rg.setInt(6, rg.int(6)+dCompressed)
		rg.setInt(2, rg.int(2)+dUncompressed)
	}
	footer := appendStruct(nil, md)
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
	footer = append(footer, "PAR1"...)
	if _, err := out.Write(footer); err != nil {
		return 0, err
	}
	size = pos + int64(len(footer))
	if err := out.Close(); err != nil {
		out = nil
		return 0, err
	}
	out = nil
	if err := os.Rename(tmp, path); err != nil {
		return 0, err
	}
	return size, nil
}

// reencodeChunk re-packs the dictionary indices of one column chunk (raw,
// its bytes as written) at width bits; pos is where the chunk will start.
// It updates the chunk's metadata (offsets, sizes).
func reencodeChunk(raw []byte, cm *tValue, leaf pqLeaf, width int, pos int64) ([]byte, error) {
	codec := cm.int(4)
	if codec != pqCodecSnappy && codec != pqCodecZstd && codec != pqCodecUncompressed {
		return nil, fmt.Errorf("%w: codec %d", errParquetFile, codec)
	}
	out := make([]byte, 0, len(raw))
	var uncompressed int64
	dataSeen := false
	for off := 0; off < len(raw); {
		ph, hlen, err := readStruct(raw[off:])
		if err != nil {
			return nil, err
		}
		clen := int(ph.int(3))
		if clen < 0 || off+hlen+clen > len(raw) {
			return nil, fmt.Errorf("%w: page outside its column chunk", errParquetFile)
		}
		body := raw[off+hlen : off+hlen+clen]
		off += hlen + clen
		switch ph.int(1) {
		case pqPageDictionary:
			cm.setInt(11, pos+int64(len(out)))
		case pqPageData:
			if !dataSeen {
				cm.setInt(9, pos+int64(len(out)))
				dataSeen = true
			}
			nb, changed, err := reencodePage(&ph, body, codec, leaf, width)
			if err != nil {
				return nil, err
			}
			if changed {
				body = nb
			}
		}
		before := len(out)
		out = appendStruct(out, &ph)
		uncompressed += int64(len(out)-before) + ph.int(2)
		out = append(out, body...)
	}
	cm.setInt(6, uncompressed)
	cm.setInt(7, int64(len(out)))
	return out, nil
}

// reencodePage re-packs the dictionary indices of one data page (v1)
// if they are wider than width bits, updating its header; changed is false when
// the page stays as it was.
func reencodePage(ph *tValue, body []byte, codec int64, leaf pqLeaf, width int) (out []byte, changed bool, err error) {
	dph := ph.field(5)
	if dph == nil {
		return nil, false, fmt.Errorf("%w: data page without header", errParquetFile)
	}
	if enc := dph.int(2); enc != pqEncRLEDict && enc != pqEncPlainDict {
		return nil, false, nil
	}
	plain := body
	switch codec {
	case pqCodecSnappy:
		n, err := s2.DecodedLen(body)
		if err != nil || int64(n) != ph.int(2) {
			return nil, false, fmt.Errorf("%w: page does not decompress", errParquetFile)
		}
		if plain, err = s2.Decode(make([]byte, n), body); err != nil {
			return nil, false, fmt.Errorf("%w: page does not decompress: %v", errParquetFile, err)
		}
	case pqCodecZstd:
		if plain, err = zstdDecoder.DecodeAll(body, make([]byte, 0, ph.int(2))); err != nil || int64(len(plain)) != ph.int(2) {
			return nil, false, fmt.Errorf("%w: page does not decompress: %v", errParquetFile, err)
		}
	}
	// levels: repetition, then definition, each a 4-byte length and its
	// RLE/bit-packed runs
	p := 0
	for _, present := range []bool{leaf.maxRep > 0, leaf.maxDef > 0} {
		if !present {
			continue
		}
		if p+4 > len(plain) {
			return nil, false, fmt.Errorf("%w: truncated levels", errParquetFile)
		}
		p += 4 + int(binary.LittleEndian.Uint32(plain[p:]))
		if p > len(plain) {
			return nil, false, fmt.Errorf("%w: truncated levels", errParquetFile)
		}
	}
	levels, values := plain[:p], plain[p:]
	if len(values) == 0 || int(values[0]) <= width {
		return nil, false, nil // already as narrow
	}
	page := make([]byte, 0, len(plain))
	page = append(append(page, levels...), byte(width))
	if page, err = repackHybrid(values[1:], int(values[0]), width, page); err != nil {
		return nil, false, err
	}
	ph.setInt(2, int64(len(page)))
	switch codec {
	case pqCodecSnappy:
		page = s2.EncodeSnappy(make([]byte, s2.MaxEncodedLen(len(page))), page)
	case pqCodecZstd:
		page = zstdEncoder.EncodeAll(page, nil)
	}
	if codec != pqCodecUncompressed && len(page) >= len(body) {
		// zstd codes the wasted bit of random indices away: the page stays
		// as DuckDB wrote it when re-packing saves nothing.
		ph.setInt(2, int64(len(plain)))
		return nil, false, nil
	}
	ph.setInt(3, int64(len(page)))
	ph.drop(4) // a CRC of the old bytes
	return page, true, nil
}

// The zstd codec of re-encoded pages: stateless uses (DecodeAll,
// EncodeAll) are safe for concurrent use. The encoder's fastest level is
// zstd's level 1, as DuckDB writes the data files (parquetOptions).
var (
	zstdDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
	zstdEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
)

// repackHybrid rewrites RLE/bit-packed hybrid runs of width `from` at
// width `to` (every value must fit in `to` bits), appending to dst.
func repackHybrid(src []byte, from, to int, dst []byte) ([]byte, error) {
	if from < 1 || from > 32 || to < 1 || to > from {
		return nil, fmt.Errorf("%w: bit widths %d to %d", errParquetFile, from, to)
	}
	inBytes, outBytes := (from+7)/8, (to+7)/8
	mask := uint64(1)<<to - 1
	for p := 0; p < len(src); {
		h, k := binary.Uvarint(src[p:])
		if k <= 0 {
			return nil, fmt.Errorf("%w: bad run header", errParquetFile)
		}
		p += k
		dst = binary.AppendUvarint(dst, h)
		if h&1 == 0 { // RLE run: count, then the value in whole bytes
			if p+inBytes > len(src) {
				return nil, fmt.Errorf("%w: truncated RLE run", errParquetFile)
			}
			var v uint64
			for b := 0; b < inBytes; b++ {
				v |= uint64(src[p+b]) << (8 * b)
			}
			p += inBytes
			if v > mask {
				return nil, fmt.Errorf("%w: index %d wider than %d bits", errParquetFile, v, to)
			}
			for b := 0; b < outBytes; b++ {
				dst = append(dst, byte(v>>(8*b)))
			}
			continue
		}
		// bit-packed run: groups of 8 values, `from` bytes per group
		groups := int(h >> 1)
		if groups > (len(src)-p)/from {
			return nil, fmt.Errorf("%w: truncated bit-packed run", errParquetFile)
		}
		for g := 0; g < groups; g++ {
			in := src[p : p+from]
			p += from
			var acc, outAcc uint64
			var accBits, outBits int
			ib := 0
			for v := 0; v < 8; v++ {
				for accBits < from {
					acc |= uint64(in[ib]) << accBits
					ib++
					accBits += 8
				}
				x := acc & (uint64(1)<<from - 1)
				acc >>= from
				accBits -= from
				outAcc |= (x & mask) << outBits
				outBits += to
				for outBits >= 8 {
					dst = append(dst, byte(outAcc))
					outAcc >>= 8
					outBits -= 8
				}
			}
			// 8 values of `to` bits are exactly `to` bytes
		}
	}
	return dst, nil
}
