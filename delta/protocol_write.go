package delta

import (
	"fmt"
	"sort"
	"strings"
)

// Writer-side table feature names (see also the reader features of
// protocol.go).
const (
	FeatureAppendOnly        = "appendOnly"
	FeatureInvariants        = "invariants"
	FeatureCheckConstraints  = "checkConstraints"
	FeatureChangeDataFeed    = "changeDataFeed"
	FeatureGeneratedColumns  = "generatedColumns"
	FeatureIdentityColumns   = "identityColumns"
	FeatureDomainMetadata    = "domainMetadata"
	FeatureInCommitTimestamp = "inCommitTimestamp"
)

// Table properties the write path reads.
const (
	PropAppendOnly             = "delta.appendOnly"
	PropCheckpointInterval     = "delta.checkpointInterval"
	PropColumnMappingMode      = "delta.columnMapping.mode"
	PropColumnMappingMaxID     = "delta.columnMapping.maxColumnId"
	PropEnableDeletionVectors  = "delta.enableDeletionVectors"
	PropEnableChangeDataFeed   = "delta.enableChangeDataFeed"
	PropEnableInCommitTS       = "delta.enableInCommitTimestamps"
	PropEnableRowTracking      = "delta.enableRowTracking"
	PropEnableTypeWidening     = "delta.enableTypeWidening"
	PropIsolationLevel         = "delta.isolationLevel"
	PropDataSkippingNumIndexed = "delta.dataSkippingNumIndexedCols"
	PropDataSkippingStatsCols  = "delta.dataSkippingStatsColumns"
	PropDeletedFileRetention   = "delta.deletedFileRetentionDuration"
	PropTargetFileSize         = "delta.targetFileSize"
	// PropConstraintPrefix starts the name of a CHECK constraint property
	// ("delta.constraints.<name>" = SQL expression).
	PropConstraintPrefix = "delta.constraints."
	// PropFeaturePrefix starts a property that asks for a table feature
	// at creation ("delta.feature.<name>" = "supported").
	PropFeaturePrefix = "delta.feature."
)

// Field metadata keys the write path looks at.
const (
	metaInvariants     = "delta.invariants"
	metaGenerationExpr = "delta.generationExpression"
	metaIdentityStart  = "delta.identity.start"
)

// MaxWriterVersion is the highest minWriterVersion this package writes.
const MaxWriterVersion = 7

// SupportedWriterFeatures lists the writer features this package
// implements (some only while inactive: changeDataFeed as long as
// delta.enableChangeDataFeed is off, generatedColumns and identityColumns
// as long as no column uses them). A table listing any other writer
// feature is refused for writing.
var SupportedWriterFeatures = []string{
	FeatureAppendOnly,
	FeatureInvariants,
	FeatureCheckConstraints,
	FeatureTimestampNTZ,
	FeatureColumnMapping,
	FeatureDeletionVectors,
	FeatureV2Checkpoint,
	FeatureVacuumProtocolCheck,
	FeatureDomainMetadata,
	FeatureChangeDataFeed,
	FeatureGeneratedColumns,
	FeatureIdentityColumns,
	FeatureInCommitTimestamp,
	FeatureTypeWidening,
	FeatureTypeWideningPreview,
}

// readerWriterFeatures are the features that must be listed in both
// readerFeatures and writerFeatures.
var readerWriterFeatures = map[string]bool{
	FeatureDeletionVectors: true, FeatureColumnMapping: true, FeatureTimestampNTZ: true,
	FeatureV2Checkpoint: true, FeatureVacuumProtocolCheck: true,
	FeatureTypeWidening: true, FeatureTypeWideningPreview: true,
}

// CheckWritable returns nil when this package can write a table with
// protocol p (it must also be readable). Otherwise the error wraps
// ErrUnsupportedProtocol or ErrUnsupportedFeature and names the table.
func (p Protocol) CheckWritable(table string) error {
	if err := p.CheckReadable(table); err != nil {
		return err
	}
	if p.MinWriterVersion < 1 || p.MinWriterVersion > MaxWriterVersion {
		return fmt.Errorf("%w: table %s needs writer version %d; laktory writes versions 1 to %d",
			ErrUnsupportedProtocol, table, p.MinWriterVersion, MaxWriterVersion)
	}
	if p.MinWriterVersion < 7 {
		return nil
	}
	var unsupported []string
	for _, f := range p.WriterFeatures {
		if !contains(SupportedWriterFeatures, f) {
			unsupported = append(unsupported, f)
		}
	}
	if len(unsupported) > 0 {
		sort.Strings(unsupported)
		return fmt.Errorf("%w: table %s uses writer feature %s, which laktory does not implement (it writes: %s)",
			ErrUnsupportedFeature, table, strings.Join(unsupported, ", "), strings.Join(SupportedWriterFeatures, ", "))
	}
	return nil
}

