//go:build linux && !cgo

package nsexec

// CapsetKills is false without cgo: there is no check before the Go
// runtime (README: a CGO_ENABLED=0 build has none).
func CapsetKills() bool { return false }
