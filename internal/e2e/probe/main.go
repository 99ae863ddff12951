//go:build linux

// Command probe performs one action from inside a sandbox so that a test
// can check the outcome from outside. It prints what happened and exits 0
// when the action succeeded, 1 when it was refused.
package main

import (
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: probe ACTION [ARGS...]")
		os.Exit(2)
	}
	err := run(os.Args[1], os.Args[2:])
	if err != nil {
		fmt.Println("refused:", err)
		os.Exit(1)
	}
	fmt.Println("ok")
}

func run(action string, args []string) error {
	if known, err := attack(action, args); known {
		return err
	}
	if known, err := sockets(action, args); known {
		return err
	}
	if known, err := systemd(action, args); known {
		return err
	}
	if known, err := ipc(action, args); known {
		return err
	}
	if known, err := hostGuard(action, args); known {
		return err
	}
	if known, err := jobs(action, args); known {
		return err
	}
	if known, err := terminal(action, args); known {
		return err
	}
	switch action {
	case "vsock-listen": // PORT FILE: listen on vsock PORT until FILE appears
		return vsockListen(args)
	case "listen-unbound": // print the port listen() picks itself, then accept one connection
		return listenUnbound()
	case "connect": // connect NETWORK ADDR
		c, err := net.DialTimeout(args[0], args[1], 2*time.Second)
		if err != nil {
			return err
		}
		return c.Close()
	case "sigint-count": // print "ready", then one line per SIGINT for a second
		ch := make(chan os.Signal, 16)
		signal.Notify(ch, syscall.SIGINT)
		fmt.Println("ready")
		end := time.After(time.Second)
		for {
			select {
			case <-ch:
				fmt.Println("GOT-INT")
			case <-end:
				return nil
			}
		}
	case "with-session-key": // DESC PAYLOAD PROGRAM ARGS...: run PROGRAM with that key in a new session keyring
		return withSessionKey(args)
	case "read-session-key": // DESC: print the key's payload, found through the session keyring
		return readSessionKey(args[0])
	case "into-cgroup": // DIR: start a child in the cgroup v2 directory DIR
		return intoCgroup(args[0])
	case "own-landlock": // DIR PROGRAM ARGS...: a Landlock ruleset of its own (write below DIR only), then exec PROGRAM
		return ownLandlock(args)
	case "landlock-abi": // N PROGRAM ARGS...: PROGRAM sees Landlock ABI N
		return fakeABI(args)
	case "lose-parent": // PROGRAM ARGS...: SIGKILL PROGRAM while its init stage switches ids
		return loseParent(args)
	case "seccomp-exec":
		return seccompExec(args)
	case "with-signals": // IGNORED BLOCKED PROGRAM ARGS...: exec with that signal state
		return withSignals(args)
	case "no-fork": // PROGRAM ARGS...: exec PROGRAM where no process can be created
		return noForkExec(args)
	case "restrict-namespaces": // PROGRAM ARGS...: exec PROGRAM where no namespace can be made (systemd's RestrictNamespaces=)
		return restrictNamespaces(args)
	case "refuse-userns": // ERRNO PROGRAM ARGS...: exec PROGRAM where clone and unshare of a user namespace fail with ERRNO
		return refuseUserns(args)
	case "restrict-families": // AF_X,AF_Y PROGRAM ARGS...: exec PROGRAM where socket() takes only those (systemd's RestrictAddressFamilies=)
		return restrictFamilies(args)
	case "loopback-up": // refuse unless lo is up
		return loopbackUp()
	case "udp-loopback": // a datagram to ourselves over 127.0.0.1
		c, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		defer c.Close()
		if _, err := c.WriteTo([]byte("x"), c.LocalAddr()); err != nil {
			return err
		}
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		_, _, err = c.ReadFrom(make([]byte, 1))
		return err
	case "subreaper": // PROG ARGS...: run PROG, then refuse if it left a process behind
		return subreaper(args)
	case "kill": // kill PID SIGNAL
		pid, _ := strconv.Atoi(args[0])
		sig, _ := strconv.Atoi(args[1])
		return syscall.Kill(pid, syscall.Signal(sig))
	case "sigqueue": // sigqueue PID SIGNAL: as kill, with si_code SI_QUEUE
		pid, _ := strconv.Atoi(args[0])
		sig, _ := strconv.Atoi(args[1])
		return sigqueue(pid, syscall.Signal(sig))
	}
	return fmt.Errorf("unknown action %q", action)
}
