package delta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Action is one line of a Delta commit file (or one row of a checkpoint):
// exactly one of its fields is set. Lines holding an action this package
// does not know decode to an Action with every field nil (IsEmpty) and are
// ignored by replay, as the protocol requires.
//
// The JSON encoding matches what Delta Spark and delta-rs write, so an
// Action built by a writer marshals to a valid commit line with
// json.Marshal (see also MarshalCommit).
type Action struct {
	CommitInfo         *CommitInfo         `json:"commitInfo,omitempty"`
	Protocol           *Protocol           `json:"protocol,omitempty"`
	MetaData           *Metadata           `json:"metaData,omitempty"`
	Add                *Add                `json:"add,omitempty"`
	Remove             *Remove             `json:"remove,omitempty"`
	Txn                *Txn                `json:"txn,omitempty"`
	CDC                *CDC                `json:"cdc,omitempty"`
	DomainMetadata     *DomainMetadata     `json:"domainMetadata,omitempty"`
	CheckpointMetadata *CheckpointMetadata `json:"checkpointMetadata,omitempty"`
	Sidecar            *Sidecar            `json:"sidecar,omitempty"`
}

// IsEmpty reports whether no known action is set (an unknown action).
func (a Action) IsEmpty() bool {
	return a.CommitInfo == nil && a.Protocol == nil && a.MetaData == nil && a.Add == nil &&
		a.Remove == nil && a.Txn == nil && a.CDC == nil && a.DomainMetadata == nil &&
		a.CheckpointMetadata == nil && a.Sidecar == nil
}

// Protocol is the protocol action: the reader/writer versions and, at
// reader 3 / writer 7, the table features a client must implement.
type Protocol struct {
	MinReaderVersion int      `json:"minReaderVersion"`
	MinWriterVersion int      `json:"minWriterVersion"`
	ReaderFeatures   []string `json:"readerFeatures,omitempty"`
	WriterFeatures   []string `json:"writerFeatures,omitempty"`
}

// MarshalJSON writes readerFeatures exactly when minReaderVersion is 3 and
// writerFeatures exactly when minWriterVersion is 7 (as empty arrays when
// there are none), as the protocol requires.
func (p Protocol) MarshalJSON() ([]byte, error) {
	type wire struct {
		MinReaderVersion int       `json:"minReaderVersion"`
		MinWriterVersion int       `json:"minWriterVersion"`
		ReaderFeatures   *[]string `json:"readerFeatures,omitempty"`
		WriterFeatures   *[]string `json:"writerFeatures,omitempty"`
	}
	w := wire{MinReaderVersion: p.MinReaderVersion, MinWriterVersion: p.MinWriterVersion}
	if p.MinReaderVersion >= 3 {
		rf := nonNil(p.ReaderFeatures)
		w.ReaderFeatures = &rf
	}
	if p.MinWriterVersion >= 7 {
		wf := nonNil(p.WriterFeatures)
		w.WriterFeatures = &wf
	}
	return json.Marshal(w)
}

// HasReaderFeature reports whether name is listed in readerFeatures.
func (p Protocol) HasReaderFeature(name string) bool { return contains(p.ReaderFeatures, name) }

// HasWriterFeature reports whether name is listed in writerFeatures.
func (p Protocol) HasWriterFeature(name string) bool { return contains(p.WriterFeatures, name) }

// Format is the data file format of metaData (always parquet).
type Format struct {
	Provider string            `json:"provider"`
	Options  map[string]string `json:"options"`
}

// Metadata is the metaData action: table id, schema, partition columns and
// table properties ("configuration").
type Metadata struct {
	ID               string            `json:"id"`
	Name             string            `json:"name,omitempty"`
	Description      string            `json:"description,omitempty"`
	Format           Format            `json:"format"`
	SchemaString     string            `json:"schemaString"`
	PartitionColumns []string          `json:"partitionColumns"`
	Configuration    map[string]string `json:"configuration"`
	CreatedTime      *int64            `json:"createdTime,omitempty"`
}

