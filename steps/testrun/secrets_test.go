package testrun

import (
	"bytes"
	"strings"
	"testing"
)

func TestWithSecrets(t *testing.T) {
	env := map[string]string{"LONG_ONE": "abcdef-secret-ghij", "INNER": "secret-gh", "SHORT": "abc"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		names   []string
		wantErr string
	}{
		{[]string{"LONG_ONE", "INNER"}, ""},
		{[]string{"MISSING"}, "secret_env names MISSING, which is not set in osbench's environment"},
		{[]string{"SHORT"}, "the value of SHORT has 3 bytes, fewer than the 6"},
	}
	for _, tt := range tests {
		got, _, err := withSecrets([]string{"PATH=/bin"}, tt.names, lookup)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%v: %v", tt.names, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%v: error %v, want one containing %q", tt.names, err, tt.wantErr)
		case tt.wantErr == "" && len(got) != 1+len(tt.names):
			t.Errorf("%v: env %q", tt.names, got)
		}
	}
}

// TestRedactor: every value is replaced wherever the writes split it, the
// longer of two overlapping secrets wins, and nothing else changes.
func TestRedactor(t *testing.T) {
	env := map[string]string{"LONG_ONE": "abcdef-secret-ghij", "INNER": "secret-gh", "TOKEN": "tok123456"}
	_, secrets, err := withSecrets(nil, []string{"INNER", "LONG_ONE", "TOKEN"}, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	input := "start abcdef-secret-ghij mid secret-gh tok123456tok123456 end tok12"
	want := "start [secret LONG_ONE] mid [secret INNER] [secret TOKEN][secret TOKEN] end tok12"
	for chunk := 1; chunk <= len(input); chunk++ {
		var out bytes.Buffer
		r := secrets.redact(&out)
		for i := 0; i < len(input); i += chunk {
			if _, err := r.Write([]byte(input[i:min(i+chunk, len(input))])); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Fatalf("writes of %d bytes: %q, want %q", chunk, out.String(), want)
		}
	}
	// No secrets: a plain pass-through; a nil writer discards.
	var out bytes.Buffer
	secretSet{}.redact(&out).Write([]byte(input))
	if out.String() != input {
		t.Errorf("without secrets: %q", out.String())
	}
	if _, err := secrets.redact(nil).Write([]byte("x")); err != nil {
		t.Error(err)
	}
}
