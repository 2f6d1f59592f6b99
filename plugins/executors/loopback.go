package executors

import (
	"fmt"
	"net"
)

// LoopbackPort is a TCP port on 127.0.0.1 of a command whose connections
// osbench serves from outside the command's network namespace: the one
// hole in a network-less command (Cmd.LoopbackPorts). The agent of
// `osbench solve` reaches its declared LM endpoints through such a port,
// behind which osbench runs a proxy with an allow-list; the command itself
// still has no route anywhere.
type LoopbackPort struct {
	// Port is the port the command connects to on 127.0.0.1.
	Port int
	// Serve handles one connection the command made, in a goroutine of
	// its own; it owns conn and must close it. It runs in osbench, with
	// osbench's network, so it must decide itself what it lets through.
	Serve func(conn net.Conn)
}

// checkLoopbackPorts refuses a list a sandbox cannot listen on.
func checkLoopbackPorts(ports []LoopbackPort) error {
	seen := map[int]bool{}
	for _, p := range ports {
		if p.Port <= 0 || p.Port > 65535 {
			return fmt.Errorf("loopback port %d: out of range", p.Port)
		}
		if seen[p.Port] {
			return fmt.Errorf("loopback port %d: listed twice", p.Port)
		}
		if p.Serve == nil {
			return fmt.Errorf("loopback port %d: no Serve function", p.Port)
		}
		seen[p.Port] = true
	}
	return nil
}
