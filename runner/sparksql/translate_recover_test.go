package sparksql

import (
	"errors"
	"strings"
	"testing"
)

// A panic anywhere in translation is a diagnostic naming the construct,
// never a crash of validate or a run.
func TestTranslatePanicIsDiagnostic(t *testing.T) {
	in := []Input{{Ref: "df", SQL: "t", Schema: []Column{{Name: "k", Type: tInt}, {Name: "x", Type: tInt}}}}
	// A lambda over an aggregate in a grouped SELECT reached a nil
	// pointer in the grouped-query check.
	_, err := Translate("SELECT k, transform(collect_list(x), s -> s + 1) AS xs FROM {df} GROUP BY k", in, Options{})
	if err == nil {
		return // translated
	}
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want an *Error", err)
	}
	if !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrSpark) {
		t.Fatalf("%v: neither unsupported nor a Spark error", err)
	}
	if errors.Is(err, ErrInternal) && !strings.Contains(pe.Msg, "`SELECT k, transform(") {
		t.Errorf("the diagnostic does not name the construct: %s", pe.Msg)
	}
}

func TestPanicErrorNamesConstruct(t *testing.T) {
	text := "a + nope(b)"
	e, err := ParseExpr(text)
	if err != nil {
		t.Fatal(err)
	}
	call := e.(*Binary).R
	err = panicError(text, []Node{e, call}, "boom")
	var pe *Error
	if !errors.As(err, &pe) || !errors.Is(err, ErrInternal) || !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrSpark) {
		t.Fatalf("%v: want an *Error that is ErrInternal and ErrUnsupported", err)
	}
	if pe.Pos != 4 || !strings.Contains(pe.Msg, "`nope(b)`") || !strings.Contains(pe.Msg, "boom") {
		t.Errorf("got pos %d, %q", pe.Pos, pe.Msg)
	}
	// The parser's panics are caught too (no resolver yet).
	err = func() (err error) {
		defer recoverTranslation("x", nil, &err)
		panic("parser bug")
	}()
	if !errors.Is(err, ErrInternal) || !strings.Contains(err.Error(), "this SQL") {
		t.Errorf("parser panic: %v", err)
	}
}
