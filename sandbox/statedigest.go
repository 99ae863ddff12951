package sandbox

import (
	"encoding/hex"
	"hash/fnv"
	"strings"
)

// digest identifies a state file's content (FNV-128a: no cryptography
// needed, as the program could rewrite the base file anyway, and it
// decides only which of its own states goes home).
type digest [16]byte

func stateDigest(data []byte) digest {
	h := fnv.New128a()
	h.Write(data)
	var d digest
	h.Sum(d[:0])
	return d
}

func (d digest) line(existed bool) string {
	if !existed {
		return "absent\n"
	}
	return hex.EncodeToString(d[:]) + "\n"
}

func parseDigestLine(s string) (d digest, existed, ok bool) {
	s = strings.TrimSpace(s)
	if s == "absent" {
		return d, false, true
	}
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(d) {
		return d, false, false
	}
	copy(d[:], b)
	return d, true, true
}
