package delta

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// Checkpoint rows as parquet-go reads them. Every column is optional: a
// checkpoint written by an older writer may lack some of them, and those
// read as zero values.
type (
	cpDeletionVector struct {
		StorageType    *string `parquet:"storageType,optional"`
		PathOrInlineDv *string `parquet:"pathOrInlineDv,optional"`
		Offset         *int32  `parquet:"offset,optional"`
		SizeInBytes    *int32  `parquet:"sizeInBytes,optional"`
		Cardinality    *int64  `parquet:"cardinality,optional"`
		MaxRowIndex    *int64  `parquet:"maxRowIndex,optional"`
	}
	cpAdd struct {
		Path                    *string            `parquet:"path,optional"`
		PartitionValues         map[string]*string `parquet:"partitionValues,optional"`
		Size                    *int64             `parquet:"size,optional"`
		ModificationTime        *int64             `parquet:"modificationTime,optional"`
		DataChange              *bool              `parquet:"dataChange,optional"`
		Tags                    map[string]*string `parquet:"tags,optional"`
		DeletionVector          *cpDeletionVector  `parquet:"deletionVector,optional"`
		BaseRowID               *int64             `parquet:"baseRowId,optional"`
		DefaultRowCommitVersion *int64             `parquet:"defaultRowCommitVersion,optional"`
		Stats                   *string            `parquet:"stats,optional"`
		ClusteringProvider      *string            `parquet:"clusteringProvider,optional"`
	}
	cpRemove struct {
		Path                    *string            `parquet:"path,optional"`
		DeletionTimestamp       *int64             `parquet:"deletionTimestamp,optional"`
		DataChange              *bool              `parquet:"dataChange,optional"`
		ExtendedFileMetadata    *bool              `parquet:"extendedFileMetadata,optional"`
		PartitionValues         map[string]*string `parquet:"partitionValues,optional"`
		Size                    *int64             `parquet:"size,optional"`
		DeletionVector          *cpDeletionVector  `parquet:"deletionVector,optional"`
		BaseRowID               *int64             `parquet:"baseRowId,optional"`
		DefaultRowCommitVersion *int64             `parquet:"defaultRowCommitVersion,optional"`
	}
	cpTxn struct {
		AppID       *string `parquet:"appId,optional"`
		Version     *int64  `parquet:"version,optional"`
		LastUpdated *int64  `parquet:"lastUpdated,optional"`
	}
	cpFormat struct {
		Provider *string            `parquet:"provider,optional"`
		Options  map[string]*string `parquet:"options,optional"`
	}
	cpMetadata struct {
		ID               *string            `parquet:"id,optional"`
		Name             *string            `parquet:"name,optional"`
		Description      *string            `parquet:"description,optional"`
		Format           *cpFormat          `parquet:"format,optional"`
		SchemaString     *string            `parquet:"schemaString,optional"`
		PartitionColumns []string           `parquet:"partitionColumns,optional,list"`
		Configuration    map[string]*string `parquet:"configuration,optional"`
		CreatedTime      *int64             `parquet:"createdTime,optional"`
	}
	cpProtocol struct {
		MinReaderVersion *int32   `parquet:"minReaderVersion,optional"`
		MinWriterVersion *int32   `parquet:"minWriterVersion,optional"`
		ReaderFeatures   []string `parquet:"readerFeatures,optional,list"`
		WriterFeatures   []string `parquet:"writerFeatures,optional,list"`
	}
	cpDomainMetadata struct {
		Domain        *string `parquet:"domain,optional"`
		Configuration *string `parquet:"configuration,optional"`
		Removed       *bool   `parquet:"removed,optional"`
	}
	cpCheckpointMetadata struct {
		Version *int64             `parquet:"version,optional"`
		Tags    map[string]*string `parquet:"tags,optional"`
	}
	cpSidecar struct {
		Path             *string            `parquet:"path,optional"`
		SizeInBytes      *int64             `parquet:"sizeInBytes,optional"`
		ModificationTime *int64             `parquet:"modificationTime,optional"`
		Tags             map[string]*string `parquet:"tags,optional"`
	}
	cpRow struct {
		Txn                *cpTxn                `parquet:"txn,optional"`
		Add                *cpAdd                `parquet:"add,optional"`
		Remove             *cpRemove             `parquet:"remove,optional"`
		MetaData           *cpMetadata           `parquet:"metaData,optional"`
		Protocol           *cpProtocol           `parquet:"protocol,optional"`
		DomainMetadata     *cpDomainMetadata     `parquet:"domainMetadata,optional"`
		CheckpointMetadata *cpCheckpointMetadata `parquet:"checkpointMetadata,optional"`
		Sidecar            *cpSidecar            `parquet:"sidecar,optional"`
	}
)

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

func strMap(m map[string]*string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = str(v)
	}
	return out
}

func (dv *cpDeletionVector) action() *DeletionVector {
	if dv == nil || dv.StorageType == nil {
		return nil
	}
	d := &DeletionVector{StorageType: *dv.StorageType, PathOrInlineDv: str(dv.PathOrInlineDv),
		Offset: dv.Offset, Cardinality: i64(dv.Cardinality), MaxRowIndex: dv.MaxRowIndex}
	if dv.SizeInBytes != nil {
		d.SizeInBytes = *dv.SizeInBytes
	}
	return d
}

