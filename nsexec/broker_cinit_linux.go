//go:build linux && cgo && !omega_goinit

package nsexec

import "os"

// The C init stage has its own connect broker (cinit_broker.c); the Go
// one's (broker_linux.go) is never started in this build.
type goBroker struct{}

func startBroker(*Spec, warner) (*goBroker, error) { return nil, nil }
func (*goBroker) started(*Spec, []*os.File) error  { return nil }
func (*goBroker) serveDomain()                     {}
