package delta

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// Checkpoint parquet files (classic, multi-part, V2 and sidecars) hold one
// action per row: a nullable struct column per action type. They are read
// column by column: every leaf column this package needs is decoded into
// its values with their repetition and definition levels, and the rows are
// rebuilt from them. Columns a writer left out read as absent.

// cpLeaf is one decoded leaf column of a row group.
type cpLeaf struct {
	vals     []parquet.Value
	maxDef   int
	rowStart []int // repeated columns: index of each row's first value (+ end)
}

// present reports whether row r (non-repeated column) has a value.
func (c *cpLeaf) present(r int) bool {
	return c != nil && c.vals[r].DefinitionLevel() == c.maxDef
}

func (c *cpLeaf) str(r int) string {
	if !c.present(r) {
		return ""
	}
	return string(c.vals[r].ByteArray())
}

func (c *cpLeaf) i64(r int) *int64 {
	if !c.present(r) {
		return nil
	}
	v := c.vals[r]
	n := v.Int64()
	if v.Kind() == parquet.Int32 {
		n = int64(v.Int32())
	}
	return &n
}

func (c *cpLeaf) i32(r int) *int32 {
	n := c.i64(r)
	if n == nil {
		return nil
	}
	x := int32(*n)
	return &x
}

func (c *cpLeaf) boolean(r int) *bool {
	if !c.present(r) {
		return nil
	}
	b := c.vals[r].Boolean()
	return &b
}

// strMap rebuilds row r of a map<string,string> from its key and value
// leaves (nil when the map is null).
func strMapAt(keys, vals *cpLeaf, r int) map[string]*string {
	if keys == nil {
		return nil
	}
	from, to := keys.rowStart[r], keys.rowStart[r+1]
	if to-from == 1 && keys.vals[from].DefinitionLevel() < keys.maxDef {
		// One placeholder value: a null or empty map.
		if keys.vals[from].DefinitionLevel() >= keys.maxDef-1 {
			return map[string]*string{}
		}
		return nil
	}
	m := make(map[string]*string, to-from)
	for i := from; i < to; i++ {
		if keys.vals[i].DefinitionLevel() < keys.maxDef {
			continue
		}
		var v *string
		if vals != nil && i < len(vals.vals) && vals.vals[i].DefinitionLevel() == vals.maxDef {
			s := string(vals.vals[i].ByteArray())
			v = &s
		}
		m[string(keys.vals[i].ByteArray())] = v
	}
	return m
}

func plainMap(m map[string]*string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = str(v)
	}
	return out
}

// strListAt rebuilds row r of a list<string> (nil when null).
func strListAt(c *cpLeaf, r int) []string {
	if c == nil {
		return nil
	}
	from, to := c.rowStart[r], c.rowStart[r+1]
	if to-from == 1 && c.vals[from].DefinitionLevel() < c.maxDef {
		if c.vals[from].DefinitionLevel() >= c.maxDef-2 {
			return []string{}
		}
		return nil
	}
	out := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		if c.vals[i].DefinitionLevel() == c.maxDef {
			out = append(out, string(c.vals[i].ByteArray()))
		}
	}
	return out
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func i64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func boolean(p *bool) bool { return p != nil && *p }

// cpLeafName normalizes a leaf path: the repeated group of a map
// (key_value, map) or list (list, bag, array) is dropped, so
// add.partitionValues.key_value.key reads as add.partitionValues.key.
func cpLeafName(path []string) string {
	n := len(path)
	if n >= 3 {
		switch path[n-1] {
		case "key", "value", "element", "array_element", "item":
			switch path[n-2] {
			case "key_value", "map", "list", "bag", "array":
				path = append(append([]string(nil), path[:n-2]...), path[n-1])
			}
		}
	}
	return strings.Join(path, ".")
}

// cpRowGroup gives the decoded leaves of one row group by name.
type cpRowGroup struct {
	rg      parquet.RowGroup
	schema  *parquet.Schema
	columns map[string][]string // normalized name -> real path
	cache   map[string]*cpLeaf
	err     error
}

// leaf decodes (once) the named leaf column; nil when the file lacks it.
func (g *cpRowGroup) leaf(name string) *cpLeaf {
	if c, ok := g.cache[name]; ok {
		return c
	}
	path, ok := g.columns[name]
	if !ok || g.err != nil {
		g.cache[name] = nil
		return nil
	}
	lc, _ := g.schema.Lookup(path...)
	c := &cpLeaf{maxDef: lc.MaxDefinitionLevel}
	chunk := g.rg.ColumnChunks()[lc.ColumnIndex]
	c.vals = make([]parquet.Value, 0, max(chunk.NumValues(), g.rg.NumRows()))
	pages := chunk.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			g.err = err
			return nil
		}
		vr := p.Values()
		for {
			if len(c.vals) == cap(c.vals) {
				c.vals = slices.Grow(c.vals, 1024)
			}
			n, err := vr.ReadValues(c.vals[len(c.vals):cap(c.vals)])
			c.vals = c.vals[:len(c.vals)+n]
			if err == io.EOF {
				break
			}
			if err != nil {
				g.err = err
				return nil
			}
		}
	}
	if lc.MaxRepetitionLevel > 0 {
		c.rowStart = make([]int, 0, g.rg.NumRows()+1)
		for i, v := range c.vals {
			if v.RepetitionLevel() == 0 {
				c.rowStart = append(c.rowStart, i)
			}
		}
		c.rowStart = append(c.rowStart, len(c.vals))
	}
	if int64(len(c.vals)) < g.rg.NumRows() || (c.rowStart != nil && int64(len(c.rowStart)-1) != g.rg.NumRows()) {
		g.err = fmt.Errorf("column %s has %d values for %d rows", name, len(c.vals), g.rg.NumRows())
		return nil
	}
	g.cache[name] = c
	return c
}

