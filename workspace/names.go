package workspace

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxIdentifierLen is the longest catalog, schema or table name (Unity
// Catalog's limit).
const MaxIdentifierLen = 255

// IdentifierProblem says why name is not a catalog, schema or table name,
// "" when it is one. Names are identifiers, never paths: as Unity Catalog
// requires, they are 1 to 255 characters, without a period, a space, a
// slash or a backslash, nor a control character (so never "." or "..").
func IdentifierProblem(name string) string {
	switch {
	case name == "":
		return "is empty"
	case !utf8.ValidString(name):
		return "is not valid UTF-8"
	case utf8.RuneCountInString(name) > MaxIdentifierLen:
		return fmt.Sprintf("is longer than %d characters", MaxIdentifierLen)
	}
	for _, r := range name {
		switch {
		case r == '.':
			return "holds a period"
		case r == ' ':
			return "holds a space"
		case r == '/' || r == '\\':
			return fmt.Sprintf("holds the path separator %q", r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return fmt.Sprintf("holds the control character %U", r)
		}
	}
	return ""
}

// identifierHint says what a catalog, schema or table name may hold.
const identifierHint = "a name is an identifier, not a path: letters, digits, `_`, `-` and other characters except periods, spaces, slashes, backslashes and control characters (Unity Catalog's rule), at most 255; split a full name as catalog.schema.table"

// tableRef parses the table_name of o with its catalog_name and
// schema_name. Every part must be an identifier (IdentifierProblem): a
// name that is not one is an error at its key and names no table (nil),
// so no folder is ever computed from it. A name with an unresolved
// ${vars.x} is parsed but names no table either.
func (d *decoder) tableRef(o *obj, name, catalog, schema string) (*TableRef, TableID) {
	if name == "" {
		return nil, ""
	}
	if strings.Contains(name+catalog+schema, "${") {
		r := ParseTableName(name, catalog, schema)
		return &r, ""
	}
	ok := true
	bad := func(key, part, problem string) {
		ok = false
		d.errorf(o.loc.At(key), CodeBadName, identifierHint, "`%s` is not a valid name: %q %s", key, part, problem)
	}
	for _, kv := range [][2]string{{"catalog_name", catalog}, {"schema_name", schema}} {
		if kv[1] != "" {
			if p := IdentifierProblem(kv[1]); p != "" {
				bad(kv[0], kv[1], p)
			}
		}
	}
	parts := strings.Split(name, ".")
	if len(parts) > 3 {
		bad("table_name", name, "has more than three parts (catalog.schema.table)")
	} else {
		for _, part := range parts {
			if p := IdentifierProblem(part); p != "" {
				bad("table_name", part, p)
				break
			}
		}
	}
	if !ok {
		return nil, ""
	}
	r := ParseTableName(name, catalog, schema)
	return &r, d.tableID(name, &r)
}
