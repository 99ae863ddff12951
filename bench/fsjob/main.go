//go:build linux

// Command fsjob is the small-file workload of bench/run.sh: in a fresh
// directory below DIR it creates n files, writes size bytes to each,
// closes them, then deletes them all and the directory.
//
//	fsjob [-n 20000] [-size 64] DIR
//
// Every file costs openat(O_CREAT), write, close and unlinkat: four
// system calls through the seccomp filter and two path lookups through
// Landlock's hooks (create and remove), which is what this workload is
// meant to expose. Paths are absolute, as most programs use them, and
// there is no buffering, so that plain and confined runs execute exactly
// the same calls.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

func main() {
	n := flag.Int("n", 20000, "number of files")
	size := flag.Int("size", 64, "bytes written to each file")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: fsjob [-n FILES] [-size BYTES] DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0) + "/fsjob." + strconv.Itoa(os.Getpid())
	if err := run(dir, *n, *size); err != nil {
		fmt.Fprintln(os.Stderr, "fsjob:", err)
		os.Exit(1)
	}
}

func run(dir string, n, size int) error {
	if err := unix.Mkdir(dir, 0o700); err != nil {
		return fmt.Errorf("mkdir %s: %w", dir, err)
	}
	data := make([]byte, size)
	for i := range data {
		data[i] = 'x'
	}
	paths := make([]string, n)
	for i := range paths {
		paths[i] = dir + "/f" + strconv.Itoa(i)
	}
	for _, p := range paths {
		fd, err := unix.Open(p, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o600)
		if err != nil {
			return fmt.Errorf("create %s: %w", p, err)
		}
		if _, err := unix.Write(fd, data); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
		if err := unix.Close(fd); err != nil {
			return fmt.Errorf("close %s: %w", p, err)
		}
	}
	for _, p := range paths {
		if err := unix.Unlink(p); err != nil {
			return fmt.Errorf("unlink %s: %w", p, err)
		}
	}
	if err := unix.Rmdir(dir); err != nil {
		return fmt.Errorf("rmdir %s: %w", dir, err)
	}
	return nil
}
