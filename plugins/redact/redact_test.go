package redact

import (
	"bytes"
	"strings"
	"testing"
)

type buf struct{ bytes.Buffer }

func (*buf) Close() error { return nil }

// TestWriter: secrets are replaced wherever the writes split them, the
// longest first; output around them passes unchanged.
func TestWriter(t *testing.T) {
	set, err := New(map[string]string{"KEY": "sk-secret-1", "LONG": "sk-secret-12345", "TOKEN": "tok_abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"whole", []string{"key=sk-secret-1\n"}, "key=[secret KEY]\n"},
		{"split", []string{"key=sk-se", "cret-1 and tok_", "abcdef."}, "key=[secret KEY] and [secret TOKEN]."},
		{"longest wins", []string{"sk-secret-12345"}, "[secret LONG]"},
		{"prefix at the end", []string{"almost sk-secr"}, "almost sk-secr"},
		{"byte by byte", strings.Split("x sk-secret-1 y", ""), "x [secret KEY] y"},
		{"nothing secret", []string{"plain output\n"}, "plain output\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b buf
			w := set.Wrap(&b)
			for _, s := range tc.writes {
				if _, err := w.Write([]byte(s)); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got %q, want %q", b.String(), tc.want)
			}
		})
	}
}

func TestNewRefusesShortValues(t *testing.T) {
	if _, err := New(map[string]string{"PIN": "1234"}); err == nil || !strings.Contains(err.Error(), "PIN") {
		t.Errorf("error %v, want one naming PIN", err)
	}
}
