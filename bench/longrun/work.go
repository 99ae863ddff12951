//go:build linux

package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// batches calls op n times and prints a line every n/10 calls: the time
// per call of that batch and what extra(i) says.
func batches(name string, n int, op func() error, extra func() string) error {
	every := max(n/10, 1)
	t := time.Now()
	for i := 1; i <= n; i++ {
		if err := op(); err != nil {
			return err
		}
		if i%every == 0 {
			now := time.Now()
			fmt.Printf("op=%s i=%d us_per_op=%.1f %s\n", name, i, float64(now.Sub(t).Microseconds())/float64(every), extra())
			t = now
		}
	}
	return nil
}

func accept(args []string) error {
	if len(args) != 1 {
		return errors.New("usage: accept PATH")
	}
	_ = os.Remove(args[0])
	s, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		return err
	}
	if err := unix.Bind(s, &unix.SockaddrUnix{Name: args[0]}); err != nil {
		return err
	}
	if err := unix.Listen(s, 4096); err != nil {
		return err
	}
	for {
		if c, _, err := unix.Accept(s); err == nil {
			unix.Close(c)
		}
	}
}

// connect is raw socket(2), connect(2), close(2): what a client library
// does per connection, each connect one trip through the broker.
func connect(args []string) error {
	fs := flag.NewFlagSet("connect", flag.ContinueOnError)
	itimer := fs.Int("itimer", 0, "interrupt with a SIGALRM every `US` µs")
	if err := fs.Parse(args); err != nil || fs.NArg() != 2 {
		return errors.New("usage: connect [-itimer US] PATH N")
	}
	n, err := strconv.Atoi(fs.Arg(1))
	if err != nil {
		return err
	}
	if *itimer > 0 {
		// Go's handler has SA_RESTART: a connect the signal interrupts
		// while the broker holds it is made again, a new call for it.
		signal.Notify(make(chan os.Signal, 1), syscall.SIGALRM)
		iv := unix.NsecToTimeval(int64(*itimer) * 1000)
		if _, err := unix.Setitimer(unix.ITIMER_REAL, unix.Itimerval{Interval: iv, Value: iv}); err != nil {
			return err
		}
	}
	addr := &unix.SockaddrUnix{Name: fs.Arg(0)}
	var ok, refused, eintr int
	op := func() error {
		s, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return err
		}
		switch err := unix.Connect(s, addr); {
		case err == nil:
			ok++
		case err == unix.EINTR:
			eintr++
		default:
			refused++
		}
		return unix.Close(s)
	}
	return batches("connect", n, op, func() string { return fmt.Sprintf("ok=%d refused=%d eintr=%d", ok, refused, eintr) })
}

// orphans leaves n processes for PID 1 (or the subreaper) to reap: sh
// starts true in the background and exits before it.
func orphans(args []string) error {
	if len(args) != 1 {
		return errors.New("usage: orphans N")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return err
	}
	op := func() error { return exec.Command("/bin/sh", "-c", "/bin/true &").Run() }
	return batches("orphan", n, op, func() string { return fmt.Sprintf("zombies=%d", zombies()) })
}

// zombies counts the zombies in sight (the sandbox's own pid namespace).
func zombies() int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	z := 0
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if i := strings.LastIndexByte(string(b), ')'); err == nil && i > 0 && i+2 < len(b) && b[i+2] == 'Z' {
			z++
		}
	}
	return z
}

func sigcount([]string) error {
	c := make(chan os.Signal, 4096)
	signal.Notify(c, syscall.SIGUSR1, syscall.SIGUSR2)
	var n atomic.Int64
	for s := range c {
		if s == syscall.SIGUSR2 {
			break
		}
		n.Add(1)
	}
	fmt.Printf("op=sigcount got=%d\n", n.Load())
	return nil
}

func sigsend(args []string) error {
	fs := flag.NewFlagSet("sigsend", flag.ContinueOnError)
	pace := fs.Int("pace", 0, "`US` µs between signals")
	if err := fs.Parse(args); err != nil || fs.NArg() != 2 {
		return errors.New("usage: sigsend [-pace US] PID N")
	}
	pid, err1 := strconv.Atoi(fs.Arg(0))
	n, err2 := strconv.Atoi(fs.Arg(1))
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	op := func() error {
		if *pace > 0 {
			time.Sleep(time.Duration(*pace) * time.Microsecond)
		}
		return unix.Kill(pid, unix.SIGUSR1)
	}
	return batches("sigsend", n, op, func() string { return "" })
}