// MarshalJSON writes the required collections as [] / {} rather than null,
// and defaults the format provider to parquet.
func (m Metadata) MarshalJSON() ([]byte, error) {
	type plain Metadata
	p := plain(m)
	p.PartitionColumns = nonNil(p.PartitionColumns)
	if p.Configuration == nil {
		p.Configuration = map[string]string{}
	}
	if p.Format.Provider == "" {
		p.Format.Provider = "parquet"
	}
	if p.Format.Options == nil {
		p.Format.Options = map[string]string{}
	}
	return json.Marshal(p)
}

// Schema parses SchemaString.
func (m Metadata) Schema() (*StructType, error) { return ParseSchema(m.SchemaString) }

// DeletionVector is the deletion vector descriptor of an add or remove.
type DeletionVector struct {
	// StorageType is "u" (file next to the data, named by a UUID), "i"
	// (inline, Z85 in PathOrInlineDv) or "p" (absolute path).
	StorageType    string `json:"storageType"`
	PathOrInlineDv string `json:"pathOrInlineDv"`
	Offset         *int32 `json:"offset,omitempty"`
	SizeInBytes    int32  `json:"sizeInBytes"`
	Cardinality    int64  `json:"cardinality"`
	MaxRowIndex    *int64 `json:"maxRowIndex,omitempty"`
}

// UniqueID is the DV's identity in the file-action key (path, dvId):
// storageType + pathOrInlineDv, then "@offset" when an offset is set.
func (dv *DeletionVector) UniqueID() string {
	if dv == nil {
		return ""
	}
	id := dv.StorageType + dv.PathOrInlineDv
	if dv.Offset != nil {
		id += "@" + strconv.Itoa(int(*dv.Offset))
	}
	return id
}

// Add is the add action: a data file that is part of the table.
type Add struct {
	// Path is relative to the table root (or absolute) and URI-encoded as
	// written in the log; see DecodedPath.
	Path                    string             `json:"path"`
	PartitionValues         map[string]*string `json:"partitionValues"`
	Size                    int64              `json:"size"`
	ModificationTime        int64              `json:"modificationTime"`
	DataChange              bool               `json:"dataChange"`
	Stats                   string             `json:"stats,omitempty"`
	Tags                    map[string]string  `json:"tags,omitempty"`
	DeletionVector          *DeletionVector    `json:"deletionVector,omitempty"`
	BaseRowID               *int64             `json:"baseRowId,omitempty"`
	DefaultRowCommitVersion *int64             `json:"defaultRowCommitVersion,omitempty"`
	ClusteringProvider      string             `json:"clusteringProvider,omitempty"`
}

// MarshalJSON writes partitionValues as {} rather than null.
func (a Add) MarshalJSON() ([]byte, error) {
	type plain Add
	p := plain(a)
	if p.PartitionValues == nil {
		p.PartitionValues = map[string]*string{}
	}
	return json.Marshal(p)
}

// DecodedPath is Path with its URI escapes decoded (the file's real path
// relative to the table root).
func (a *Add) DecodedPath() (string, error) { return decodeLogPath(a.Path) }

// ParseStats parses the stats JSON string; it returns nil, nil when the add
// has no stats.
func (a *Add) ParseStats() (*Stats, error) { return ParseStats(a.Stats) }

// NumRecords returns the number of live rows of the logical file (the
// stats' numRecords minus the rows its deletion vector removes), and false
// when the add has no usable stats.
func (a *Add) NumRecords() (int64, bool) {
	n, ok := statsNumRecords(a.Stats)
	if !ok {
		return 0, false
	}
	if a.DeletionVector != nil {
		n -= a.DeletionVector.Cardinality
	}
	return n, true
}

// Key is the file's identity for log replay: decoded path + DV unique id.
func (a *Add) Key() FileKey { return fileKey(a.Path, a.DeletionVector) }

// Remove is the remove action: a logical file is no longer part of the
// table (a tombstone, kept for VACUUM).
type Remove struct {
	Path                    string             `json:"path"`
	DeletionTimestamp       *int64             `json:"deletionTimestamp,omitempty"`
	DataChange              bool               `json:"dataChange"`
	ExtendedFileMetadata    *bool              `json:"extendedFileMetadata,omitempty"`
	PartitionValues         map[string]*string `json:"partitionValues,omitempty"`
	Size                    *int64             `json:"size,omitempty"`
	Stats                   string             `json:"stats,omitempty"`
	Tags                    map[string]string  `json:"tags,omitempty"`
	DeletionVector          *DeletionVector    `json:"deletionVector,omitempty"`
	BaseRowID               *int64             `json:"baseRowId,omitempty"`
	DefaultRowCommitVersion *int64             `json:"defaultRowCommitVersion,omitempty"`
}

