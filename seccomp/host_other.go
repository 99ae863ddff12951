//go:build !linux

package seccomp

// currentHost describes a Linux machine of this GOARCH whose kernel is
// unknown, so rules with a minKernel drop out. Only Describe gets here.
func currentHost() host {
	return host{arch: nativeArch()}
}
