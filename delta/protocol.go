package delta

import (
	"fmt"
	"sort"
	"strings"
)

// Table feature names used by this package.
const (
	FeatureDeletionVectors     = "deletionVectors"
	FeatureColumnMapping       = "columnMapping"
	FeatureTimestampNTZ        = "timestampNtz"
	FeatureV2Checkpoint        = "v2Checkpoint"
	FeatureVacuumProtocolCheck = "vacuumProtocolCheck"
	// FeatureTypeWidening (and its preview name, which Delta 3.x wrote)
	// lets a column's type widen (int -> long, float -> double, date ->
	// timestamp_ntz, larger decimals...) without rewriting the data files:
	// older files keep the narrower type, which scans cast to the table's.
	FeatureTypeWidening        = "typeWidening"
	FeatureTypeWideningPreview = "typeWidening-preview"
)

// MaxReaderVersion is the highest minReaderVersion this package reads.
const MaxReaderVersion = 3

// SupportedReaderFeatures lists the reader features this package
// implements; a table listing any other reader feature is refused.
var SupportedReaderFeatures = []string{
	FeatureDeletionVectors,
	FeatureColumnMapping,
	FeatureTimestampNTZ,
	FeatureV2Checkpoint,
	FeatureVacuumProtocolCheck,
	FeatureTypeWidening,
	FeatureTypeWideningPreview,
}

// CheckReadable returns nil when this package can read a table with
// protocol p. Otherwise the error wraps ErrUnsupportedProtocol (reader
// version) or ErrUnsupportedFeature (naming every unsupported reader
// feature) and names the table.
func (p Protocol) CheckReadable(table string) error {
	if p.MinReaderVersion < 1 || p.MinReaderVersion > MaxReaderVersion {
		return fmt.Errorf("%w: table %s needs reader version %d; laktory reads versions 1 to %d",
			ErrUnsupportedProtocol, table, p.MinReaderVersion, MaxReaderVersion)
	}
	if p.MinReaderVersion < 3 {
		return nil
	}
	var unsupported []string
	for _, f := range p.ReaderFeatures {
		if !contains(SupportedReaderFeatures, f) {
			unsupported = append(unsupported, f)
		}
	}
	if len(unsupported) > 0 {
		sort.Strings(unsupported)
		return fmt.Errorf("%w: table %s uses reader feature %s, which laktory does not implement (it reads: %s)",
			ErrUnsupportedFeature, table, strings.Join(unsupported, ", "), strings.Join(SupportedReaderFeatures, ", "))
	}
	return nil
}

// columnMappingEnabled reports whether the protocol lets the
// delta.columnMapping.mode property take effect for readers.
func (p Protocol) columnMappingEnabled() bool {
	return p.MinReaderVersion == 2 || (p.MinReaderVersion >= 3 && p.HasReaderFeature(FeatureColumnMapping))
}
