package sandbox

import (
	"slices"
	"strings"
)

// Words only the mount plan's warnings that hold with its mounts have:
// the fallback without namespaces has no private /tmp or /run, masks or
// read-only binds, and its own warning (notHidden) says what stays open.
// Each is used where its warning is made, so the two cannot drift.
const (
	runMaskedNote     = ", its sockets bound before the start masked"            // hostRun
	privateTmpWords   = "the sandbox's /tmp, "                                   // privateTmpMode
	keptWorkdirWords  = " is its own): it is kept in the sandbox, read-only"     // keepWorkdir
	selfReadOnlyWords = ": it is read-only inside, but keep it"                  // protected
	hardLinkWords     = " despite its read-only bind"                            // bindReadOnly
	hiddenLinkWords   = " is hidden, but a symlink inside the writable "         // masks
	keptLinkWords     = " kept read-only, but the program can re-point the link" // the git scan's
	unreadableWords   = " in the writable set: it is read-only in this run"      // deniedWarnings
	// The counts that end a capped list of those (protected).
	unreadableMore = "directories the scan may not read, read-only in this run"
	keptLinksMore  = "files like these reached through a symlink, kept read-only in this run"
)

var mountsOnlyWords = []string{sharedTmpNote, runMaskedNote, privateTmpWords, keptWorkdirWords, selfReadOnlyWords,
	hardLinkWords, hiddenLinkWords, keptLinkWords, unreadableWords, unreadableMore, keptLinksMore}

// withMountsOnly tells a warning true only of the launch with sandbox
// mode's mounts: the fallback without them says none (sandboxMounts,
// sayPending), as it says none of the masks' gaps (socketGap).
func withMountsOnly(w string) bool {
	return socketGap(w) ||
		slices.ContainsFunc(mountsOnlyWords, func(s string) bool { return strings.Contains(w, s) })
}

// splitMountsOnly parts ws into the warnings withMountsOnly tells and
// the rest, each in its order.
func splitMountsOnly(ws []string) (mounts, rest []string) {
	for _, w := range ws {
		if withMountsOnly(w) {
			mounts = append(mounts, w)
		} else {
			rest = append(rest, w)
		}
	}
	return mounts, rest
}

// keptWorkdir tells keepWorkdir's warning, which a launch says to a
// terminal only, as the working directory's own it stands for
// (logWorkdirWarning); explain lists it.
func keptWorkdir(w string) bool { return strings.Contains(w, keptWorkdirWords) }

// otherSocketsWords start maskSockets' warning about other users' sockets
// left unmasked. A launch says it once the masks exist (nsNotes), as no
// --fail-closed error: any local user could otherwise stop every such
// launch; the fallback, which masks nothing, never.
const otherSocketsWords = "other users have "

func otherSockets(w string) bool { return strings.HasPrefix(w, otherSocketsWords) }
