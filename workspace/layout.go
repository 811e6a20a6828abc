package workspace

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Names of the workspace's local state, relative to the workspace folder.
const (
	StateDirName       = ".laktory"
	LakeDirName        = "lake"
	CheckpointsDirName = "checkpoints"
	StateDBName        = "state.db"

	// DefaultCatalog and DefaultSchema complete a table_name that does not
	// name them.
	DefaultCatalog = "main"
	DefaultSchema  = "default"

	// LakeEnv names the environment variable that overrides the lake root.
	LakeEnv = "LAKTORY_LAKE"
)

// Layout locates a workspace's local state on disk.
type Layout struct {
	Dir  string // workspace folder (absolute)
	Lake string // lake root (absolute)
	// Roots are the extra roots of the workbench config (absolute).
	Roots []string
	// Paths map remote path prefixes to local folders (the config's
	// `paths:`).
	Paths []PathMap
}

// NewLayout returns the layout of the workspace in dir. lakeOverride (the
// --lake flag) wins over the LAKTORY_LAKE value in env, which wins over the
// default DIR/.laktory/lake. Relative overrides resolve against the current
// folder.
func NewLayout(dir, lakeOverride, env string) (Layout, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Layout{}, err
	}
	l := Layout{Dir: abs, Lake: filepath.Join(abs, StateDirName, LakeDirName)}
	for _, o := range []string{lakeOverride, env} {
		if o != "" {
			if l.Lake, err = LakeLocation(o); err != nil {
				return Layout{}, fmt.Errorf("the lake %w", err)
			}
			break
		}
	}
	return l, nil
}

// LakeLocation checks a lake given as a location: a local folder (made
// absolute) or an S3 location, s3://bucket/prefix (s3a:// is the same
// store, written s3://). Any other scheme is refused: a lake may not become
// a local folder named "s3:" or "gs:".
func LakeLocation(p string) (string, error) {
	if !IsRemoteLake(p) {
		if err := LocalFolder(p); err != nil {
			return "", err
		}
		return filepath.Abs(p)
	}
	rest, _ := strings.CutPrefix(p, "s3a://")
	if rest != p {
		p = "s3://" + rest
	}
	bucket, prefix, _ := strings.Cut(strings.TrimPrefix(p, "s3://"), "/")
	prefix = strings.TrimRight(prefix, "/")
	if bucket == "" || strings.ContainsAny(bucket, " \\") {
		return "", fmt.Errorf("%s names no bucket: write s3://BUCKET/PREFIX", p)
	}
	for _, part := range strings.Split(prefix, "/") {
		if part == "." || part == ".." || (part == "" && prefix != "") {
			return "", fmt.Errorf("%s has an empty, . or .. part in its prefix: write s3://BUCKET/PREFIX with plain folder names", p)
		}
	}
	if prefix == "" {
		return "s3://" + bucket, nil
	}
	return "s3://" + bucket + "/" + prefix, nil
}

// IsRemoteLake reports whether a lake location names an S3 bucket
// (s3:// or s3a://) rather than a local folder.
func IsRemoteLake(p string) bool {
	return strings.HasPrefix(p, "s3://") || strings.HasPrefix(p, "s3a://")
}

// RemoteLake reports whether the layout's lake is in an S3 bucket.
func (l Layout) RemoteLake() bool { return IsRemoteLake(l.Lake) }

// AllowedRoots are the folders the product may create, replace and
// delete paths strictly inside: the workspace folder, the lake root and the
// roots of the workbench config.
func (l Layout) AllowedRoots() []string {
	roots := []string{l.Dir}
	if l.lakeTrusted() {
		roots = append(roots, l.Lake)
	}
	return append(roots, l.Roots...)
}

// lakeTrusted reports whether the lake may be a root: a lake the workspace
// was pointed at (--lake, LAKTORY_LAKE, the config's lake) always; the
// default DIR/.laktory/lake only while symbolic links do not lead it
// outside the workspace (a .laktory/lake linked onto another folder would
// make that folder's content tables, and let RESET DROP delete it).
func (l Layout) lakeTrusted() bool {
	if l.Lake != filepath.Join(l.Dir, StateDirName, LakeDirName) || l.RemoteLake() {
		return true
	}
	real, err := RealPath(l.Lake)
	if err != nil {
		return false
	}
	dir, err := RealPath(l.Dir)
	if err != nil {
		return false
	}
	return real == dir || strictlyInside(real, dir)
}

// StateDir is DIR/.laktory.
func (l Layout) StateDir() string { return filepath.Join(l.Dir, StateDirName) }

// CheckpointsDir is DIR/.laktory/checkpoints.
func (l Layout) CheckpointsDir() string { return filepath.Join(l.StateDir(), CheckpointsDirName) }

// StateDB is DIR/.laktory/state.db.
func (l Layout) StateDB() string { return filepath.Join(l.StateDir(), StateDBName) }

// TableRef is a table name split into catalog, schema and table.
type TableRef struct {
	Catalog, Schema, Table string
}

// ParseTableName splits "t", "s.t" or "c.s.t", filling the defaults.
// catalog and schema (a sink's catalog_name / schema_name) apply when the
// name does not carry them; empty means the default.
func ParseTableName(name, catalog, schema string) TableRef {
	parts := strings.Split(name, ".")
	r := TableRef{Catalog: catalog, Schema: schema}
	switch len(parts) {
	case 1:
		r.Table = parts[0]
	case 2:
		r.Schema, r.Table = parts[0], parts[1]
	default:
		r.Catalog, r.Schema, r.Table = parts[len(parts)-3], parts[len(parts)-2], parts[len(parts)-1]
	}
	if r.Catalog == "" {
		r.Catalog = DefaultCatalog
	}
	if r.Schema == "" {
		r.Schema = DefaultSchema
	}
	return r
}

// String is the fully qualified name catalog.schema.table.
func (r TableRef) String() string { return r.Catalog + "." + r.Schema + "." + r.Table }

// TablePath is the folder of a table in the lake: lake/<catalog>/<schema>/<table>.
// In a lake in a bucket it is the table's URI, s3://bucket/prefix/<catalog>/<schema>/<table>.
func (l Layout) TablePath(r TableRef) string {
	if l.RemoteLake() {
		return l.Lake + "/" + r.Catalog + "/" + r.Schema + "/" + r.Table
	}
	return filepath.Join(l.Lake, r.Catalog, r.Schema, r.Table)
}

// ResolvePath resolves a path: value written in the file at declaredIn:
// absolute paths stay, relative ones are joined to the file's folder.
func ResolvePath(declaredIn, p string) string {
	if p == "" || filepath.IsAbs(p) || strings.Contains(p, "://") {
		return p
	}
	return filepath.Clean(filepath.Join(filepath.Dir(declaredIn), p))
}

// LocalFolder refuses a location that names an object store
// (s3://bucket/lake, gs://, abfss://...) where a local folder is needed:
// taken as a path, it would become a folder named "s3:" in the workspace.
// Only the lake may be in a bucket (LakeLocation, docs/object-storage.md).
func LocalFolder(p string) error {
	scheme, _, ok := strings.Cut(p, "://")
	if !ok || scheme == "" || strings.ContainsAny(scheme, "/\\.") {
		return nil
	}
	if scheme == "file" {
		return fmt.Errorf("%s is a file:// URI: write the folder's path without file://", p)
	}
	return fmt.Errorf("%s names an object store (%s://), and a local folder is needed here (only the lake may be in a bucket, s3://BUCKET/PREFIX)", p, scheme)
}