// MarshalJSON writes partitionValues whenever it is non-nil (even empty,
// as delta-rs does with extendedFileMetadata) and omits it when nil.
func (r Remove) MarshalJSON() ([]byte, error) {
	type plain Remove
	w := struct {
		plain
		PartitionValues *map[string]*string `json:"partitionValues,omitempty"`
	}{plain: plain(r)}
	if r.PartitionValues != nil {
		w.PartitionValues = &r.PartitionValues
	}
	return json.Marshal(w)
}

// Key is the file's identity for log replay: decoded path + DV unique id.
func (r *Remove) Key() FileKey { return fileKey(r.Path, r.DeletionVector) }

// DecodedPath is Path with its URI escapes decoded.
func (r *Remove) DecodedPath() (string, error) { return decodeLogPath(r.Path) }

// Txn is the txn (application transaction) action used for idempotent
// writes: the latest Version per AppID wins.
type Txn struct {
	AppID       string `json:"appId"`
	Version     int64  `json:"version"`
	LastUpdated *int64 `json:"lastUpdated,omitempty"`
}

// CDC is the cdc action: a change data file under _change_data/.
type CDC struct {
	Path            string             `json:"path"`
	PartitionValues map[string]*string `json:"partitionValues"`
	Size            int64              `json:"size"`
	DataChange      bool               `json:"dataChange"`
	Tags            map[string]string  `json:"tags,omitempty"`
}

// DomainMetadata is the domainMetadata action.
type DomainMetadata struct {
	Domain        string `json:"domain"`
	Configuration string `json:"configuration"`
	Removed       bool   `json:"removed"`
}

// CheckpointMetadata is the checkpointMetadata action of a V2 checkpoint.
type CheckpointMetadata struct {
	Version int64             `json:"version"`
	Tags    map[string]string `json:"tags,omitempty"`
}

// Sidecar is the sidecar action of a V2 checkpoint: a parquet file under
// _delta_log/_sidecars holding some of the checkpoint's file actions.
type Sidecar struct {
	Path             string            `json:"path"`
	SizeInBytes      int64             `json:"sizeInBytes"`
	ModificationTime int64             `json:"modificationTime"`
	Tags             map[string]string `json:"tags,omitempty"`
}

// CommitInfo is the free-form commitInfo action. The fields Spark and
// delta-rs write are typed; any other key is kept in Extra and written back
// by MarshalJSON, so a commitInfo round-trips.
type CommitInfo struct {
	Timestamp           int64          `json:"timestamp,omitempty"`
	InCommitTimestamp   *int64         `json:"inCommitTimestamp,omitempty"`
	UserID              string         `json:"userId,omitempty"`
	UserName            string         `json:"userName,omitempty"`
	Operation           string         `json:"operation,omitempty"`
	OperationParameters map[string]any `json:"operationParameters,omitempty"`
	ReadVersion         *int64         `json:"readVersion,omitempty"`
	IsolationLevel      string         `json:"isolationLevel,omitempty"`
	IsBlindAppend       *bool          `json:"isBlindAppend,omitempty"`
	OperationMetrics    map[string]any `json:"operationMetrics,omitempty"`
	UserMetadata        string         `json:"userMetadata,omitempty"`
	EngineInfo          string         `json:"engineInfo,omitempty"`
	ClientVersion       string         `json:"clientVersion,omitempty"`
	TxnID               string         `json:"txnId,omitempty"`
	// Extra holds the keys not listed above, as raw JSON.
	Extra map[string]json.RawMessage `json:"-"`
}

// commitInfoKnown lists the JSON keys of CommitInfo's typed fields.
var commitInfoKnown = map[string]bool{
	"timestamp": true, "inCommitTimestamp": true, "userId": true, "userName": true,
	"operation": true, "operationParameters": true, "readVersion": true,
	"isolationLevel": true, "isBlindAppend": true, "operationMetrics": true,
	"userMetadata": true, "engineInfo": true, "clientVersion": true, "txnId": true,
}

