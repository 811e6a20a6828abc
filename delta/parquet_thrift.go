package delta

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// This file reads and writes the Thrift compact protocol that Parquet
// footers and page headers are written in, as a tree that keeps every
// field it does not know (DuckDB's logical types, field ids, statistics,
// geo metadata...): a footer read and written back unchanged is the same
// bytes (TestThriftRoundTrip), so re-encoding a column chunk
// (parquet_encode.go) changes only the offsets and sizes it means to.

// Thrift compact protocol element types.
const (
	tcStop      = 0
	tcTrue      = 1
	tcFalse     = 2
	tcByte      = 3
	tcI16       = 4
	tcI32       = 5
	tcI64       = 6
	tcDouble    = 7
	tcBinary    = 8
	tcList      = 9
	tcSet       = 10
	tcMap       = 11
	tcStruct    = 12
	tcMaxDepth  = 32
	tcMaxLength = 1 << 30
)

var errThrift = errors.New("malformed Parquet metadata")

// tValue is one Thrift value: an integer (bool, byte, i16, i32, i64 as
// int), a double, bytes, a struct or a list/set/map.
type tValue struct {
	typ    byte
	i      int64
	d      float64
	b      []byte
	fields []tField // struct
	elem   byte     // list/set element type; map key type
	elem2  byte     // map value type
	items  []tValue // list/set elements; map keys and values, alternating
}

// tField is a struct field.
type tField struct {
	id int16
	v  tValue
}

// field returns the struct's field id, or nil.
func (v *tValue) field(id int16) *tValue {
	for i := range v.fields {
		if v.fields[i].id == id {
			return &v.fields[i].v
		}
	}
	return nil
}

// int returns the integer field id (0 when absent).
func (v *tValue) int(id int16) int64 {
	if f := v.field(id); f != nil {
		return f.i
	}
	return 0
}

// setInt sets the integer field id, which must exist.
func (v *tValue) setInt(id int16, n int64) {
	if f := v.field(id); f != nil {
		f.i = n
	}
}

// drop removes field id.
func (v *tValue) drop(id int16) {
	for i := range v.fields {
		if v.fields[i].id == id {
			v.fields = append(v.fields[:i], v.fields[i+1:]...)
			return
		}
	}
}

// list returns the elements of list field id (nil when absent).
func (v *tValue) list(id int16) []tValue {
	if f := v.field(id); f != nil && (f.typ == tcList || f.typ == tcSet) {
		return f.items
	}
	return nil
}

// tReader decodes compact-protocol bytes.
type tReader struct {
	b   []byte
	pos int
}

func (r *tReader) fail(what string) error {
	return fmt.Errorf("%w: %s at byte %d", errThrift, what, r.pos)
}

func (r *tReader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, r.fail("unexpected end")
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

func (r *tReader) uvarint() (uint64, error) {
	n, k := binary.Uvarint(r.b[r.pos:])
	if k <= 0 {
		return 0, r.fail("bad varint")
	}
	r.pos += k
	return n, nil
}

func (r *tReader) zigzag() (int64, error) {
	n, err := r.uvarint()
	return int64(n>>1) ^ -int64(n&1), err
}

func (r *tReader) length() (int, error) {
	n, err := r.uvarint()
	if err != nil {
		return 0, err
	}
	if n > tcMaxLength {
		return 0, r.fail("length too large")
	}
	return int(n), nil
}

// value reads a value of type typ.
func (r *tReader) value(typ byte, depth int) (tValue, error) {
	if depth > tcMaxDepth {
		return tValue{}, r.fail("nesting too deep")
	}
	v := tValue{typ: typ}
	var err error
	switch typ {
	case tcTrue, tcFalse:
		// a bool inside a list, set or map is one byte
		var c byte
		c, err = r.byte()
		v.i = int64(c)
	case tcByte:
		var c byte
		c, err = r.byte()
		v.i = int64(int8(c))
	case tcI16, tcI32, tcI64:
		v.i, err = r.zigzag()
	case tcDouble:
		if r.pos+8 > len(r.b) {
			return v, r.fail("unexpected end")
		}
		v.d = math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.pos:]))
		r.pos += 8
	case tcBinary:
		var n int
		if n, err = r.length(); err == nil {
			if r.pos+n > len(r.b) {
				return v, r.fail("unexpected end")
			}
			v.b = r.b[r.pos : r.pos+n]
			r.pos += n
		}
	case tcStruct:
		err = r.structFields(&v, depth)
	case tcList, tcSet:
		var h byte
		if h, err = r.byte(); err != nil {
			return v, err
		}
		n := int(h >> 4)
		v.elem = h & 0x0f
		if n == 15 {
			if n, err = r.length(); err != nil {
				return v, err
			}
		}
		if n > len(r.b)-r.pos {
			return v, r.fail("list too long")
		}
		v.items = make([]tValue, n)
		for i := range v.items {
			if v.items[i], err = r.value(v.elem, depth+1); err != nil {
				return v, err
			}
		}
	case tcMap:
		var n int
		if n, err = r.length(); err != nil || n == 0 {
			return v, err
		}
		var h byte
		if h, err = r.byte(); err != nil {
			return v, err
		}
		v.elem, v.elem2 = h>>4, h&0x0f
		if n > len(r.b)-r.pos {
			return v, r.fail("map too long")
		}
		v.items = make([]tValue, 2*n)
		for i := 0; i < n; i++ {
			if v.items[2*i], err = r.value(v.elem, depth+1); err != nil {
				return v, err
			}
			if v.items[2*i+1], err = r.value(v.elem2, depth+1); err != nil {
				return v, err
			}
		}
	default:
		return v, r.fail(fmt.Sprintf("unknown type %d", typ))
	}
	return v, err
}

