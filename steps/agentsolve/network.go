package agentsolve

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/osbench/osbench/plugins/egress"
	"github.com/osbench/osbench/plugins/executors"
)

// SideEgress is the side artifact logging every connection the agent asked
// the proxy for: allowed, refused or failed (`osbench logs --name
// egress.log`).
const SideEgress = "egress.log"

// EnvProxy is the proxy's URL, also in HTTP(S)_PROXY and ALL_PROXY.
const EnvProxy = "OSBENCH_PROXY"

// proxyPort is where the agent finds the proxy on its loopback, unless an
// allowed loopback endpoint takes that port (the next free one then).
const proxyPort = 3128

// proxyVars are the variables clients read for a proxy, both cases (curl
// and Python read the lower-case ones first, Go and Node the upper).
var proxyVars = []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"}

// isolated reports whether the executor runs the agent in a network
// namespace of its own (a root osbench on Linux: executors/netns_linux.go).
// Only there is the proxy the agent's way out; elsewhere the agent has the
// host's network, so its loopback ports would be the host's and two
// attempts would fight for them, and no proxy is set up.
func isolated() bool { return runtime.GOOS == "linux" && os.Geteuid() == 0 }

// agentNetwork is the agent's one way out: a proxy on the loopback of its
// network namespace that passes exactly network.allow (plus a relay at the
// same port for each allowed loopback endpoint, which clients reach
// without their proxy), logging to log. It returns the ports for the
// executor and the environment that points the agent at the proxy.
func agentNetwork(allow []string, log io.Writer) (*egress.Proxy, []executors.LoopbackPort, map[string]string, error) {
	p, err := egress.New(allow, log)
	if err != nil {
		return nil, nil, nil, err
	}
	relays := p.LoopbackRelays()
	port := proxyPort
	for relays[port] != "" {
		port++
	}
	ports := []executors.LoopbackPort{{Port: port, Serve: p.ServeProxy}}
	for rp, target := range relays {
		ports = append(ports, executors.LoopbackPort{Port: rp, Serve: p.Relay(target)})
	}
	slices.SortFunc(ports, func(a, b executors.LoopbackPort) int { return a.Port - b.Port })
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	env := map[string]string{EnvProxy: url, "NO_PROXY": "", "no_proxy": ""}
	for _, v := range proxyVars {
		env[v] = url
	}
	return p, ports, env, nil
}

// setEnv replaces or adds the variables of vars in env.
func setEnv(env []string, vars map[string]string) []string {
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := vars[k]; !ok {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = append(out, k+"="+vars[k])
	}
	return out
}
