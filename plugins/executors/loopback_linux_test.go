package executors

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
)

// TestLoopbackPorts: a command without the network reaches the listed
// loopback ports, whose connections osbench serves (each by its own Serve),
// and nothing else: a port osbench listens on in the host's loopback is not
// in the command's, and the init's control socket is not among the
// command's descriptors.
func TestLoopbackPorts(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the network namespace needs root")
	}
	host, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	go func() {
		for {
			c, err := host.Accept()
			if err != nil {
				return
			}
			fmt.Fprintln(c, "host")
			c.Close()
		}
	}()
	hostPort := host.Addr().(*net.TCPAddr).Port

	answer := func(name string) func(net.Conn) {
		return func(c net.Conn) {
			defer c.Close()
			line, _ := bufio.NewReader(c).ReadString('\n')
			fmt.Fprintf(c, "%s got %s", name, line)
		}
	}
	ports := []LoopbackPort{{Port: 3128, Serve: answer("proxy")}, {Port: 8443, Serve: answer("relay")}}
	script := `
ask() { if exec 3<>/dev/tcp/127.0.0.1/$1; then echo "$2" >&3; read -r line <&3; echo "$line"; exec 3<&-; else echo "port $1 refused"; fi; }
ask 3128 one
ask 8443 two
ask 3128 three
ask ` + fmt.Sprint(hostPort) + ` four 2>/dev/null
echo sockets: $(for f in /proc/$$/fd/*; do readlink $f; done | grep -c socket)
`
	for _, tc := range []struct {
		name  string
		ports []LoopbackPort
		want  []string
	}{
		{"forwarded", ports, []string{"proxy got one", "relay got two", "proxy got three", fmt.Sprintf("port %d refused", hostPort), "sockets: 0"}},
		// The defence off: without the ports the command reaches nothing.
		{"none", nil, []string{"port 3128 refused", "port 8443 refused", "port 3128 refused", fmt.Sprintf("port %d refused", hostPort), "sockets: 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newTestLocal(t)
			res, out, errOut, err := runCapture(t, l, Cmd{
				Argv: []string{"bash", "-c", script}, WorkDir: scratchDir(t), LoopbackPorts: tc.ports,
			})
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("run: %v %+v\n%s", err, res, errOut)
			}
			got := strings.Split(strings.TrimSpace(out), "\n")
			if strings.Join(got, "|") != strings.TrimSpace(strings.Join(tc.want, "|")) {
				t.Errorf("output:\n%s\nwant:\n%s", out, strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestLoopbackPortsRejected(t *testing.T) {
	serve := func(c net.Conn) { c.Close() }
	for _, tc := range []struct {
		name  string
		ports []LoopbackPort
		want  string
	}{
		{"zero", []LoopbackPort{{Port: 0, Serve: serve}}, "out of range"},
		{"twice", []LoopbackPort{{Port: 80, Serve: serve}, {Port: 80, Serve: serve}}, "listed twice"},
		{"no serve", []LoopbackPort{{Port: 80}}, "no Serve"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, err := runCapture(t, newTestLocal(t), Cmd{Argv: []string{"true"}, WorkDir: scratchDir(t), LoopbackPorts: tc.ports})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
