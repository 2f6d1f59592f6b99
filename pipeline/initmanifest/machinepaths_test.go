package initmanifest

import "testing"

func TestMachinePaths(t *testing.T) {
	const cache = "/root/.cache/osbench"
	tests := []struct{ name, log, want string }{
		{"a Linux work dir", "open /root/.cache/osbench/work/r_linux_test-123/repo/x: denied",
			"open $WORK/repo/x: denied"},
		{"Wine's drive Z:", `panicked: mkdir Z:\root\.cache\osbench\work\rjeczalik-notify_windows_test-911813728\tmp\a: denied`,
			`panicked: mkdir $WORK\tmp\a: denied`},
		{"inside a test2json event", `{"Action":"output","Output":"mkdir z:\\root\\.cache\\osbench\\work\\w-1\\tmp: denied\n"}`,
			`{"Action":"output","Output":"mkdir $WORK\\tmp: denied\n"}`},
		{"the module cache", "/root/.cache/osbench/gomod/cache/x.zip: bad", "$CACHE/gomod/cache/x.zip: bad"},
		{"another directory is left alone", "/root/.cache/osbenchx/work/a and /tmp/x", "/root/.cache/osbenchx/work/a and /tmp/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(machinePaths([]byte(tt.log), cache)); got != tt.want {
				t.Errorf("machinePaths(%q)\n = %q\nwant %q", tt.log, got, tt.want)
			}
		})
	}
}