// writerFeatureActive reports whether a writer feature governs writes: at
// writer 7 when it is listed, below 7 when the legacy version implies it.
func (p Protocol) writerFeatureActive(name string, legacyVersion int) bool {
	if p.MinWriterVersion >= 7 {
		return p.HasWriterFeature(name)
	}
	return p.MinWriterVersion >= legacyVersion
}

// checkWritableSnapshot checks, beyond the protocol, what the table's
// metadata asks of writers that this package does not do: change data
// files, generated and identity columns, row tracking.
func checkWritableSnapshot(s *Snapshot) error {
	if err := s.protocol.CheckWritable(s.root); err != nil {
		return err
	}
	if err := checkIsolationLevel(s.root, s.metadata.Configuration); err != nil {
		return err
	}
	if s.protocol.writerFeatureActive(FeatureGeneratedColumns, 4) || s.protocol.writerFeatureActive(FeatureIdentityColumns, 6) {
		var bad []string
		walkFields(s.schema, "", func(path string, f *StructField) {
			if _, ok := f.Metadata[metaGenerationExpr]; ok {
				bad = append(bad, path+" (generated column)")
			}
			if _, ok := f.Metadata[metaIdentityStart]; ok {
				bad = append(bad, path+" (identity column)")
			}
		})
		if len(bad) > 0 {
			return fmt.Errorf("%w: table %s has %s, which laktory cannot compute when writing",
				ErrUnsupportedFeature, s.root, strings.Join(bad, ", "))
		}
	}
	if strings.EqualFold(s.metadata.Configuration[PropEnableRowTracking], "true") {
		return fmt.Errorf("%w: table %s has row tracking enabled (%s=true); laktory does not assign row ids",
			ErrUnsupportedFeature, s.root, PropEnableRowTracking)
	}
	return nil
}

// cdfEnabled reports whether a data-removing write would have to write
// change data files.
func (s *Snapshot) cdfEnabled() bool {
	return strings.EqualFold(s.metadata.Configuration[PropEnableChangeDataFeed], "true") &&
		s.protocol.writerFeatureActive(FeatureChangeDataFeed, 4)
}

// walkFields calls fn for every field of st, nested struct fields
// included (inside arrays and maps too), with its dotted path.
func walkFields(st *StructType, prefix string, fn func(path string, f *StructField)) {
	for _, f := range st.Fields {
		path := f.Name
		if prefix != "" {
			path = prefix + "." + f.Name
		}
		fn(path, f)
		walkType(f.Type, path, fn)
	}
}

func walkType(dt DataType, path string, fn func(string, *StructField)) {
	switch t := dt.(type) {
	case *StructType:
		walkFields(t, path, fn)
	case *ArrayType:
		walkType(t.ElementType, path+".element", fn)
	case *MapType:
		walkType(t.KeyType, path+".key", fn)
		walkType(t.ValueType, path+".value", fn)
	}
}

// usesType reports whether dt is, or nests, the primitive type p.
func usesType(dt DataType, p PrimitiveType) bool {
	return someType(dt, func(t DataType) bool { return t == p })
}

