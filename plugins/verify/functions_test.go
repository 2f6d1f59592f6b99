package verify

import (
	"reflect"
	"testing"
)

func TestFunctions(t *testing.T) {
	tests := []struct {
		file, src string
		want      []Function
		err       bool
	}{
		{
			file: "home_unix.go",
			src:  "package p\n\nimport \"os\"\n\nfunc homeDir() string {\n\treturn os.Getenv(\"HOME\")\n}\n\nvar x = 1\n\nfunc (w *W) Close() error {\n\treturn nil\n}\n",
			want: []Function{{Name: "homeDir", From: 5, To: 7}, {Name: "W.Close", From: 11, To: 13}},
		},
		{
			file: "src/unix/fs.c",
			src:  "#include <unistd.h>\n\nstatic int is_dir(const char *p)\n{\n  return 0;\n}\n\nint uv_fs(void) {\n#ifdef _WIN32\n  return 1;\n#else\n  return 2;\n#endif\n}\n",
			want: []Function{{Name: "is_dir", From: 3, To: 6}, {Name: "uv_fs", From: 8, To: 14}},
		},
		{file: "broken.go", src: "package p\nfunc {", err: true},
		{file: "notes.txt", src: "hello", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := Functions(tt.file, []byte(tt.src))
			if tt.err {
				if err == nil {
					t.Fatalf("Functions = %v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Functions = %+v, want %+v", got, tt.want)
			}
		})
	}
}
