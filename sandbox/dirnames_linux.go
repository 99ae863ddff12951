package sandbox

import (
	"path/filepath"
	"strings"
	"syscall"
)

// minListed is how many candidates a directory must hold before masks
// reads it whole: one open, fstatfs, getdents and close cost about what
// four failing stats do.
const minListed = 4

// listedFS are the file systems whose directory listing names everything
// a lookup finds (no lookup-only names, as some FUSE and network file
// systems have): ext4, xfs, btrfs, tmpfs, f2fs, zfs, overlayfs.
var listedFS = map[uint32]bool{0xEF53: true, 0x58465342: true, 0x9123683E: true, 0x01021994: true, 0xF2F52010: true, 0x2FC12FC1: true, 0x794C7630: true}

// dirListings tell masks which credential stores are certainly absent
// from one read of their directory, instead of a failing stat each (most
// of the ~70 are absent at every launch). A directory is read where it
// holds minListed candidates or more (home, ~/.config), at the launch,
// as each stat was: a store made a second ago is listed.
type dirListings map[string]*listing

// listing is one directory's names, lower-cased; usable is false where
// they cannot speak for a lookup (dirNames).
type listing struct {
	names  map[string]bool
	usable bool
}

// listings returns the listings masks may ask about for paths, unread.
func listings(paths []string) dirListings {
	n := map[string]int{}
	for _, p := range paths {
		n[filepath.Dir(p)]++
	}
	l := dirListings{}
	for d, c := range n {
		if c >= minListed {
			l[d] = nil
		}
	}
	return l
}

// absent tells whether a listing of l lacks p's name, or the name of one
// of p's directories below the listed one (~/.terraform.d for
// ~/.terraform.d/credentials.tfrc.json, from home's). False where that is
// unknown: no directory above p is one of l's, or none is listable.
func (l dirListings) absent(p string) bool {
	if !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return false // a/link/.. is not a's: the kernel follows link first
	}
	for q := p; ; q = filepath.Dir(q) {
		dir := filepath.Dir(q)
		if dir == q {
			return false
		}
		ls, ok := l[dir]
		if !ok {
			continue
		}
		if ls == nil {
			names, usable := dirNames(dir)
			ls = &listing{names, usable}
			l[dir] = ls
		}
		if ls.usable && !ls.names[strings.ToLower(filepath.Base(q))] {
			return true
		}
	}
}

// dirNames reads dir's names, lower-cased: a case-insensitive directory
// (ext4 or tmpfs casefold, xfs ascii-ci) finds ".SSH" for ".ssh". None,
// usable, where dir is not there (its lookup fails, so would each
// child's). Not usable where any name is not ASCII (casefolding and
// Unicode normalization match a non-ASCII name to an ASCII one: ".conﬁg"
// to ".config"), where dir cannot be read, or lies on a file system
// outside listedFS.
func dirNames(dir string) (map[string]bool, bool) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err == syscall.ENOENT || err == syscall.ENOTDIR {
		return nil, true
	}
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var fs syscall.Statfs_t
	if syscall.Fstatfs(fd, &fs) != nil || !listedFS[uint32(fs.Type)] {
		return nil, false
	}
	names := map[string]bool{}
	buf := make([]byte, 8192)
	for {
		n, err := syscall.Getdents(fd, buf)
		if err != nil {
			return nil, false
		}
		if n <= 0 {
			return names, true
		}
		var read []string
		_, _, read = syscall.ParseDirent(buf[:n], -1, read)
		for _, name := range read {
			for i := 0; i < len(name); i++ {
				if name[i] >= 0x80 {
					return nil, false
				}
			}
			names[strings.ToLower(name)] = true
		}
	}
}
