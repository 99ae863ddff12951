//go:build linux

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// ptyRun starts CMD on a fresh terminal, as its controlling terminal and
// in its foreground, as a terminal emulator would. tput reads what CMD
// writes until it ends; lat makes the terminal raw without echo (CMD is
// cat), writes one byte N times and waits for each to come back.
func ptyRun(args []string) error {
	if len(args) < 4 || args[2] != "--" || args[0] != "tput" && args[0] != "lat" {
		return errors.New("usage: pty tput|lat N -- CMD [ARG]")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		return err
	}
	master, slave, err := pty.Open()
	if err != nil {
		return err
	}
	defer master.Close()
	_ = pty.Setsize(master, &pty.Winsize{Rows: 40, Cols: 120})
	if args[0] == "lat" {
		if err := rawNoEcho(int(slave.Fd())); err != nil {
			return err
		}
	}
	cmd := exec.Command(args[3], args[4:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		return err
	}
	slave.Close()
	defer cmd.Wait()
	if args[0] == "tput" {
		t := time.Now()
		total, _ := io.CopyBuffer(io.Discard, master, make([]byte, 64<<10)) // ends with EIO
		s := time.Since(t).Seconds()
		fmt.Printf("op=pty-tput bytes=%d s=%.2f MB_per_s=%.1f\n", total, s, float64(total)/s/1e6)
		return nil
	}
	defer cmd.Process.Kill()
	return echoes(master, n)
}

func rawNoEcho(fd int) error {
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return err
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	return unix.IoctlSetTermios(fd, unix.TCSETS, t)
}

// echoes times n round trips of one byte, once the first has come back
// (the start of CMD is not a keystroke's latency).
func echoes(master *os.File, n int) error {
	buf := make([]byte, 256)
	trip := func(b byte) (time.Duration, error) {
		t := time.Now()
		if _, err := master.Write([]byte{b}); err != nil {
			return 0, err
		}
		for {
			k, err := master.Read(buf)
			if err != nil {
				return 0, err
			}
			if k > 0 && buf[k-1] == b {
				return time.Since(t), nil
			}
		}
	}
	if _, err := trip('.'); err != nil {
		return err
	}
	d := make([]time.Duration, n)
	for i := range d {
		var err error
		if d[i], err = trip(byte('a' + i%26)); err != nil {
			return err
		}
	}
	slices.Sort(d)
	us := func(q float64) float64 { return float64(d[int(q*float64(n-1))].Nanoseconds()) / 1e3 }
	fmt.Printf("op=pty-echo n=%d p50_us=%.0f p90_us=%.0f p99_us=%.0f\n", n, us(0.5), us(0.9), us(0.99))
	return nil
}
