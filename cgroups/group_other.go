//go:build !linux

package cgroups

import (
	"fmt"
	"runtime"
)

// Group is a cgroup; on this system New never returns one.
type Group struct{}

func unsupported() error {
	return fmt.Errorf("cgroups: %w: control groups are Linux-only (this is %s)", ErrUnavailable, runtime.GOOS)
}

// New returns an error wrapping ErrUnavailable (ErrInvalid for bad limits).
func New(name string, l Limits) (*Group, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return nil, unsupported()
}

// Probe returns an error wrapping ErrUnavailable.
func Probe(Limits) error { return unsupported() }

// Name is empty.
func (g *Group) Name() string { return "" }

// Limits is zero.
func (g *Group) Limits() Limits { return Limits{} }

// Version is 0.
func (g *Group) Version() int { return 0 }

// Dirs is empty.
func (g *Group) Dirs() []string { return nil }

// FD has no descriptor.
func (g *Group) FD() (int, bool) { return -1, false }

// Add fails.
func (g *Group) Add(int) error { return unsupported() }

// Pids is empty.
func (g *Group) Pids() ([]int, error) { return nil, nil }

// OOMKilled is false.
func (g *Group) OOMKilled() (bool, error) { return false, nil }

// MemoryLimitReached is false.
func (g *Group) MemoryLimitReached() (bool, error) { return false, nil }

// Delete does nothing.
func (g *Group) Delete() error { return nil }
