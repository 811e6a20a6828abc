package human

import (
	"bytes"
	"os"
	"testing"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, tabs\tand\nnewlines":                     "plain text, tabs\tand\nnewlines",
		"unicode: é ü 表 ✓":                                    "unicode: é ü 表 ✓",
		"clear\x1b[2Jscreen":                                  `clear\x1b[2Jscreen`,
		"title\x1b]0;pwned\x07":                               `title\x1b]0;pwned\x07`,
		"link \x1b]8;;http://x\x1b\\a\x1b]8;;\x1b\\":          `link \x1b]8;;http://x\x1b\a\x1b]8;;\x1b\`,
		"up\x1b[5A\x1b[Jerase":                                `up\x1b[5A\x1b[Jerase`,
		"bell\a back\b cr\r del\x7f nul\x00":                  `bell\x07 back\x08 cr\x0d del\x7f nul\x00`,
		"c1 csi \u009b2J":                                     `c1 csi \u009b2J`,
		"bidi \u202eevil\u202c":                               `bidi \u202eevil\u202c`,
		"bad utf8 \xff\xfe":                                   `bad utf8 \xff\xfe`,
		"\x1b[1;31mred bold\x1b[0m":                           "\x1b[1;31mred bold\x1b[0m",
		"\x1b[38;5;208m256\x1b[39m \x1b[48;2;1;2;3mrgb\x1b[m": "\x1b[38;5;208m256\x1b[39m \x1b[48;2;1;2;3mrgb\x1b[m",
		"conceal\x1b[8mhidden\x1b[28m":                        `conceal\x1b[8mhidden` + "\x1b[28m",
		"blink\x1b[5m":                                        `blink\x1b[5m`,
		"truncated \x1b[38;5m":                                `truncated \x1b[38;5m`,
		"esc at end \x1b":                                     `esc at end \x1b`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := Writer(&b)
	if n, err := w.Write([]byte("a\x1b[2Jb\n")); err != nil || n != 7 {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if b.String() != `a\x1b[2Jb`+"\n" {
		t.Fatalf("wrote %q", b.String())
	}
	if Unwrap(w) != &b || Unwrap(os.Stdout) != os.Stdout {
		t.Fatal("Unwrap")
	}
}
