package sparksql

import "strings"

// Spark orders structs field by field and arrays element by element with
// a NULL field or element before any value (its interpreted ordering is
// ascending, nulls first, at every level); DuckDB puts nested NULLs after
// every value. orderKey maps a value of such a type to a key DuckDB orders
// as Spark orders the value: each nested field and element becomes
// {n: is it not NULL, v: its key}. A NULL value stays NULL (aggregates
// skip it, comparisons with it are NULL); atomic types are their own key.

// needsOrderKey: t nests values that may be NULL.
func needsOrderKey(t *Type) bool {
	return t.Kind == KStruct || t.Kind == KArray
}

// orderKey is the DuckDB SQL of sql's ordering key (sql of type t).
func (r *resolver) orderKey(sql string, t *Type) string {
	if !needsOrderKey(t) {
		return sql
	}
	return "CASE WHEN " + sql + " IS NULL THEN NULL ELSE " + r.nestedKey(sql, t) + " END"
}

// nestedKey is the key of a non-NULL value of a nested type.
func (r *resolver) nestedKey(sql string, t *Type) string {
	switch t.Kind {
	case KStruct:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = duckIdent(f.Name) + " := " + r.nullFirst("struct_extract("+sql+", "+duckString(f.Name)+")", f.Type)
		}
		return "struct_pack(" + strings.Join(parts, ", ") + ")"
	case KArray:
		v := r.lambdaName()
		return "list_transform(" + sql + ", " + v + " -> " + r.nullFirst(v, t.Elem) + ")"
	}
	return sql
}

// nullFirst is the key of a nested field or element: NULL first.
func (r *resolver) nullFirst(sql string, t *Type) string {
	key := sql
	if needsOrderKey(t) {
		key = "CASE WHEN " + sql + " IS NULL THEN NULL ELSE " + r.nestedKey(sql, t) + " END"
	}
	return "struct_pack(n := (" + sql + " IS NOT NULL), v := " + key + ")"
}

// listSort is DuckDB's list_sort(arr, dir, nulls) ordering elements of
// type elem as Spark does (by their keys when they nest NULLs).
func (r *resolver) listSort(arr string, elem *Type, dir, nulls string) string {
	if !needsOrderKey(elem) {
		return "list_sort(" + arr + ", '" + dir + "', '" + nulls + "')"
	}
	v, e := r.lambdaName(), r.lambdaName()
	pairs := "list_transform(" + arr + ", " + v + " -> CASE WHEN " + v + " IS NULL THEN NULL ELSE struct_pack(k := " + r.nestedKey(v, elem) + ", v := " + v + ") END)"
	return "list_transform(list_sort(" + pairs + ", '" + dir + "', '" + nulls + "'), " + e + " -> struct_extract(" + e + ", 'v'))"
}
