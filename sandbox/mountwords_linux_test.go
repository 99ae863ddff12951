package sandbox

import (
	"fmt"
	"slices"
	"testing"
)

// TestCappedMountsOnly: a capped list of warnings true only with sandbox
// mode's mounts ends in a count the fallback drops with them: "and 2
// more directories …, read-only in this run" was said without mounts.
func TestCappedMountsOnly(t *testing.T) {
	var denied, links []string
	for i := 0; i < maxReported+2; i++ {
		denied = append(denied, fmt.Sprintf("/p/d%d is not readable to omega-run,", i)+unreadableWords)
		links = append(links, fmt.Sprintf("/p/%d/.git/config, git's config, is reached through a symlink: /q is", i)+keptLinkWords)
	}
	dir := "/p/x/.git/hooks, core.hooksPath, is a directory: it is not kept read-only, and what the program writes there git may run"
	mounts, rest := splitMountsOnly(append(slices.Clone(links), dir))
	if len(mounts) != len(links) || len(rest) != 1 || rest[0] != dir {
		t.Fatalf("splitMountsOnly: %d with mounts, rest %q", len(mounts), rest)
	}
	for _, c := range []struct {
		lines []string
		more  string
	}{{denied, unreadableMore}, {mounts, keptLinksMore}} {
		got := capped(c.lines, c.more)
		if left := slices.DeleteFunc(got, withMountsOnly); len(left) != 0 {
			t.Errorf("the fallback keeps %q", left)
		}
	}
}