func (g *cpRowGroup) dv(prefix string, r int) *DeletionVector {
	st := g.leaf(prefix + ".deletionVector.storageType")
	if !st.present(r) {
		return nil
	}
	return &DeletionVector{StorageType: st.str(r),
		PathOrInlineDv: g.leaf(prefix + ".deletionVector.pathOrInlineDv").str(r),
		Offset:         g.leaf(prefix + ".deletionVector.offset").i32(r),
		SizeInBytes:    derefI32(g.leaf(prefix + ".deletionVector.sizeInBytes").i32(r)),
		Cardinality:    i64(g.leaf(prefix + ".deletionVector.cardinality").i64(r)),
		MaxRowIndex:    g.leaf(prefix + ".deletionVector.maxRowIndex").i64(r)}
}

func derefI32(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// action rebuilds the action of row r (IsEmpty when the row holds nothing
// this package knows).
func (g *cpRowGroup) action(r int) Action {
	var a Action
	if p := g.leaf("add.path"); p.present(r) {
		a.Add = &Add{Path: p.str(r),
			PartitionValues:         strMapAt(g.leaf("add.partitionValues.key"), g.leaf("add.partitionValues.value"), r),
			Size:                    i64(g.leaf("add.size").i64(r)),
			ModificationTime:        i64(g.leaf("add.modificationTime").i64(r)),
			DataChange:              boolean(g.leaf("add.dataChange").boolean(r)),
			Stats:                   g.leaf("add.stats").str(r),
			Tags:                    plainMap(strMapAt(g.leaf("add.tags.key"), g.leaf("add.tags.value"), r)),
			DeletionVector:          g.dv("add", r),
			BaseRowID:               g.leaf("add.baseRowId").i64(r),
			DefaultRowCommitVersion: g.leaf("add.defaultRowCommitVersion").i64(r),
			ClusteringProvider:      g.leaf("add.clusteringProvider").str(r)}
		return a
	}
	if p := g.leaf("remove.path"); p.present(r) {
		a.Remove = &Remove{Path: p.str(r),
			DeletionTimestamp:       g.leaf("remove.deletionTimestamp").i64(r),
			DataChange:              boolean(g.leaf("remove.dataChange").boolean(r)),
			ExtendedFileMetadata:    g.leaf("remove.extendedFileMetadata").boolean(r),
			PartitionValues:         strMapAt(g.leaf("remove.partitionValues.key"), g.leaf("remove.partitionValues.value"), r),
			Size:                    g.leaf("remove.size").i64(r),
			DeletionVector:          g.dv("remove", r),
			BaseRowID:               g.leaf("remove.baseRowId").i64(r),
			DefaultRowCommitVersion: g.leaf("remove.defaultRowCommitVersion").i64(r)}
		return a
	}
	if p := g.leaf("txn.appId"); p.present(r) {
		a.Txn = &Txn{AppID: p.str(r), Version: i64(g.leaf("txn.version").i64(r)), LastUpdated: g.leaf("txn.lastUpdated").i64(r)}
		return a
	}
	if p := g.leaf("metaData.id"); p.present(r) {
		m := &Metadata{ID: p.str(r), Name: g.leaf("metaData.name").str(r), Description: g.leaf("metaData.description").str(r),
			SchemaString:     g.leaf("metaData.schemaString").str(r),
			PartitionColumns: strListAt(g.leaf("metaData.partitionColumns.element"), r),
			Configuration:    plainMap(strMapAt(g.leaf("metaData.configuration.key"), g.leaf("metaData.configuration.value"), r)),
			CreatedTime:      g.leaf("metaData.createdTime").i64(r),
			Format: Format{Provider: g.leaf("metaData.format.provider").str(r),
				Options: plainMap(strMapAt(g.leaf("metaData.format.options.key"), g.leaf("metaData.format.options.value"), r))}}
		a.MetaData = m
		return a
	}
	if p := g.leaf("protocol.minReaderVersion"); p.present(r) {
		a.Protocol = &Protocol{MinReaderVersion: int(i64(p.i64(r))),
			MinWriterVersion: int(i64(g.leaf("protocol.minWriterVersion").i64(r))),
			ReaderFeatures:   strListAt(g.leaf("protocol.readerFeatures.element"), r),
			WriterFeatures:   strListAt(g.leaf("protocol.writerFeatures.element"), r)}
		return a
	}
	if p := g.leaf("domainMetadata.domain"); p.present(r) {
		a.DomainMetadata = &DomainMetadata{Domain: p.str(r), Configuration: g.leaf("domainMetadata.configuration").str(r),
			Removed: boolean(g.leaf("domainMetadata.removed").boolean(r))}
		return a
	}
	if p := g.leaf("checkpointMetadata.version"); p.present(r) {
		a.CheckpointMetadata = &CheckpointMetadata{Version: i64(p.i64(r)),
			Tags: plainMap(strMapAt(g.leaf("checkpointMetadata.tags.key"), g.leaf("checkpointMetadata.tags.value"), r))}
		return a
	}
	if p := g.leaf("sidecar.path"); p.present(r) {
		a.Sidecar = &Sidecar{Path: p.str(r), SizeInBytes: i64(g.leaf("sidecar.sizeInBytes").i64(r)),
			ModificationTime: i64(g.leaf("sidecar.modificationTime").i64(r)),
			Tags:             plainMap(strMapAt(g.leaf("sidecar.tags.key"), g.leaf("sidecar.tags.value"), r))}
	}
	return a
}

// readParquetActions reads every action of a checkpoint (or sidecar)
// parquet file and passes them to fn in file order.
func readParquetActions(ctx context.Context, st Store, key string, fn func(Action) error) (err error) {
	var (
		f       io.ReaderAt
		size    int64
		closeFn = func() {}
	)
	if st.Capabilities().Local {
		f, size, closeFn, err = openObject(ctx, st, key)
	} else {
		var b []byte
		b, err = readLogFile(ctx, st, key) // a sidecar, never listed, is read, not cached
		f, size = bytes.NewReader(b), int64(len(b))
	}
	if err != nil {
		return err
	}
	defer closeFn()
	// parquet-go may panic on malformed input; report it as corruption.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: unreadable parquet: %v", ErrCorruptLog, r)
		}
	}()
	pf, err := parquet.OpenFile(f, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return fmt.Errorf("%w: unreadable parquet: %v", ErrCorruptLog, err)
	}
	columns := map[string][]string{}
	for _, p := range pf.Schema().Columns() {
		columns[cpLeafName(p)] = p
	}
	for _, rg := range pf.RowGroups() {
		g := &cpRowGroup{rg: rg, schema: pf.Schema(), columns: columns, cache: map[string]*cpLeaf{}}
		n := int(rg.NumRows())
		for r := 0; r < n; r++ {
			a := g.action(r)
			if g.err != nil {
				return fmt.Errorf("%w: unreadable parquet: %v", ErrCorruptLog, g.err)
			}
			if !a.IsEmpty() {
				if err := fn(a); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// readCheckpoint reads a complete checkpoint (classic, multi-part or V2
// with its sidecars) and passes its actions to fn. Errors name the file and
// wrap ErrMissingCheckpointPart when a file is missing, ErrCorruptLog when
// one cannot be read.
func readCheckpoint(ctx context.Context, root string, cp checkpoint, fn func(Action) error) error {
	st, err := storeFor(ctx, root)
	if err != nil {
		return err
	}
	wrap := func(path string, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%w: %v", ErrMissingCheckpointPart, err)
		}
		return &LogFileError{Table: root, Version: cp.version, File: path, Err: err}
	}
	var sidecars []Sidecar
	collect := func(a Action) error {
		if a.Sidecar != nil {
			sidecars = append(sidecars, *a.Sidecar)
			return nil
		}
		if a.CheckpointMetadata != nil {
			return nil
		}
		return fn(a)
	}
	for _, name := range cp.files {
		if err := ctx.Err(); err != nil {
			return err
		}
		key := logKey(name)
		path := st.URI(key)
		var err error
		if strings.HasSuffix(name, ".json") {
			var data []byte
			if data, err = readLogFile(ctx, st, key); err == nil {
				var actions []Action
				if actions, err = ParseCommit(data); err == nil {
					for _, a := range actions {
						if err = collect(a); err != nil {
							break
						}
					}
				}
			}
		} else {
			err = readParquetActions(ctx, st, key, collect)
		}
		if err != nil {
			return wrap(path, err)
		}
	}
	for _, sc := range sidecars {
		if err := ctx.Err(); err != nil {
			return err
		}
		p, err := decodeLogPath(sc.Path)
		if err != nil {
			return wrap(sc.Path, err)
		}
		// A full path must still name a file in _delta_log/_sidecars.
		key := logKey(SidecarDirName + "/" + path.Base(p))
		scPath := st.URI(key)
		err = readParquetActions(ctx, st, key, func(a Action) error {
			if a.Add == nil && a.Remove == nil {
				return nil // sidecars hold file actions only
			}
			return fn(a)
		})
		if err != nil {
			return wrap(scPath, err)
		}
	}
	return nil
}
