package executors

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// Cmd.LoopbackPorts on Linux. The listening happens inside the command's
// network namespace, in the sandbox init, before the command starts (so
// the command can neither race it for the port nor see the sockets: they
// are close-on-exec). Each connection the init accepts is handed out of the
// namespace as a file descriptor: the init makes a socket pair, sends one
// end to osbench over a control socket (SCM_RIGHTS, with the port), and
// copies bytes between the accepted connection and its own end. osbench
// serves the other end with the port's Serve function, in its own network
// namespace.
//
// A descriptor passed over an inherited socket pair is chosen over a unix
// socket on disk because no path has to be visible in the command's view of
// the file system, nothing else on the host can connect to it, and it dies
// with the init. The forwarder lives in the init rather than in a wrapper
// process of the command because the init is osbench's own code, already
// running in the namespace, and outlives every process of the command.
//
// Without namespaces (osbench not root) the init listens on the host's
// loopback, where a port in use is an error, and the command has the
// host's network anyway: the proxy is then a convenience, not a wall.

// sandboxLoopbackFD is the init's end of the control socket; it follows
// the spec and status pipes.
const sandboxLoopbackFD = 5

// forwardLoopback gives the init the control socket for ports and serves
// the connections it hands out, until the init's end is closed (the init
// exited, or never started and abandon closed it).
func (sb *sandbox) forwardLoopback(c *exec.Cmd, ports []LoopbackPort) error {
	if err := checkLoopbackPorts(ports); err != nil {
		return err
	}
	if len(c.ExtraFiles) != sandboxLoopbackFD-3 {
		return fmt.Errorf("loopback ports: the init's control socket would be fd %d, not %d", len(c.ExtraFiles)+3, sandboxLoopbackFD)
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("loopback ports: control socket: %w", err)
	}
	child := os.NewFile(uintptr(fds[1]), "loopback-control")
	c.ExtraFiles = append(c.ExtraFiles, child)
	sb.childEnds = append(sb.childEnds, child)
	serve := map[int]func(net.Conn){}
	for _, p := range ports {
		sb.spec.Loopback = append(sb.spec.Loopback, p.Port)
		serve[p.Port] = p.Serve
	}
	go receiveForwarded(fds[0], serve)
	return nil
}

// receiveForwarded reads (port, descriptor) messages from the init and
// serves each connection. It closes ctrl when the init's end is closed.
func receiveForwarded(ctrl int, serve map[int]func(net.Conn)) {
	defer unix.Close(ctrl)
	buf := make([]byte, 2)
	oob := make([]byte, unix.CmsgSpace(4))
	for {
		n, oobn, _, _, err := unix.Recvmsg(ctrl, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || (n == 0 && oobn == 0) {
			return
		}
		msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
		if err != nil || len(msgs) != 1 {
			continue
		}
		fds, err := unix.ParseUnixRights(&msgs[0])
		if err != nil {
			continue
		}
		for _, fd := range fds {
			f := os.NewFile(uintptr(fd), "forwarded")
			conn, err := net.FileConn(f)
			f.Close()
			if err != nil {
				continue
			}
			fn := serve[int(binary.BigEndian.Uint16(buf))]
			if n != 2 || fn == nil {
				conn.Close()
				continue
			}
			go fn(conn)
		}
	}
}

// startLoopbackForwards is the init's side: it listens on each port of
// 127.0.0.1 and hands every connection to osbench. It returns once every
// port listens, so the command finds them from its first instruction.
func startLoopbackForwards(ports []int) error {
	syscall.CloseOnExec(sandboxLoopbackFD)
	for _, port := range ports {
		ln, err := net.Listen("tcp4", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			return fmt.Errorf("loopback port: %w", err)
		}
		go func() {
			for {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				go handOut(conn, port)
			}
		}()
	}
	return nil
}

// handOut sends one end of a fresh socket pair to osbench and relays conn
// through the other.
func handOut(conn net.Conn, port int) {
	defer conn.Close()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return
	}
	msg := binary.BigEndian.AppendUint16(nil, uint16(port))
	err = unix.Sendmsg(sandboxLoopbackFD, msg, unix.UnixRights(fds[1]), nil, 0)
	unix.Close(fds[1])
	f := os.NewFile(uintptr(fds[0]), "forward")
	if err != nil {
		f.Close()
		return
	}
	out, err := net.FileConn(f)
	f.Close()
	if err != nil {
		return
	}
	defer out.Close()
	splice(conn, out)
}

// splice copies both ways until both directions ended, passing each
// direction's end on as a half close, so a client that shuts its writing
// side still reads the whole answer.
func splice(a, b net.Conn) {
	done := make(chan struct{}, 2)
	half := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		if cw, ok := dst.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		} else {
			dst.Close()
		}
		done <- struct{}{}
	}
	go half(a, b)
	go half(b, a)
	<-done
	<-done
}
