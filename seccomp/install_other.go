//go:build !linux

package seccomp

import "errors"

// Install fails: seccomp filters exist on Linux only.
func (p *Program) Install() error {
	return errors.New("filters are only supported on Linux")
}

// InstallThread fails as Install does.
func (p *Program) InstallThread() error { return p.Install() }