// action converts a checkpoint row to the Action it holds (IsEmpty when
// the row holds nothing this package knows).
func (r *cpRow) action() Action {
	var a Action
	switch {
	case r.Add != nil && r.Add.Path != nil:
		x := r.Add
		a.Add = &Add{Path: *x.Path, PartitionValues: x.PartitionValues, Size: i64(x.Size),
			ModificationTime: i64(x.ModificationTime), DataChange: boolean(x.DataChange),
			Stats: str(x.Stats), Tags: strMap(x.Tags), DeletionVector: x.DeletionVector.action(),
			BaseRowID: x.BaseRowID, DefaultRowCommitVersion: x.DefaultRowCommitVersion,
			ClusteringProvider: str(x.ClusteringProvider)}
	case r.Remove != nil && r.Remove.Path != nil:
		x := r.Remove
		a.Remove = &Remove{Path: *x.Path, DeletionTimestamp: x.DeletionTimestamp,
			DataChange: boolean(x.DataChange), ExtendedFileMetadata: x.ExtendedFileMetadata,
			PartitionValues: x.PartitionValues, Size: x.Size, DeletionVector: x.DeletionVector.action(),
			BaseRowID: x.BaseRowID, DefaultRowCommitVersion: x.DefaultRowCommitVersion}
	case r.Txn != nil && r.Txn.AppID != nil:
		a.Txn = &Txn{AppID: *r.Txn.AppID, Version: i64(r.Txn.Version), LastUpdated: r.Txn.LastUpdated}
	case r.MetaData != nil && r.MetaData.ID != nil:
		x := r.MetaData
		m := &Metadata{ID: *x.ID, Name: str(x.Name), Description: str(x.Description),
			SchemaString: str(x.SchemaString), PartitionColumns: x.PartitionColumns,
			Configuration: strMap(x.Configuration), CreatedTime: x.CreatedTime}
		if x.Format != nil {
			m.Format = Format{Provider: str(x.Format.Provider), Options: strMap(x.Format.Options)}
		}
		a.MetaData = m
	case r.Protocol != nil && r.Protocol.MinReaderVersion != nil:
		x := r.Protocol
		p := &Protocol{MinReaderVersion: int(*x.MinReaderVersion), ReaderFeatures: x.ReaderFeatures, WriterFeatures: x.WriterFeatures}
		if x.MinWriterVersion != nil {
			p.MinWriterVersion = int(*x.MinWriterVersion)
		}
		a.Protocol = p
	case r.DomainMetadata != nil && r.DomainMetadata.Domain != nil:
		x := r.DomainMetadata
		a.DomainMetadata = &DomainMetadata{Domain: *x.Domain, Configuration: str(x.Configuration), Removed: boolean(x.Removed)}
	case r.CheckpointMetadata != nil && r.CheckpointMetadata.Version != nil:
		a.CheckpointMetadata = &CheckpointMetadata{Version: *r.CheckpointMetadata.Version, Tags: strMap(r.CheckpointMetadata.Tags)}
	case r.Sidecar != nil && r.Sidecar.Path != nil:
		x := r.Sidecar
		a.Sidecar = &Sidecar{Path: *x.Path, SizeInBytes: i64(x.SizeInBytes), ModificationTime: i64(x.ModificationTime), Tags: strMap(x.Tags)}
	}
	return a
}

// readParquetActions reads every action of a checkpoint (or sidecar)
// parquet file and passes them to fn in file order.
func readParquetActions(path string, fn func(Action) error) (err error) {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	// parquet-go may panic on malformed input; report it as corruption.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: unreadable parquet: %v", ErrCorruptLog, r)
		}
	}()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return fmt.Errorf("%w: unreadable parquet: %v", ErrCorruptLog, err)
	}
	r := parquet.NewGenericReader[cpRow](pf)
	defer r.Close()
	buf := make([]cpRow, 1024)
	for {
		clear(buf)
		n, rerr := r.Read(buf)
		for i := 0; i < n; i++ {
			if a := buf[i].action(); !a.IsEmpty() {
				if err := fn(a); err != nil {
					return err
				}
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return fmt.Errorf("%w: unreadable parquet: %v", ErrCorruptLog, rerr)
		}
	}
}

// readCheckpoint reads a complete checkpoint (classic, multi-part or V2
// with its sidecars) and passes its actions to fn. Errors name the file and
// wrap ErrMissingCheckpointPart when a file is missing, ErrCorruptLog when
// one cannot be read.
func readCheckpoint(ctx context.Context, root string, cp checkpoint, fn func(Action) error) error {
	logDir := filepath.Join(root, LogDirName)
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
		path := filepath.Join(logDir, name)
		var err error
		if strings.HasSuffix(name, ".json") {
			var data []byte
			if data, err = os.ReadFile(path); err == nil {
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
			err = readParquetActions(path, collect)
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
		path := filepath.Join(logDir, SidecarDirName, filepath.FromSlash(p))
		if strings.Contains(p, "/") {
			// A full path: it must still name a file in _delta_log/_sidecars.
			path = filepath.Join(logDir, SidecarDirName, filepath.Base(p))
		}
		err = readParquetActions(path, func(a Action) error {
			if a.Add == nil && a.Remove == nil {
				return nil // sidecars hold file actions only
			}
			return fn(a)
		})
		if err != nil {
			return wrap(path, err)
		}
	}
	return nil
}
