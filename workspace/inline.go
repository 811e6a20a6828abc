package workspace

import (
	"fmt"
	"slices"
)

// InlineData is a DATAFRAME source's `data` as Laktory 0.13.1's
// DataFrameDataSource takes it (dict[str, list] | list[dict]): by columns
// (a mapping of lists, ByColumn) or by rows (a list of mappings). Values
// are nil, bool, int64, float64, string, or for what local runs do not
// type yet, []any, map[string]any or Timestamp.
type InlineData struct {
	ByColumn bool
	// Columns are the names in the order written: a mapping's keys, or the
	// keys of the rows in the order they first appear.
	Columns []string
	// Values holds, by column, the column's values (ByColumn), else by
	// row, each row's values by key (a key a row lacks is absent).
	ColumnValues [][]any
	Rows         []map[string]any
	// RowKeys are each row's keys in the order written.
	RowKeys [][]string
}

// Timestamp is a YAML date or timestamp (`2024-01-01`), which Laktory's
// loader reads as a Python date or datetime.
type Timestamp string

// inlineData decodes a DATAFRAME source's `data`.
func (d *decoder) inlineData(o *obj) *InlineData {
	v := o.raw("data")
	if v.isNull() {
		return nil
	}
	v = d.resolve(v)
	bad := func() *InlineData {
		d.errorf(o.loc.At("data"), CodeWrongType, "write the columns as a mapping of lists ({x: [1, 2]}) or the rows as a list of mappings ([{x: 1}, {x: 2}])",
			"`data` of %s must be a dict of lists (dict[str, list]) or a list of dicts (list[dict]), got %s", o.what, v.kindName())
		return nil
	}
	out := &InlineData{}
	switch v.kind {
	case vMap:
		out.ByColumn = true
		for i, k := range v.keys {
			col := d.resolve(v.vals[i])
			if col.kind != vSeq {
				return bad()
			}
			vals := make([]any, len(col.vals))
			for j, c := range col.vals {
				vals[j] = d.inlineValue(c)
			}
			out.Columns = append(out.Columns, k.value)
			out.ColumnValues = append(out.ColumnValues, vals)
		}
	case vSeq:
		for _, r := range v.vals {
			r = d.resolve(r)
			if r.kind != vMap {
				return bad()
			}
			row := map[string]any{}
			var keys []string
			for i, k := range r.keys {
				row[k.value] = d.inlineValue(r.vals[i])
				keys = append(keys, k.value)
				if !slices.Contains(out.Columns, k.value) {
					out.Columns = append(out.Columns, k.value)
				}
			}
			out.Rows = append(out.Rows, row)
			out.RowKeys = append(out.RowKeys, keys)
		}
	default:
		return bad()
	}
	return out
}

func (d *decoder) inlineValue(n *vnode) any {
	n = d.resolve(n)
	if n != nil && n.kind == vScalar && n.tag == "!!timestamp" {
		return Timestamp(n.value)
	}
	return d.toAny(n)
}

// String describes the data for messages.
func (x *InlineData) String() string {
	if x.ByColumn {
		return fmt.Sprintf("data of %d columns", len(x.Columns))
	}
	return fmt.Sprintf("data of %d rows", len(x.Rows))
}
