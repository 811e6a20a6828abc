package human

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Printable returns s as it may reach a terminal: the one sanitizer of
// the CLI and the TUI for text holding names, messages and data read from
// files and tables. Control characters (C0 but tab and newline, DEL, C1),
// bidirectional overrides, invalid UTF-8 and every escape sequence but a
// colour or style (SGR: bold, dim, italic, underline, reverse, strike,
// colours and their resets; never conceal or blink) are shown as Go
// escapes (\x1b[2J, \u202e) instead of acting on the terminal: data cannot
// clear the screen, move the cursor, set the title, ring the bell, emit a
// hyperlink or reorder what is shown.
func Printable(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			if n := sgrLen(s[i:]); n > 0 {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, c)
		case unsafeRune(r):
			if r < 0x80 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s needs no change (the common case, without an
// allocation).
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f {
			return false
		}
	}
	return true
}

func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e || r == 0x200f || r == 0x061c:
		return true // bidirectional embeddings, overrides, isolates and marks
	}
	return false
}

// sgrLen is the length of the SGR sequence s starts with (ESC [ params m)
// when every parameter is a colour or a style Printable lets through, 0
// otherwise.
func sgrLen(s string) int {
	if len(s) < 3 || s[1] != '[' {
		return 0
	}
	end := strings.IndexByte(s, 'm')
	if end < 2 || end > 64 {
		return 0
	}
	params := s[2:end]
	if params == "" {
		return end + 1
	}
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		n, err := strconv.Atoi(ps[i])
		if err != nil {
			return 0
		}
		switch {
		case n == 38 || n == 48 || n == 58: // extended colour: 5;n or 2;r;g;b
			k := 0
			if i+1 < len(ps) && ps[i+1] == "5" {
				k = 1
			} else if i+1 < len(ps) && ps[i+1] == "2" {
				k = 3
			}
			if k == 0 || i+1+k >= len(ps) {
				return 0
			}
			for _, p := range ps[i+2 : i+2+k] {
				if _, err := strconv.Atoi(p); err != nil {
					return 0
				}
			}
			i += 1 + k
		case n <= 4, n == 7, n == 9, n >= 21 && n <= 29, n >= 30 && n <= 37, n == 39,
			n >= 40 && n <= 47, n == 49, n >= 90 && n <= 97, n >= 100 && n <= 107:
		default:
			return 0 // blink (5, 6), conceal (8) and the rest
		}
	}
	return end + 1
}

// Writer wraps w so that what is written through it is Printable (each
// Write on its own: write an escape sequence in one piece). A program's
// own cursor control goes to w directly.
func Writer(w io.Writer) io.Writer { return printableWriter{w} }

type printableWriter struct{ w io.Writer }

func (p printableWriter) Write(b []byte) (int, error) {
	s := string(b)
	if clean(s) {
		return p.w.Write(b)
	}
	if _, err := io.WriteString(p.w, Printable(s)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Unwrap returns the writer a Writer writes to (w itself for any other).
func Unwrap(w io.Writer) io.Writer {
	if p, ok := w.(printableWriter); ok {
		return p.w
	}
	return w
}
