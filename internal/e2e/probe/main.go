//go:build linux

// Command probe performs one action from inside a sandbox so that a test
// can check the outcome from outside. It prints what happened and exits 0
// when the action succeeded, 1 when it was refused.
package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime"
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
	groups := []func(string, []string) (bool, error){
		attack, fileAttack, sockets, ownSockets, systemd, ipc, hostGuard, jobs, terminal, network, restricted, process,
	}
	for _, g := range groups {
		if known, err := g(action, args); known {
			return err
		}
	}
	return fmt.Errorf("unknown action %q", action)
}

// network runs the actions on the network: vsock, TCP, UDP, loopback.
func network(action string, args []string) (bool, error) {
	switch action {
	case "vsock-listen": // PORT FILE: listen on vsock PORT until FILE appears
		return true, vsockListen(args)
	case "listen-unbound": // print the port listen() picks itself, then accept one connection
		return true, listenUnbound()
	case "connect": // connect NETWORK ADDR
		c, err := net.DialTimeout(args[0], args[1], 2*time.Second)
		if err != nil {
			return true, err
		}
		return true, c.Close()
	case "loopback-up": // refuse unless lo is up
		return true, loopbackUp()
	case "udp-loopback": // a datagram to ourselves over 127.0.0.1
		c, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			return true, err
		}
		defer c.Close()
		if _, err := c.WriteTo([]byte("x"), c.LocalAddr()); err != nil {
			return true, err
		}
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		_, _, err = c.ReadFrom(make([]byte, 1))
		return true, err
	}
	return false, nil
}

// restricted runs a program under a restriction of the probe's own: a
// Landlock ruleset or ABI, a seccomp filter, or what systemd would impose.
func restricted(action string, args []string) (bool, error) {
	switch action {
	case "own-landlock": // DIR PROGRAM ARGS...: a Landlock ruleset of its own (write below DIR only), then exec PROGRAM
		return true, ownLandlock(args)
	case "landlock-abi": // N PROGRAM ARGS...: PROGRAM sees Landlock ABI N
		return true, fakeABI(args)
	case "seccomp-exec":
		return true, seccompExec(args)
	case "no-fork": // PROGRAM ARGS...: exec PROGRAM where no process can be created
		return true, noForkExec(args)
	case "restrict-namespaces": // PROGRAM ARGS...: exec PROGRAM where no namespace can be made (systemd's RestrictNamespaces=)
		return true, restrictNamespaces(args)
	case "refuse-userns": // ERRNO PROGRAM ARGS...: exec PROGRAM where clone and unshare of a user namespace fail with ERRNO
		return true, refuseUserns(args)
	case "restrict-families": // AF_X,AF_Y PROGRAM ARGS...: exec PROGRAM where socket() takes only those (systemd's RestrictAddressFamilies=)
		return true, restrictFamilies(args)
	case "refuse-capbset-drop": // ERRNO PROGRAM ARGS...: exec PROGRAM where prctl(PR_CAPBSET_DROP) fails with ERRNO
		return true, refuseCapbsetDrop(args)
	}
	return false, nil
}

// process runs the actions on signals, keyrings, cgroups and child
// processes.
func process(action string, args []string) (bool, error) {
	switch action {
	case "timerslack": // print this thread's timer slack and its default (what 0 sets), then wait for stdin's end
		return true, timerSlack()
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
				return true, nil
			}
		}
	case "with-session-key": // DESC PAYLOAD PROGRAM ARGS...: run PROGRAM with that key in a new session keyring
		return true, withSessionKey(args)
	case "read-session-key": // DESC: print the key's payload, found through the session keyring
		return true, readSessionKey(args[0])
	case "into-cgroup": // DIR: start a child in the cgroup v2 directory DIR
		return true, intoCgroup(args[0])
	case "lose-parent": // PROGRAM ARGS...: SIGKILL PROGRAM while its init stage switches ids
		return true, loseParent(args)
	case "with-signals": // IGNORED BLOCKED PROGRAM ARGS...: exec with that signal state
		return true, withSignals(args)
	case "subreaper": // PROG ARGS...: run PROG, then refuse if it left a process behind
		return true, subreaper(args)
	case "kill": // kill PID SIGNAL
		pid, _ := strconv.Atoi(args[0])
		sig, _ := strconv.Atoi(args[1])
		return true, syscall.Kill(pid, syscall.Signal(sig))
	case "sigqueue": // sigqueue PID SIGNAL: as kill, with si_code SI_QUEUE
		pid, _ := strconv.Atoi(args[0])
		sig, _ := strconv.Atoi(args[1])
		return true, sigqueue(pid, syscall.Signal(sig))
	}
	return false, nil
}

// timerSlack prints "slack N default M" for this thread, inherited from
// whoever started the program, then waits until stdin is closed.
func timerSlack() error {
	runtime.LockOSThread()
	get := func() uintptr {
		r, _, _ := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_GET_TIMERSLACK, 0, 0)
		return r
	}
	slack := get()
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_TIMERSLACK, 0, 0); e != 0 {
		return e
	}
	fmt.Printf("slack %d default %d\n", slack, get())
	_, err := io.Copy(io.Discard, os.Stdin)
	return err
}
