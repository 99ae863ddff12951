package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/profiles"
)

// A link on the way to a home state file can have been re-pointed by an
// earlier launch that had its directory writable (--allow-write
// ~/dotfiles): that launch's sync refused it, but the next one, without
// the grant, would follow it. These checks keep such a link from
// reading a credential store into the working copy, or writing the
// program's state over another file of the user's (a shell rc file runs
// the $(…) in it).

// errNotRegular is a home state file that is a device, FIFO, directory
// or socket.
var errNotRegular = errors.New("it is not a regular file")

// fileID identifies a file (device and inode): the one read is the one
// written back.
type fileID struct{ dev, ino uint64 }

// unfitHomeError refuses a home state file whose target is no place for
// the program's state.
type unfitHomeError struct{ home, real, why string }

func (e *unfitHomeError) Error() string {
	return fmt.Sprintf("%s is not synced: it leads to %s, %s", termsafe.String(e.home), termsafe.String(e.real), e.why)
}

// refusal is the warning for a home state file the sync does not follow
// (linkedHomeError, unfitHomeError), or "".
func refusal(err error) string {
	var linked *linkedHomeError
	var unfit *unfitHomeError
	switch {
	case errors.As(err, &linked):
		return "state sync: " + linked.Error()
	case errors.As(err, &unfit):
		return "state sync: " + unfit.Error()
	}
	return ""
}

// hiddenStores are the credential stores sandbox mode hides
// (profiles.CredentialStores), as named and resolved: no sync, in any
// mode, reads or writes there.
func hiddenStores(home string, hide ...string) []string {
	var out []string
	// --hide: absolute by now.
	for _, path := range slices.Concat(hide, homeStores(home), envStores(home, "")) {
		for _, p := range []string{path, resolvedOr(path)} {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// checkTarget refuses h, the home file resolved, when it lies in a
// hidden store; for Claude Code's state, when its name does not say
// "claude" (dotfile managers keep the name; another tool's config does
// not); and when a symlink leads to it and it does not exist: the sync
// would create a file of the link's choosing (~/.bashrc.d/x.sh).
func (st *stateSync) checkTarget(h *homeFile) error {
	unfit := func(why string) error { return &unfitHomeError{st.name, h.real, why} }
	for _, s := range st.hidden {
		if profiles.Within(h.real, s) {
			return unfit("inside " + termsafe.String(s) + ", which sandbox mode hides (a link on the way re-pointed?)")
		}
	}
	if st.claude && h.linked && !strings.HasSuffix(strings.ToLower(filepath.Base(h.real)), "claude.json") {
		return unfit(`whose name does not end in "claude.json" (another tool's file, such as claude_desktop_config.json?): ` +
			`give the file you link to such a name`)
	}
	if _, err := os.Lstat(h.real); h.linked && errors.Is(err, fs.ErrNotExist) {
		return unfit("which does not exist: create it (holding {}) to have it synced")
	}
	return nil
}

// readHome reads h and notes the state read (digest, attributes,
// identity), for copyIn and join alike. What checkState refuses comes back
// as its *unfitHomeError; the read's own error (fs.ErrNotExist before
// first use) is the caller's to judge.
func (st *stateSync) readHome(h *homeFile) ([]byte, fileAttrs, error) {
	data, attrs, err := h.read()
	if unfit := st.checkState(h, data, err); unfit != nil {
		return nil, attrs, unfit
	}
	if err == nil {
		st.before, st.existed, st.attrs, st.id = stateDigest(data), true, attrs, h.id
		st.homeSize = len(data)
	}
	return data, attrs, err
}

// checkState refuses what h, the home file, holds when it is no state
// of the program's: read's error errNotRegular, or for Claude Code's
// state, anything but a JSON object (or nothing, before first use).
func (st *stateSync) checkState(h *homeFile, data []byte, err error) error {
	if errors.Is(err, errNotRegular) {
		return &unfitHomeError{st.name, h.real, "which is not a regular file"}
	}
	if err == nil && st.claude && h.linked && len(data) > 0 && !jsonObject(data) {
		return &unfitHomeError{st.name, h.real, "which holds no JSON object, as Claude Code's state does (a link on the way re-pointed?)"}
	}
	return nil
}

// jsonObject tells, by its first and last bytes, whether data looks like
// a JSON object: a full parse of a large state (1 s per 180 MB) on every
// launch and copy back is not worth it, with the name checked too.
func jsonObject(data []byte) bool {
	t := bytes.TrimSpace(data)
	return len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}'
}