// createProtocol computes the protocol a new table with this schema and
// these properties needs: (1, 2) unless something asks for more. Reader
// features (deletion vectors, column mapping, timestamp_ntz) and explicit
// "delta.feature.<name>" properties move the table to (3, 7) listing only
// the needed features (plus appendOnly, invariants and checkConstraints
// when the table uses them); CHECK constraints alone need writer 3.
func createProtocol(schema *StructType, props map[string]string) (Protocol, error) {
	reader := map[string]bool{}
	writer := map[string]bool{}
	if strings.EqualFold(props[PropEnableDeletionVectors], "true") {
		reader[FeatureDeletionVectors] = true
	}
	switch m := ColumnMappingMode(props[PropColumnMappingMode]); m {
	case "", ColumnMappingNone:
	case ColumnMappingName, ColumnMappingID:
		reader[FeatureColumnMapping] = true
	default:
		return Protocol{}, fmt.Errorf("%w: %s=%q: use none, name or id", ErrUnsupportedFeature, PropColumnMappingMode, string(m))
	}
	if usesType(schema, TimestampNTZType) {
		reader[FeatureTimestampNTZ] = true
	}
	if strings.EqualFold(props[PropEnableTypeWidening], "true") {
		reader[FeatureTypeWidening] = true
	}
	for k, v := range props {
		name, ok := strings.CutPrefix(k, PropFeaturePrefix)
		if !ok {
			continue
		}
		if !strings.EqualFold(v, "supported") && !strings.EqualFold(v, "enabled") {
			return Protocol{}, fmt.Errorf("%w: property %s=%q: the only value is \"supported\"", ErrUnsupportedFeature, k, v)
		}
		if !contains(SupportedWriterFeatures, name) {
			return Protocol{}, fmt.Errorf("%w: property %s asks for feature %q, which laktory does not implement (it writes: %s)",
				ErrUnsupportedFeature, k, name, strings.Join(SupportedWriterFeatures, ", "))
		}
		if readerWriterFeatures[name] {
			reader[name] = true
		} else {
			writer[name] = true
		}
	}
	if strings.EqualFold(props[PropEnableChangeDataFeed], "true") {
		return Protocol{}, fmt.Errorf("%w: %s=true: laktory does not write change data files; leave change data feed off",
			ErrUnsupportedFeature, PropEnableChangeDataFeed)
	}
	if strings.EqualFold(props[PropEnableRowTracking], "true") {
		return Protocol{}, fmt.Errorf("%w: %s=true: laktory does not assign row ids; leave row tracking off",
			ErrUnsupportedFeature, PropEnableRowTracking)
	}
	if strings.EqualFold(props[PropEnableInCommitTS], "true") {
		writer[FeatureInCommitTimestamp] = true
	}
	hasConstraints := false
	for k := range props {
		if strings.HasPrefix(k, PropConstraintPrefix) {
			hasConstraints = true
		}
	}
	if len(reader) == 0 && len(writer) == 0 {
		if hasConstraints {
			return Protocol{MinReaderVersion: 1, MinWriterVersion: 3}, nil
		}
		return Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, nil
	}
	if hasConstraints {
		writer[FeatureCheckConstraints] = true
	}
	walkFields(schema, "", func(_ string, f *StructField) {
		if _, ok := f.Metadata[metaInvariants]; ok {
			writer[FeatureInvariants] = true
		}
	})
	if strings.EqualFold(props[PropAppendOnly], "true") {
		writer[FeatureAppendOnly] = true
	}
	return featureProtocol(reader, writer), nil
}

// featureProtocol is the (3, 7) protocol listing these features, or
// (1, 7) when none of them is a reader feature. Reader features are
// listed as writer features too.
func featureProtocol(reader, writer map[string]bool) Protocol {
	for f := range reader {
		writer[f] = true
	}
	p := Protocol{MinReaderVersion: 1, MinWriterVersion: 7, WriterFeatures: sortedKeys(writer)}
	if len(reader) > 0 {
		p.MinReaderVersion = 3
		p.ReaderFeatures = sortedKeys(reader)
	}
	return p
}

// withTimestampNTZ returns p upgraded to support the timestampNtz feature
// (for a schema change that adds a timestamp_ntz column), and false when p
// already supports it. A legacy protocol moves to table features, keeping
// the features its versions implied.
func withTimestampNTZ(p Protocol) (Protocol, bool) {
	if p.MinReaderVersion >= 3 && p.HasReaderFeature(FeatureTimestampNTZ) {
		return p, false
	}
	reader := map[string]bool{FeatureTimestampNTZ: true}
	writer := map[string]bool{}
	if p.MinReaderVersion >= 3 {
		for _, f := range p.ReaderFeatures {
			reader[f] = true
		}
	} else if p.MinReaderVersion == 2 {
		reader[FeatureColumnMapping] = true
	}
	if p.MinWriterVersion >= 7 {
		for _, f := range p.WriterFeatures {
			writer[f] = true
		}
	} else {
		for _, f := range legacyWriterFeatures(p.MinWriterVersion) {
			writer[f] = true
		}
	}
	return featureProtocol(reader, writer), true
}

// legacyWriterFeatures are the features a legacy writer version implies.
func legacyWriterFeatures(v int) []string {
	var out []string
	if v >= 2 {
		out = append(out, FeatureAppendOnly, FeatureInvariants)
	}
	if v >= 3 {
		out = append(out, FeatureCheckConstraints)
	}
	if v >= 4 {
		out = append(out, FeatureChangeDataFeed, FeatureGeneratedColumns)
	}
	if v >= 5 {
		out = append(out, FeatureColumnMapping)
	}
	if v >= 6 {
		out = append(out, FeatureIdentityColumns)
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
