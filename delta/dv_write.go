package delta

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/google/uuid"
)

// Writing deletion vectors. On a table whose property
// delta.enableDeletionVectors is true (and whose protocol lists the
// deletionVectors feature), a delete does not rewrite the files that keep
// some rows: it marks the deleted rows of each such file in a deletion
// vector (merged with the file's existing one) and commits a remove of the
// file with its old DV and an add of the same file with the new one. The
// rows are found in one scan that returns, per touched file and 65,536-row
// block, a bitmap of the matching rows (bitstring_agg), so no row crosses
// into Go. The DVs of one delete go to one file,
// deletion_vector_<uuid>.bin in the table folder (Delta's "u" storage:
// the UUID's Z85 text in the descriptor), except DVs small enough to be
// stored inline in the log ("i").

// inlineDVMaxBytes is the largest serialized DV stored inline in the log
// (a handful of rows); larger ones go to the DV file.
const inlineDVMaxBytes = 64

// dvBlockBits is the width of the row blocks the delete scan returns as
// bitmaps: one roaring container.
const dvBlockBits = 16

// writesDeletionVectors reports whether deletes on the view write deletion
// vectors: the table asks for them (delta.enableDeletionVectors=true) and
// its protocol supports them.
func (s *Snapshot) writesDeletionVectors() bool {
	p := s.protocol
	return strings.EqualFold(s.metadata.Configuration[PropEnableDeletionVectors], "true") &&
		p.MinReaderVersion >= 3 && p.MinWriterVersion >= 7 &&
		p.HasReaderFeature(FeatureDeletionVectors) && p.HasWriterFeature(FeatureDeletionVectors)
}

// matchedRows scans files for the rows where pred is TRUE and returns, per
// position in files, the indexes of those rows in the data file (rows a
// deletion vector already removed are not scanned).
func matchedRows(ctx context.Context, q Querier, s *Snapshot, files []*Add, pred string) (map[int]*roaring64.Bitmap, error) {
	const idx, row = "__laktory_f", "__laktory_r"
	scan, err := s.fileIndexScanSQL(ctx, nil, files, idx, row)
	if err != nil {
		return nil, err
	}
	mask := strconv.Itoa(1<<dvBlockBits - 1)
	rows, err := q.QueryContext(ctx, "SELECT "+idx+", "+row+" >> "+strconv.Itoa(dvBlockBits)+
		", CAST(bitstring_agg(CAST("+row+" & "+mask+" AS INTEGER), 0, "+mask+") AS BLOB) FROM ("+scan+
		"\n) AS __d WHERE ("+pred+"\n) GROUP BY 1, 2")
	if err != nil {
		return nil, fmt.Errorf("delete from table %s: finding the rows matching %q: %w", s.root, pred, err)
	}
	defer rows.Close()
	out := map[int]*roaring64.Bitmap{}
	for rows.Next() {
		var i, block int64
		var bitsBlob []byte
		if err := rows.Scan(&i, &block, &bitsBlob); err != nil {
			return nil, err
		}
		if i < 0 || i >= int64(len(files)) {
			continue
		}
		bm := out[int(i)]
		if bm == nil {
			bm = roaring64.New()
			out[int(i)] = bm
		}
		addBitString(bm, uint64(block)<<dvBlockBits, bitsBlob)
	}
	return out, rows.Err()
}

// addBitString adds to bm base+k for every bit k set in a DuckDB BIT value
// cast to BLOB (bits most significant first, after the padding bits that
// fill the first byte up to the bit string's length, 2^dvBlockBits).
func addBitString(bm *roaring64.Bitmap, base uint64, b []byte) {
	pad := (8 - (1<<dvBlockBits)%8) % 8
	var rows []uint64
	for i, by := range b {
		for by != 0 {
			z := bits.LeadingZeros8(by)
			by &^= 0x80 >> z
			if k := i*8 + z - pad; k >= 0 {
				rows = append(rows, base+uint64(k))
			}
		}
	}
	bm.AddMany(rows)
}

// dvUpdate is a file that keeps some rows: its add with the deletion
// vector of every row it now lacks.
type dvUpdate struct {
	old     *Add
	deleted *roaring64.Bitmap
}

// deleteWithDVs stages a delete that marks rows in deletion vectors:
// candidates are scanned once for the matching rows; the files that keep
// some rows get a DV, and the files whose live rows all match are returned
// for the caller to remove. m receives the deleted rows.
func (tx *Transaction) deleteWithDVs(ctx context.Context, q Querier, s *Snapshot, candidates []*Add, pred string, m *DeleteMetrics) ([]*Add, error) {
	found, err := matchedRows(ctx, q, s, candidates, pred)
	if err != nil {
		return nil, err
	}
	var whole []*Add
	var updates []dvUpdate
	positions := make([]int, 0, len(found))
	for i := range found {
		positions = append(positions, i)
	}
	sort.Ints(positions) // a deterministic commit
	for _, i := range positions {
		f, rows := candidates[i], found[i]
		n := int64(rows.GetCardinality())
		m.DeletedRows += n
		if live, ok := f.NumRecords(); ok && live == n {
			whole = append(whole, f)
			continue
		}
		if f.DeletionVector != nil {
			old, err := LoadDeletionVector(s.root, f.DeletionVector)
			if err != nil {
				return nil, fmt.Errorf("table %s, deletion vector of %s: %w", s.root, f.Path, err)
			}
			rows.Or(old)
		}
		updates = append(updates, dvUpdate{old: f, deleted: rows})
	}
	descs, err := tx.writeDeletionVectors(updates)
	if err != nil {
		return nil, err
	}
	tx.stageDVUpdates(updates, descs)
	m.DeletionVectors = len(updates)
	return whole, nil
}

