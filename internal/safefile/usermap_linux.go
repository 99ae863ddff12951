package safefile

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// unmapped says whether uid is the overflow uid that stands, in a user
// namespace, for an owner outside it: one this process's uid_map does
// not cover. In the initial namespace it covers every uid, and nobody
// (65534) is a user like another. Unreadable: mapped.
func unmapped(uid uint32) bool {
	if b, err := os.ReadFile("/proc/sys/kernel/overflowuid"); err != nil || strings.TrimSpace(string(b)) != strconv.FormatUint(uint64(uid), 10) {
		return false
	}
	f, err := os.Open("/proc/self/uid_map")
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() { // inside outside count
		fields := strings.Fields(s.Text())
		if len(fields) != 3 {
			return false
		}
		in, err1 := strconv.ParseUint(fields[0], 10, 32)
		n, err2 := strconv.ParseUint(fields[2], 10, 64)
		if err1 != nil || err2 != nil || uint64(uid) >= in && uint64(uid) < in+n {
			return false
		}
	}
	return s.Err() == nil
}
