package delta

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
)

// This file writes classic (single parquet file) checkpoints: one row per
// action of the snapshot's state (protocol, metaData, txn, domainMetadata,
// add, and the remove tombstones still within
// delta.deletedFileRetentionDuration), the same columns Spark and delta-rs
// read (add.stats as a JSON string), then _last_checkpoint.

// defaultTombstoneRetention is delta.deletedFileRetentionDuration's
// default (one week).
const defaultTombstoneRetention = 7 * 24 * time.Hour

// WriteCheckpoint writes the classic checkpoint of snapshot s
// (<version>.checkpoint.parquet, through a temporary file and a rename, so
// readers never see a partial one) and points _last_checkpoint at it,
// unless the hint already names a newer checkpoint. It returns the
// checkpoint's path. Tables with the v2Checkpoint feature need V2
// checkpoints, which this package does not write: ErrUnsupportedFeature.
func WriteCheckpoint(ctx context.Context, s *Snapshot) (string, error) {
	if s.protocol.MinWriterVersion >= 7 && s.protocol.HasWriterFeature(FeatureV2Checkpoint) {
		return "", fmt.Errorf("%w: table %s uses V2 checkpoints; laktory writes classic checkpoints only", ErrUnsupportedFeature, s.root)
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	actions := checkpointActions(s, time.Now())
	data, err := checkpointParquet(actions)
	if err != nil {
		return "", fmt.Errorf("checkpoint of table %s, version %d: %w", s.root, s.version, err)
	}
	st, err := storeFor(ctx, s.root)
	if err != nil {
		return "", err
	}
	key := logKey(CheckpointFileName(s.version))
	path := st.URI(key)
	if err := putLogFile(ctx, st, key, data, false); err != nil {
		return "", fmt.Errorf("checkpoint of table %s, version %d: %w", s.root, s.version, err)
	}
	knownCheckpoints.put(s.root, s.version)
	if hint := readLastCheckpoint(ctx, s.root); hint != nil && hint.Version > s.version {
		return path, nil
	}
	size, adds := int64(len(actions)), int64(len(s.files))
	sizeBytes := int64(len(data))
	lc, err := json.Marshal(LastCheckpoint{Version: s.version, Size: size, SizeInBytes: &sizeBytes, NumOfAddFiles: &adds})
	if err != nil {
		return path, err
	}
	if err := st.Put(ctx, logKey(LastCheckpointFileName), bytes.NewReader(lc), int64(len(lc))); err != nil {
		return path, fmt.Errorf("checkpoint of table %s, version %d: writing %s: %w", s.root, s.version, LastCheckpointFileName, err)
	}
	return path, nil
}

// Checkpoint writes a checkpoint of the table's latest version (see
// WriteCheckpoint).
func (t *Table) Checkpoint(ctx context.Context) (string, error) {
	s, err := t.Snapshot(ctx)
	if err != nil {
		return "", err
	}
	return WriteCheckpoint(ctx, s)
}

// checkpointInterval is delta.checkpointInterval (default 10).
func checkpointInterval(props map[string]string) int64 {
	if n, err := strconv.ParseInt(strings.TrimSpace(props[PropCheckpointInterval]), 10, 64); err == nil && n > 0 {
		return n
	}
	return DefaultCheckpointInterval
}

// maybeCheckpoint writes the checkpoint of version v when it is due. The
// commit stands whatever happens here.
func (tx *Transaction) maybeCheckpoint(ctx context.Context, v int64) (string, error) {
	if v == 0 || v%checkpointInterval(tx.view.metadata.Configuration) != 0 {
		return "", nil
	}
	s, err := LoadSnapshot(ctx, tx.root, AtVersion(v))
	if err != nil {
		return "", fmt.Errorf("checkpoint of table %s, version %d: %w", tx.root, v, err)
	}
	return WriteCheckpoint(ctx, s)
}

// checkpointActions lists the actions of a checkpoint of s: protocol,
// metaData, txns, domain metadata, live files and the tombstones not yet
// expired at now.
func checkpointActions(s *Snapshot, now time.Time) []Action {
	p, m := s.Protocol(), s.Metadata()
	actions := make([]Action, 0, 2+len(s.txns)+len(s.domains)+len(s.files)+len(s.tombstones))
	actions = append(actions, Action{Protocol: &p}, Action{MetaData: &m})
	for _, t := range s.txns {
		t := t
		actions = append(actions, Action{Txn: &t})
	}
	for _, d := range s.domains {
		d := d
		actions = append(actions, Action{DomainMetadata: &d})
	}
	for _, f := range s.files {
		actions = append(actions, Action{Add: f})
	}
	cutoff := now.Add(-tombstoneRetention(s.metadata.Configuration)).UnixMilli()
	for _, r := range s.tombstones {
		if r.DeletionTimestamp != nil && *r.DeletionTimestamp <= cutoff {
			continue // expired: VACUUM may already have deleted the file
		}
		actions = append(actions, Action{Remove: r})
	}
	return actions
}

var intervalRE = regexp.MustCompile(`(?i)^\s*(?:interval\s+)?(\d+)\s*(second|minute|hour|day|week)s?\s*$`)

// tombstoneRetention parses delta.deletedFileRetentionDuration ("interval
// 1 week", "interval 168 hours"...); default one week.
func tombstoneRetention(props map[string]string) time.Duration {
	m := intervalRE.FindStringSubmatch(props[PropDeletedFileRetention])
	if m == nil {
		return defaultTombstoneRetention
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	unit := map[string]time.Duration{"second": time.Second, "minute": time.Minute, "hour": time.Hour,
		"day": 24 * time.Hour, "week": 7 * 24 * time.Hour}[strings.ToLower(m[2])]
	return time.Duration(n) * unit
}

// Rows of a classic checkpoint as this package writes them with
// parquet-go: the column layout of Spark's checkpoints (one nullable
// struct per action type; no V2 checkpointMetadata or sidecar column).
type (
	ckptDV struct {
		StorageType    *string `parquet:"storageType,optional"`
		PathOrInlineDv *string `parquet:"pathOrInlineDv,optional"`
		Offset         *int32  `parquet:"offset,optional"`
		SizeInBytes    *int32  `parquet:"sizeInBytes,optional"`
		Cardinality    *int64  `parquet:"cardinality,optional"`
		MaxRowIndex    *int64  `parquet:"maxRowIndex,optional"`
	}
	ckptAdd struct {
		Path                    *string            `parquet:"path,optional"`
		PartitionValues         map[string]*string `parquet:"partitionValues,optional"`
		Size                    *int64             `parquet:"size,optional"`
		ModificationTime        *int64             `parquet:"modificationTime,optional"`
		DataChange              *bool              `parquet:"dataChange,optional"`
		Stats                   *string            `parquet:"stats,optional"`
		Tags                    map[string]*string `parquet:"tags,optional"`
		DeletionVector          *ckptDV            `parquet:"deletionVector,optional"`
		BaseRowID               *int64             `parquet:"baseRowId,optional"`
		DefaultRowCommitVersion *int64             `parquet:"defaultRowCommitVersion,optional"`
		ClusteringProvider      *string            `parquet:"clusteringProvider,optional"`
	}
	ckptRemove struct {
		Path                    *string            `parquet:"path,optional"`
		DeletionTimestamp       *int64             `parquet:"deletionTimestamp,optional"`
		DataChange              *bool              `parquet:"dataChange,optional"`
		ExtendedFileMetadata    *bool              `parquet:"extendedFileMetadata,optional"`
		PartitionValues         map[string]*string `parquet:"partitionValues,optional"`
		Size                    *int64             `parquet:"size,optional"`
		DeletionVector          *ckptDV            `parquet:"deletionVector,optional"`
		BaseRowID               *int64             `parquet:"baseRowId,optional"`
		DefaultRowCommitVersion *int64             `parquet:"defaultRowCommitVersion,optional"`
	}
	ckptTxn struct {
		AppID       *string `parquet:"appId,optional"`
		Version     *int64  `parquet:"version,optional"`
		LastUpdated *int64  `parquet:"lastUpdated,optional"`
	}
	ckptFormat struct {
		Provider *string            `parquet:"provider,optional"`
		Options  map[string]*string `parquet:"options,optional"`
	}
	ckptMetadata struct {
		ID               *string            `parquet:"id,optional"`
		Name             *string            `parquet:"name,optional"`
		Description      *string            `parquet:"description,optional"`
		Format           *ckptFormat        `parquet:"format,optional"`
		SchemaString     *string            `parquet:"schemaString,optional"`
		PartitionColumns []string           `parquet:"partitionColumns,optional,list"`
		Configuration    map[string]*string `parquet:"configuration,optional"`
		CreatedTime      *int64             `parquet:"createdTime,optional"`
	}
	ckptProtocol struct {
		MinReaderVersion *int32   `parquet:"minReaderVersion,optional"`
		MinWriterVersion *int32   `parquet:"minWriterVersion,optional"`
		ReaderFeatures   []string `parquet:"readerFeatures,optional,list"`
		WriterFeatures   []string `parquet:"writerFeatures,optional,list"`
	}
	ckptDomain struct {
		Domain        *string `parquet:"domain,optional"`
		Configuration *string `parquet:"configuration,optional"`
		Removed       *bool   `parquet:"removed,optional"`
	}
	ckptRow struct {
		Txn            *ckptTxn      `parquet:"txn,optional"`
		Add            *ckptAdd      `parquet:"add,optional"`
		Remove         *ckptRemove   `parquet:"remove,optional"`
		MetaData       *ckptMetadata `parquet:"metaData,optional"`
		Protocol       *ckptProtocol `parquet:"protocol,optional"`
		DomainMetadata *ckptDomain   `parquet:"domainMetadata,optional"`
	}
)

// checkpointParquet encodes actions as a classic checkpoint parquet file.
func checkpointParquet(actions []Action) ([]byte, error) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[ckptRow](&buf, parquet.Compression(&parquet.Snappy))
	rows := make([]ckptRow, len(actions))
	for i, a := range actions {
		rows[i] = toCheckpointRow(a)
	}
	if _, err := w.Write(rows); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// toCheckpointRow converts an action to a checkpoint row. Required collections are written empty, not null.
func toCheckpointRow(a Action) ckptRow {
	optMap := func(m map[string]string) map[string]*string {
		if m == nil {
			return nil
		}
		out := make(map[string]*string, len(m))
		for k, v := range m {
			v := v
			out[k] = &v
		}
		return out
	}
	dv := func(d *DeletionVector) *ckptDV {
		if d == nil {
			return nil
		}
		return &ckptDV{StorageType: &d.StorageType, PathOrInlineDv: &d.PathOrInlineDv, Offset: d.Offset,
			SizeInBytes: &d.SizeInBytes, Cardinality: &d.Cardinality, MaxRowIndex: d.MaxRowIndex}
	}
	var r ckptRow
	switch {
	case a.Add != nil:
		x := a.Add
		r.Add = &ckptAdd{Path: &x.Path, PartitionValues: nonNilMap(x.PartitionValues), Size: &x.Size,
			ModificationTime: &x.ModificationTime, DataChange: &x.DataChange, Tags: optMap(x.Tags),
			DeletionVector: dv(x.DeletionVector), BaseRowID: x.BaseRowID, DefaultRowCommitVersion: x.DefaultRowCommitVersion}
		if x.Stats != "" {
			r.Add.Stats = &x.Stats
		}
		if x.ClusteringProvider != "" {
			r.Add.ClusteringProvider = &x.ClusteringProvider
		}
	case a.Remove != nil:
		x := a.Remove
		r.Remove = &ckptRemove{Path: &x.Path, DeletionTimestamp: x.DeletionTimestamp, DataChange: &x.DataChange,
			ExtendedFileMetadata: x.ExtendedFileMetadata, PartitionValues: x.PartitionValues, Size: x.Size,
			DeletionVector: dv(x.DeletionVector), BaseRowID: x.BaseRowID, DefaultRowCommitVersion: x.DefaultRowCommitVersion}
	case a.Txn != nil:
		r.Txn = &ckptTxn{AppID: &a.Txn.AppID, Version: &a.Txn.Version, LastUpdated: a.Txn.LastUpdated}
	case a.MetaData != nil:
		x := a.MetaData
		prov := x.Format.Provider
		if prov == "" {
			prov = "parquet"
		}
		opts := optMap(x.Format.Options)
		if opts == nil {
			opts = map[string]*string{}
		}
		conf := optMap(x.Configuration)
		if conf == nil {
			conf = map[string]*string{}
		}
		r.MetaData = &ckptMetadata{ID: &x.ID, SchemaString: &x.SchemaString, PartitionColumns: nonNil(x.PartitionColumns),
			Configuration: conf, CreatedTime: x.CreatedTime, Format: &ckptFormat{Provider: &prov, Options: opts}}
		if x.Name != "" {
			r.MetaData.Name = &x.Name
		}
		if x.Description != "" {
			r.MetaData.Description = &x.Description
		}
	case a.Protocol != nil:
		x := a.Protocol
		r.Protocol = &ckptProtocol{MinReaderVersion: ptrTo(int32(x.MinReaderVersion)), MinWriterVersion: ptrTo(int32(x.MinWriterVersion))}
		if x.MinReaderVersion >= 3 {
			r.Protocol.ReaderFeatures = nonNil(x.ReaderFeatures)
		}
		if x.MinWriterVersion >= 7 {
			r.Protocol.WriterFeatures = nonNil(x.WriterFeatures)
		}
	case a.DomainMetadata != nil:
		x := a.DomainMetadata
		r.DomainMetadata = &ckptDomain{Domain: &x.Domain, Configuration: &x.Configuration, Removed: &x.Removed}
	}
	return r
}

func ptrTo[T any](v T) *T { return &v }
