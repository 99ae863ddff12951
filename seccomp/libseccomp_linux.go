//go:build linux && cgo

package seccomp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	libseccomp "github.com/seccomp/libseccomp-golang"
	"golang.org/x/sys/unix"
)

// optimizeBinaryTree is SCMP_FLTATR_CTL_OPTIMIZE level 2: libseccomp
// sorts syscalls into a binary tree instead of a linear list.
const optimizeBinaryTree = 2

var errArchUnsupported = errors.New("not supported by this libseccomp")

// archProgram has libseccomp build the program of one ABI, with badArch
// as the action for calls of any other ABI.
func (c *compiler) archProgram(a *archInfo, badArch ret) ([]insn, error) {
	sa, err := libseccomp.GetArchFromString(a.name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errArchUnsupported, err)
	}
	f, err := libseccomp.NewFilter(scmpAction(c.plan.def))
	if err != nil {
		return nil, fmt.Errorf("libseccomp: %w", err)
	}
	defer f.Release()
	if err := configure(f, sa, badArch); err != nil {
		return nil, err
	}
	if err := c.addRules(f); err != nil {
		return nil, err
	}
	return exportBPF(f, a.order())
}

// configure sets the attributes and makes sa the filter's only ABI.
func configure(f *libseccomp.ScmpFilter, sa libseccomp.ScmpArch, badArch ret) error {
	if err := f.SetBadArchAction(scmpAction(badArch)); err != nil {
		return fmt.Errorf("libseccomp: set bad-arch action: %w", err)
	}
	if err := f.SetOptimize(optimizeBinaryTree); err != nil {
		return fmt.Errorf("libseccomp: binary-tree optimisation: %w", err)
	}
	native, err := libseccomp.GetNativeArch()
	if err != nil || native == sa {
		return err
	}
	// Remove first: libseccomp refuses to mix byte orders in a filter.
	if err := f.RemoveArch(native); err != nil {
		return fmt.Errorf("libseccomp: %w", err)
	}
	if err := f.AddArch(sa); err != nil {
		return fmt.Errorf("%w: %v", errArchUnsupported, err)
	}
	return nil
}

// addRules hands libseccomp the unconditional rules and the conditional
// rules it can express (plan.split).
func (c *compiler) addRules(f *libseccomp.ScmpFilter) error {
	for _, sp := range c.plan.syscalls {
		nr, ok := c.nrs[sp.name]
		if !ok || (sp.uncond == nil && len(sp.native) == 0) {
			continue
		}
		if sp.uncond != nil {
			if err := f.AddRule(nr, scmpAction(*sp.uncond)); err != nil {
				return fmt.Errorf("syscall %s: libseccomp: %w", sp.name, err)
			}
		}
		for _, r := range sp.native {
			if err := addConditional(f, nr, r); err != nil {
				return fmt.Errorf("syscall %s (%s): %w", sp.name, r.origin, err)
			}
		}
	}
	return nil
}

func addConditional(f *libseccomp.ScmpFilter, nr libseccomp.ScmpSyscall, r condRule) error {
	conds := make([]libseccomp.ScmpCondition, len(r.args))
	for i, a := range r.args {
		values := []uint64{a.Value}
		if a.Op == OpMaskedEqual {
			values = append(values, a.ValueTwo) // mask, then value
		}
		cond, err := libseccomp.MakeCondition(a.Index, scmpOps[a.Op], values...)
		if err != nil {
			return fmt.Errorf("args[%d]: libseccomp: %w", i, err)
		}
		conds[i] = cond
	}
	if err := f.AddRuleConditional(nr, scmpAction(r.act), conds); err != nil {
		return fmt.Errorf("libseccomp: %w", err)
	}
	return nil
}

// exportBPF gets libseccomp's program through a memfd: libseccomp 2.5
// exports to a file descriptor only. The program comes in the byte order
// of the filter's architecture.
func exportBPF(f *libseccomp.ScmpFilter, order binary.ByteOrder) ([]insn, error) {
	fd, err := unix.MemfdCreate("omega-run-seccomp", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("export BPF: memfd_create: %w", err)
	}
	file := os.NewFile(uintptr(fd), "omega-run-seccomp")
	defer file.Close()
	if err := f.ExportBPF(file); err != nil {
		return nil, fmt.Errorf("export BPF: libseccomp: %w", err)
	}
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("export BPF: %w", err)
	}
	b, err := io.ReadAll(file)
	if err != nil {
		return nil, fmt.Errorf("export BPF: %w", err)
	}
	return decode(b, order)
}

var scmpOps = map[Operator]libseccomp.ScmpCompareOp{
	OpNotEqual:     libseccomp.CompareNotEqual,
	OpLessThan:     libseccomp.CompareLess,
	OpLessEqual:    libseccomp.CompareLessOrEqual,
	OpEqualTo:      libseccomp.CompareEqual,
	OpGreaterEqual: libseccomp.CompareGreaterEqual,
	OpGreaterThan:  libseccomp.CompareGreater,
	OpMaskedEqual:  libseccomp.CompareMaskedEqual,
}

func scmpAction(r ret) libseccomp.ScmpAction {
	data := int16(uint16(r))
	switch r &^ 0xffff {
	case retKillProcess:
		return libseccomp.ActKillProcess
	case retKillThread:
		return libseccomp.ActKillThread
	case retTrap:
		return libseccomp.ActTrap
	case retErrno:
		return libseccomp.ActErrno.SetReturnCode(data)
	case retTrace:
		return libseccomp.ActTrace.SetReturnCode(data)
	case retLog:
		return libseccomp.ActLog
	}
	return libseccomp.ActAllow
}
