package seccomp

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"strings"
)

// archInfo describes one syscall ABI as seccomp sees it. The guard code
// (guard.go) needs what libseccomp keeps to itself: the AUDIT_ARCH token
// the kernel puts in seccomp_data.arch, and where the low and high words
// of an argument sit. TestArchTableMatchesLibseccomp checks the table
// against the BPF libseccomp generates.
type archInfo struct {
	scmp  string // name in profiles: "SCMP_ARCH_X86_64"
	name  string // libseccomp-golang and Docker "includes.arches" name: "amd64"
	token uint32 // AUDIT_ARCH_* value in seccomp_data.arch
	// wide: arguments are 64-bit registers, so the high word counts.
	wide bool
	// bigEndian: the low word of an argument is at offset +4.
	bigEndian bool
	aliases   []string // other spellings GetArchFromString accepts
	// tty holds TIOCSTI, TIOCLINUX and TIOCSETD where they differ from
	// the asm-generic 0x5412, 0x541c and 0x5423.
	tty *[3]uint32
}

var (
	mipsTTY = &[3]uint32{0x5472, 0x5483, 0x7401}
	shTTY   = &[3]uint32{0x40015412, 0x4001541c, 0x40045423} // _IOW('T', 18/28, char), _IOW('T', 35, int)
)

// Flags of the AUDIT_ARCH_* values: a 64-bit and a little-endian ABI.
const (
	audit64 = 0x80000000
	auditLE = 0x40000000
)

var archTable = []archInfo{
	{scmp: "SCMP_ARCH_X86", name: "x86", token: auditLE | 3, aliases: []string{"386", "i386"}},
	{scmp: "SCMP_ARCH_X86_64", name: "amd64", token: audit64 | auditLE | 62, wide: true, aliases: []string{"x86_64", "x86-64", "x64"}},
	// x32 shares x86_64's token; __X32_SYSCALL_BIT in nr tells it apart.
	{scmp: "SCMP_ARCH_X32", name: "x32", token: audit64 | auditLE | 62, wide: true},
	{scmp: "SCMP_ARCH_ARM", name: "arm", token: auditLE | 40},
	{scmp: "SCMP_ARCH_AARCH64", name: "arm64", token: audit64 | auditLE | 183, wide: true, aliases: []string{"aarch64"}},
	{scmp: "SCMP_ARCH_MIPS", name: "mips", token: 8, bigEndian: true, tty: mipsTTY},
	{scmp: "SCMP_ARCH_MIPS64", name: "mips64", token: audit64 | 8, wide: true, bigEndian: true, tty: mipsTTY},
	{scmp: "SCMP_ARCH_MIPS64N32", name: "mips64n32", token: audit64 | 0x20000000 | 8, bigEndian: true, tty: mipsTTY},
	{scmp: "SCMP_ARCH_MIPSEL", name: "mipsel", token: auditLE | 8, aliases: []string{"mipsle"}, tty: mipsTTY},
	{scmp: "SCMP_ARCH_MIPSEL64", name: "mipsel64", token: audit64 | auditLE | 8, wide: true, aliases: []string{"mips64le"}, tty: mipsTTY},
	{scmp: "SCMP_ARCH_MIPSEL64N32", name: "mipsel64n32", token: audit64 | auditLE | 0x20000000 | 8, tty: mipsTTY},
	{scmp: "SCMP_ARCH_PPC", name: "ppc", token: 20, bigEndian: true},
	{scmp: "SCMP_ARCH_PPC64", name: "ppc64", token: audit64 | 21, wide: true, bigEndian: true},
	{scmp: "SCMP_ARCH_PPC64LE", name: "ppc64le", token: audit64 | auditLE | 21, wide: true},
	{scmp: "SCMP_ARCH_S390", name: "s390", token: 22, bigEndian: true},
	{scmp: "SCMP_ARCH_S390X", name: "s390x", token: audit64 | 22, wide: true, bigEndian: true},
	{scmp: "SCMP_ARCH_PARISC", name: "parisc", token: 15, bigEndian: true},
	{scmp: "SCMP_ARCH_PARISC64", name: "parisc64", token: audit64 | 15, wide: true, bigEndian: true},
	{scmp: "SCMP_ARCH_RISCV64", name: "riscv64", token: audit64 | auditLE | 243, wide: true},
	{scmp: "SCMP_ARCH_LOONGARCH64", name: "loong64", token: audit64 | auditLE | 258, wide: true, aliases: []string{"loongarch64"}},
	{scmp: "SCMP_ARCH_M68K", name: "m68k", token: 4, bigEndian: true},
	{scmp: "SCMP_ARCH_SH", name: "sh", token: auditLE | 42, tty: shTTY},
	{scmp: "SCMP_ARCH_SHEB", name: "sheb", token: 42, bigEndian: true, tty: shTTY},
}

// archByScmp finds an architecture by its SCMP_ARCH_* name.
func archByScmp(s string) (*archInfo, error) {
	for i := range archTable {
		if archTable[i].scmp == s {
			return &archTable[i], nil
		}
	}
	return nil, fmt.Errorf("unknown architecture %q (want e.g. SCMP_ARCH_X86_64)", s)
}

// archByName finds an architecture by the short name Docker profiles use
// in includes/excludes ("amd64", "x32", "arm64", …) or an alias.
func archByName(s string) (*archInfo, error) {
	s = strings.ToLower(s)
	for i := range archTable {
		a := &archTable[i]
		if a.name == s {
			return a, nil
		}
		for _, alias := range a.aliases {
			if alias == s {
				return a, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown architecture %q (want e.g. amd64, x86, arm64)", s)
}

// nativeArch is the ABI of this build's GOARCH. The filter is built for
// the architecture the binary runs as, which is what the kernel reports
// for its syscalls.
func nativeArch() *archInfo {
	return archForGOARCH(runtime.GOARCH)
}

func archForGOARCH(goarch string) *archInfo {
	a, err := archByName(goarch)
	if err != nil {
		return nil // a GOARCH seccomp does not know (wasm, …)
	}
	return a
}

// ttyIoctls returns the TIOCSTI and TIOCLINUX request numbers.
func (a *archInfo) ttyIoctls() (tiocsti, tioclinux uint32) {
	if a.tty != nil {
		return a.tty[0], a.tty[1]
	}
	return 0x5412, 0x541c
}

// ttySetd returns the TIOCSETD request number.
func (a *archInfo) ttySetd() uint32 {
	if a.tty != nil {
		return a.tty[2]
	}
	return 0x5423
}

// order is the byte order of the ABI, and so of its filters.
func (a *archInfo) order() byteOrder {
	if a.bigEndian {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// byteOrder reads and appends: what encode and decode need.
type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// argOffsets returns the seccomp_data offsets of the low and high words
// of argument i.
func (a *archInfo) argOffsets(i int) (lo, hi uint32) {
	base := uint32(16 + 8*i) // nr, arch, instruction_pointer precede args
	if a.bigEndian {
		return base + 4, base
	}
	return base, base + 4
}
