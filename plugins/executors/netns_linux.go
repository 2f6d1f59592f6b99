package executors

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// A command that does not ask for the network (Cmd.Network) runs, when
// osbench is root, in a network namespace of its own, created with the
// step's PID and mount namespaces. A new network namespace has one
// interface, loopback, and it is down; the init brings it up, so servers a
// suite starts on 127.0.0.1 or ::1 work as on the host. There is no route
// anywhere else: a registry's name does not resolve (the resolver in
// /etc/resolv.conf is unreachable) and no address connects.

// loopbackUp sets the IFF_UP flag of "lo" with the ioctl every Linux has,
// so osbench needs no ip binary and no netlink code.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: reading its flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: bringing it up: %w", err)
	}
	return nil
}