// structFields reads the fields of a struct up to its stop byte.
func (r *tReader) structFields(v *tValue, depth int) error {
	last := int16(0)
	for {
		h, err := r.byte()
		if err != nil {
			return err
		}
		if h == tcStop {
			return nil
		}
		typ := h & 0x0f
		id := last + int16(h>>4)
		if h>>4 == 0 {
			n, err := r.zigzag()
			if err != nil {
				return err
			}
			id = int16(n)
		}
		last = id
		var fv tValue
		if typ == tcTrue || typ == tcFalse {
			fv = tValue{typ: typ, i: int64(2 - typ)} // the type is the value
		} else if fv, err = r.value(typ, depth+1); err != nil {
			return err
		}
		v.fields = append(v.fields, tField{id: id, v: fv})
	}
}

// readStruct decodes the struct at the start of b and returns it with
// the number of bytes it took.
func readStruct(b []byte) (tValue, int, error) {
	r := tReader{b: b}
	v := tValue{typ: tcStruct}
	err := r.structFields(&v, 0)
	return v, r.pos, err
}

// appendStruct encodes a struct's fields (as Apache Thrift does: field id
// deltas of 1 to 15 in the header byte, else the id after it).
func appendStruct(dst []byte, v *tValue) []byte {
	last := int16(0)
	for _, f := range v.fields {
		typ := f.v.typ
		if typ == tcTrue || typ == tcFalse {
			typ = tcFalse
			if f.v.i != 0 {
				typ = tcTrue
			}
		}
		if d := f.id - last; d > 0 && d <= 15 {
			dst = append(dst, byte(d)<<4|typ)
		} else {
			dst = append(dst, typ)
			dst = binary.AppendUvarint(dst, zigzag(int64(f.id)))
		}
		last = f.id
		if typ != tcTrue && typ != tcFalse {
			dst = appendValue(dst, &f.v)
		}
	}
	return append(dst, tcStop)
}

func zigzag(n int64) uint64 { return uint64(n<<1) ^ uint64(n>>63) }

// appendValue encodes a value (not a struct field's bool).
func appendValue(dst []byte, v *tValue) []byte {
	switch v.typ {
	case tcTrue, tcFalse, tcByte:
		return append(dst, byte(v.i))
	case tcI16, tcI32, tcI64:
		return binary.AppendUvarint(dst, zigzag(v.i))
	case tcDouble:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.d))
	case tcBinary:
		dst = binary.AppendUvarint(dst, uint64(len(v.b)))
		return append(dst, v.b...)
	case tcStruct:
		return appendStruct(dst, v)
	case tcList, tcSet:
		if n := len(v.items); n < 15 {
			dst = append(dst, byte(n)<<4|v.elem)
		} else {
			dst = append(dst, 0xf0|v.elem)
			dst = binary.AppendUvarint(dst, uint64(n))
		}
		for i := range v.items {
			dst = appendValue(dst, &v.items[i])
		}
		return dst
	case tcMap:
		n := len(v.items) / 2
		dst = binary.AppendUvarint(dst, uint64(n))
		if n == 0 {
			return dst
		}
		dst = append(dst, v.elem<<4|v.elem2)
		for i := range v.items {
			dst = appendValue(dst, &v.items[i])
		}
		return dst
	}
	return dst
}