// UnmarshalJSON decodes the typed fields and keeps the other keys in Extra.
// Numbers inside operationParameters / operationMetrics stay json.Number.
func (c *CommitInfo) UnmarshalJSON(b []byte) error {
	type plain CommitInfo
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&p); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for k, v := range all {
		if !commitInfoKnown[k] {
			if p.Extra == nil {
				p.Extra = map[string]json.RawMessage{}
			}
			p.Extra[k] = v
		}
	}
	*c = CommitInfo(p)
	return nil
}

// MarshalJSON writes the typed fields followed by Extra (sorted keys).
func (c CommitInfo) MarshalJSON() ([]byte, error) {
	type plain CommitInfo
	b, err := json.Marshal(plain(c))
	if err != nil || len(c.Extra) == 0 {
		return b, err
	}
	keys := make([]string, 0, len(c.Extra))
	for k := range c.Extra {
		if !commitInfoKnown[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.Write(b[:len(b)-1])
	first := len(b) == 2 // "{}"
	for _, k := range keys {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(c.Extra[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// Stats is the parsed per-file statistics of an add. MinValues, MaxValues
// and NullCount mirror the (physical) schema: nested structs are nested
// maps; numbers are json.Number.
type Stats struct {
	NumRecords  int64          `json:"numRecords"`
	MinValues   map[string]any `json:"minValues,omitempty"`
	MaxValues   map[string]any `json:"maxValues,omitempty"`
	NullCount   map[string]any `json:"nullCount,omitempty"`
	TightBounds *bool          `json:"tightBounds,omitempty"`
}

// ParseStats parses an add's stats string; "" gives nil, nil.
func ParseStats(s string) (*Stats, error) {
	if s == "" {
		return nil, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var st Stats
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("%w: invalid stats JSON: %v", ErrCorruptLog, err)
	}
	return &st, nil
}

// statsNumRecords extracts numRecords, without decoding the whole stats
// when numRecords is the first key (as every writer puts it).
func statsNumRecords(s string) (int64, bool) {
	rest := strings.TrimLeft(s, " \t\r\n")
	if rest, ok := strings.CutPrefix(rest, `{"numRecords":`); ok {
		rest = strings.TrimLeft(rest, " \t\r\n")
		end := 0
		for end < len(rest) && (rest[end] == '-' || rest[end] >= '0' && rest[end] <= '9') {
			end++
		}
		if n, err := strconv.ParseInt(rest[:end], 10, 64); err == nil {
			return n, true
		}
	}
	var st struct {
		NumRecords *int64 `json:"numRecords"`
	}
	if json.Unmarshal([]byte(s), &st) != nil || st.NumRecords == nil {
		return 0, false
	}
	return *st.NumRecords, true
}

// FileKey identifies a logical file in log replay: the decoded path and
// the deletion vector's unique id ("" without DV).
type FileKey struct {
	Path string
	DVID string
}

func fileKey(path string, dv *DeletionVector) FileKey {
	p, err := decodeLogPath(path)
	if err != nil {
		p = path
	}
	return FileKey{Path: p, DVID: dv.UniqueID()}
}

// decodeLogPath decodes the URI escapes of a path from the log. A path
// without '%' is returned as is (the common case, no allocation).
func decodeLogPath(p string) (string, error) {
	if !strings.Contains(p, "%") {
		return p, nil
	}
	d, err := url.PathUnescape(p)
	if err != nil {
		return "", fmt.Errorf("%w: invalid URI escape in path %q: %v", ErrCorruptLog, p, err)
	}
	return d, nil
}

// EncodeLogPath URI-encodes a relative file path for the log the way Spark
// and delta-rs do (each segment escaped, '/' kept). Writers use it for
// add/remove paths; DecodedPath inverts it.
func EncodeLogPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// MarshalCommit encodes actions as the content of a commit file: one JSON
// object per line, each line ending with '\n'.
func MarshalCommit(actions []Action) ([]byte, error) {
	var buf bytes.Buffer
	for i, a := range actions {
		b, err := json.Marshal(a)
		if err != nil {
			return nil, fmt.Errorf("action %d: %w", i, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
