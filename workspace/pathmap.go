package workspace

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// PathMap maps a path prefix the pipelines use on Databricks or in an
// object store (/Volumes/cat/schema/vol, dbfs:/mnt/x, s3://bucket/x,
// abfss://c@account.dfs.core.windows.net/x) to a local folder, so a real
// workspace runs here unchanged (`paths:` in laktory-workbench.yaml).
type PathMap struct {
	// Prefix is the remote prefix, without a trailing slash (dbfs:/ and
	// /Volumes/ keep theirs); Local the folder (absolute).
	Prefix, Local string
	// Pos is the position of the mapping's key.
	Pos Pos
}

// remotePrefixes are the beginnings of a path that names Databricks
// storage or an object store, not this machine's files.
var remotePrefixes = []string{"/Volumes/", "dbfs:/", "/dbfs/"}

// IsRemotePath reports whether p names Databricks storage (/Volumes/...,
// dbfs:/..., /dbfs/...) or an object store (scheme://...): a path that
// only exists on this machine when laktory-workbench.yaml maps it.
func IsRemotePath(p string) bool {
	for _, r := range remotePrefixes {
		if strings.HasPrefix(p, r) {
			return true
		}
	}
	scheme, _, ok := strings.Cut(p, "://")
	return ok && scheme != "" && scheme != "file" && !strings.ContainsAny(scheme, "/\\.")
}

// MapPath returns the local path of p by the longest prefix of maps that
// p starts with (at a path component's boundary), and whether one did.
func MapPath(maps []PathMap, p string) (string, bool) {
	best := -1
	for i, m := range maps {
		if pathHasPrefix(p, m.Prefix) && (best < 0 || len(m.Prefix) > len(maps[best].Prefix)) {
			best = i
		}
	}
	if best < 0 {
		return p, false
	}
	m := maps[best]
	rest := strings.TrimLeft(strings.TrimPrefix(p, m.Prefix), "/")
	if rest == "" {
		return m.Local, true
	}
	return filepath.Join(m.Local, filepath.FromSlash(rest)), true
}

// pathHasPrefix reports whether p is prefix or lies below it.
func pathHasPrefix(p, prefix string) bool {
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(p, prefix)
	}
	return p == prefix || strings.HasPrefix(p, prefix+"/")
}

// cleanPrefix is a mapping's key without its trailing slashes, except for
// a prefix that is only a scheme or a root (dbfs:/, s3://, /Volumes/).
func cleanPrefix(k string) string {
	t := strings.TrimRight(k, "/")
	switch {
	case strings.HasSuffix(t, ":") || strings.HasSuffix(k, "://") && !strings.Contains(strings.TrimSuffix(k, "://"), "/"):
		return k
	case t == "/Volumes" || t == "/dbfs":
		return t + "/"
	}
	return t
}

// decodePaths reads `paths:`, a mapping of remote prefixes to local
// folders (relative to the config file).
func decodePaths(c *Config, v *yaml.Node, bad func(*yaml.Node, string, string, string)) {
	const hint = "write paths: {/Volumes/main/raw/landing: data/landing, dbfs:/mnt/raw: data/raw, s3://bucket/prefix: data/bucket}"
	if v.Kind != yaml.MappingNode {
		bad(v, CodeWrongType, "`paths` must map remote path prefixes (/Volumes/..., dbfs:/..., s3://..., abfss://...) to local folders", hint)
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode || !IsRemotePath(k.Value) {
			bad(k, CodeBadEnum, fmt.Sprintf("`paths`: %q is not a Databricks or object-store prefix (/Volumes/..., dbfs:/..., /dbfs/..., s3://..., abfss://...): local paths need no mapping", k.Value), hint)
			continue
		}
		prefix := cleanPrefix(k.Value)
		if slices.ContainsFunc(c.Paths, func(m PathMap) bool { return m.Prefix == prefix }) {
			bad(k, CodeDuplicateKey, fmt.Sprintf("`paths`: %s is mapped twice", prefix), "keep one")
			continue
		}
		local, ok := configPath(c, val, "paths: "+k.Value, bad)
		if !ok {
			continue
		}
		c.Paths = append(c.Paths, PathMap{Prefix: prefix, Local: local, Pos: Pos{File: c.File, Line: k.Line, Col: k.Column}})
	}
}

// ResolveDeclared resolves a path written in file as the pipelines' paths
// resolve: a remote path by the layout's `paths:` mapping (as written when
// none maps it), a relative one against the file's folder.
func (l Layout) ResolveDeclared(file, p string) string {
	if IsRemotePath(p) {
		local, _ := MapPath(l.Paths, p)
		return local
	}
	return ResolvePath(file, p)
}