// writeDeletionVectors serializes the DVs of updates: inline when small,
// else into one new DV file of the table (fsynced, removed again when the
// transaction does not commit). It returns their descriptors.
func (tx *Transaction) writeDeletionVectors(updates []dvUpdate) ([]*DeletionVector, error) {
	descs := make([]*DeletionVector, len(updates))
	var file bytes.Buffer
	file.WriteByte(1) // format version
	id := uuid.New()
	inFile := 0
	for i, u := range updates {
		u.deleted.RunOptimize()
		var data bytes.Buffer
		binary.Write(&data, binary.LittleEndian, uint32(dvMagic))
		if _, err := u.deleted.WriteTo(&data); err != nil {
			return nil, err
		}
		card := int64(u.deleted.GetCardinality())
		maxRow := int64(u.deleted.Maximum())
		if data.Len() <= inlineDVMaxBytes {
			descs[i] = &DeletionVector{StorageType: "i", PathOrInlineDv: z85Encode(data.Bytes()),
				SizeInBytes: int32(data.Len()), Cardinality: card, MaxRowIndex: &maxRow}
			continue
		}
		if file.Len()+data.Len()+8 > 1<<31-1 {
			return nil, fmt.Errorf("table %s: deletion vectors of one delete exceed 2 GB", tx.root)
		}
		offset := int32(file.Len())
		binary.Write(&file, binary.BigEndian, uint32(data.Len()))
		file.Write(data.Bytes())
		binary.Write(&file, binary.BigEndian, crc32.ChecksumIEEE(data.Bytes()))
		descs[i] = &DeletionVector{StorageType: "u", PathOrInlineDv: z85Encode(id[:]), Offset: &offset,
			SizeInBytes: int32(data.Len()), Cardinality: card, MaxRowIndex: &maxRow}
		inFile++
	}
	if inFile == 0 {
		return descs, nil
	}
	wroot, err := tx.writeRoot()
	if err != nil {
		return nil, err
	}
	path := dvFileName(wroot, "", id)
	if err := writeFileSync(path, file.Bytes()); err != nil {
		RemoveFile(path)
		return nil, fmt.Errorf("table %s: writing deletion vectors: %w", tx.root, err)
	}
	tx.dvFiles = append(tx.dvFiles, path)
	return descs, nil
}

// writeFileSync writes a new file and flushes it to disk.
func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// stageDVUpdates stages, per update, the remove of the file with its old
// DV and the add of the same file with the new one (its stats keep
// numRecords, the rows of the data file, with tightBounds false). A file
// whose DV this transaction already changed has its staged add replaced.
func (tx *Transaction) stageDVUpdates(updates []dvUpdate, descs []*DeletionVector) {
	if len(updates) == 0 {
		return
	}
	replaced := make(map[*Add]*Add, len(updates))
	for i, u := range updates {
		a := *u.old
		a.DeletionVector = descs[i]
		a.DataChange = true
		a.Stats = looseStats(u.old.Stats)
		if j := slices.Index(tx.dvAdds, u.old); j >= 0 {
			tx.dvAdds[j] = &a
		} else {
			tx.removes[u.old.Key()] = tx.removeAction(u.old)
			tx.dvAdds = append(tx.dvAdds, &a)
			if u.old.DeletionVector != nil {
				tx.metrics.DVsUpdated++
			} else {
				tx.metrics.DVsAdded++
			}
		}
		replaced[u.old] = &a
	}
	live := make([]*Add, len(tx.view.files))
	for i, f := range tx.view.files {
		live[i] = f
		if a, ok := replaced[f]; ok {
			live[i] = a
		}
	}
	tx.view = tx.view.derive(nil, nil, nil, live)
}

// looseStats marks stats as not tight (tightBounds false): the bounds of
// a file with a deletion vector may belong to deleted rows.
func looseStats(stats string) string {
	if stats == "" {
		return ""
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(stats), &fields) != nil {
		return ""
	}
	fields["tightBounds"] = json.RawMessage("false")
	keys := make([]string, 0, len(fields))
	for k := range fields {
		if k != "numRecords" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if _, ok := fields["numRecords"]; ok {
		keys = append([]string{"numRecords"}, keys...) // first, as every writer puts it
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kj, _ := json.Marshal(k)
		b.Write(kj)
		b.WriteByte(':')
		b.Write(fields[k])
	}
	b.WriteByte('}')
	return b.String()
}
