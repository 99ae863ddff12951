package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// homeFile is a home state file resolved once (resolveHome), its
// directory held open: what the sync reads, digests and writes is that
// one file, reached by no symlink, whatever is renamed meanwhile.
type homeFile struct {
	real string
	dir  int // O_PATH descriptor of real's directory
	name string
	// linked: a symlink led to real; id is the file's as read.
	linked bool
	id     fileID
}

// openHome resolves path (resolveHome; shown names it in errors) and
// opens its directory without following any symlink.
func openHome(path, shown string, roots []string) (*homeFile, error) {
	real, linked, err := resolveHome(path, shown, roots)
	if err != nil {
		return nil, err
	}
	dir, err := openPathNoSymlinks(filepath.Dir(real))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Dir(real), err)
	}
	return &homeFile{real: real, dir: dir, name: filepath.Base(real), linked: linked}, nil
}

func (h *homeFile) close() { unix.Close(h.dir) }

// openPathNoSymlinks opens the directory path as O_PATH without following
// a symlink anywhere in it. Where openat2 is missing or filtered, the
// directory opened is checked to be path (/proc/self/fd; without /proc,
// not checked).
func openPathNoSymlinks(path string) (int, error) {
	flags := uint64(unix.O_PATH | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC)
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{Flags: flags, Resolve: unix.RESOLVE_NO_SYMLINKS})
	if err == nil && fd <= 2 { // a filter's errno 0: see openDirNoSymlinks
		fd, err = -1, unix.ENOSYS
	}
	if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
		return fd, err
	}
	return openPathChecked(path, int(flags))
}

// openPathChecked opens path, then checks that the directory opened is
// path, which has no symlinks: a symlink swapped in on the way leads
// elsewhere.
func openPathChecked(path string, flags int) (int, error) {
	fd, err := unix.Open(path, flags, 0)
	if err != nil {
		return -1, err
	}
	if got, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)); err == nil && got != path {
		unix.Close(fd)
		return -1, fmt.Errorf("it led to %s while opened", got)
	}
	return fd, nil
}

// read reads the file, a regular one only, not following a symlink
// there, with its mode and owner.
func (h *homeFile) read() ([]byte, fileAttrs, error) {
	fd, err := unix.Openat(h.dir, h.name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fileAttrs{}, &os.PathError{Op: "open", Path: h.real, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, fileAttrs{}, &os.PathError{Op: "fstat", Path: h.real, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, fileAttrs{}, errNotRegular
	}
	attrs := fileAttrs{fs.FileMode(st.Mode).Perm(), int(st.Uid), int(st.Gid)}
	h.id = fileID{uint64(st.Dev), st.Ino}
	f, _, err := reopenRegular(fd, h.real)
	if errors.Is(err, fs.ErrNotExist) { // no /proc: opened at last
		f, err = h.openDirect()
	}
	if err != nil {
		return nil, fileAttrs{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	return data, attrs, err
}

// openDirect opens the file for reading without blocking (a FIFO) or
// following a symlink, a regular file only.
func (h *homeFile) openDirect() (*os.File, error) {
	fd, err := unix.Openat(h.dir, h.name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: h.real, Err: err}
	}
	f := os.NewFile(uintptr(fd), h.real)
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, errNotRegular
	}
	return f, nil
}

// write replaces the file with data through a temporary file beside it
// and a rename, both relative to the directory held open, with attrs.
func (h *homeFile) write(data []byte, attrs fileAttrs) error {
	tmp := "." + h.name + ".omega-" + strconv.FormatUint(rand.Uint64(), 36)
	fd, err := unix.Openat(h.dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return &os.PathError{Op: "create", Path: filepath.Join(filepath.Dir(h.real), tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), tmp)
	err = f.Chmod(attrs.mode)
	if err == nil && os.Geteuid() == 0 && attrs.uid >= 0 {
		_ = f.Chown(attrs.uid, attrs.gid)
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		// On disk before the rename: where the file system may commit
		// the rename first (XFS, ext4 with noauto_da_alloc), a crash
		// soon after would leave the user's file empty.
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = unix.Renameat(h.dir, tmp, h.dir, h.name)
	}
	if err != nil {
		_ = unix.Unlinkat(h.dir, tmp, 0)
		return fmt.Errorf("%s: %w", h.real, err)
	}
	return nil
}

// removeTemps removes the temporary files write left beside the home file
// when its launcher was killed before the rename (the state they hold is
// still in the working copy). Only under the working copy's exclusive
// lock, which every launch that writes them holds then.
func (h *homeFile) removeTemps() { removeTemps(h.dir, h.name) }

// removeTemps removes the regular files in the directory dirfd that are
// temporary files of write or atomicWrite for one of names
// (.NAME.omega-RANDOM): a killed launch's.
func removeTemps(dirfd int, names ...string) {
	fd, err := unix.Openat(dirfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	d := os.NewFile(uintptr(fd), ".")
	defer d.Close()
	entries, _ := d.Readdirnames(-1)
	for _, e := range entries {
		var st unix.Stat_t
		if isTempOf(e, names) && unix.Fstatat(dirfd, e, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
			_ = unix.Unlinkat(dirfd, e, 0)
		}
	}
}

// isTempOf tells whether entry is the name of a temporary file of write
// or atomicWrite for one of names: .NAME.omega- and a random part of
// digits and lower-case letters (not base: the base file of a home file
// named without its dot, claude.json).
func isTempOf(entry string, names []string) bool {
	for _, n := range names {
		rest, ok := strings.CutPrefix(entry, "."+n+".omega-")
		if ok && rest != "" && rest != "base" && strings.Trim(rest, "0123456789abcdefghijklmnopqrstuvwxyz") == "" {
			return true
		}
	}
	return false
}
