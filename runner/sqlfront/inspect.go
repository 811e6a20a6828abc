package sqlfront

import "reflect"

// Inspect walks the syntax tree below root depth first, as go/ast's
// Inspect does: f is called on every non-nil node (a pointer held in a
// field, a slice or an interface of the tree), and the nodes below it are
// walked only when f returns true. Fields are found by reflection, so a
// node type added to the tree is walked without a case of its own.
func Inspect(root any, f func(node any) bool) {
	inspect(reflect.ValueOf(root), f)
}

func inspect(v reflect.Value, f func(any) bool) {
	if !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer && !f(v.Interface()) {
			return
		}
		inspect(v.Elem(), f)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				inspect(v.Field(i), f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			inspect(v.Index(i), f)
		}
	}
}
