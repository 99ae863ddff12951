package sandbox

// Report says what this machine can enforce (omega-run check).
type Report struct {
	// OS is runtime.GOOS.
	OS string `json:"os"`
	// LandlockABI is the kernel's Landlock ABI, 0 when unavailable.
	LandlockABI int `json:"landlock_abi"`
	// LandlockRights lists the access rights and scopes it enforces.
	LandlockRights []string `json:"landlock_rights"`
	// LandlockMissing names what omega-run wants but this kernel lacks.
	LandlockMissing []string `json:"landlock_missing,omitempty"`
	// Namespaces: a throwaway init stage started in sandbox mode's
	// namespaces, so sandbox mode gets its mounts (read-only root, hiding).
	Namespaces bool `json:"namespaces"`
	// NamespacesError says why user/mount/pid/net namespaces failed.
	NamespacesError string `json:"namespaces_error,omitempty"`
	// Seccomp: this build can filter (libseccomp, or the built-in
	// profiles compiled at build time) and the kernel accepts filters;
	// SeccompError says why it cannot install them, SeccompVersion is
	// libseccomp's version, and SeccompBuiltinOnly says that without
	// libseccomp (built without cgo) only the built-in profiles work.
	Seccomp            bool   `json:"seccomp"`
	SeccompError       string `json:"seccomp_error,omitempty"`
	SeccompVersion     string `json:"libseccomp_version,omitempty"`
	SeccompBuiltinOnly bool   `json:"seccomp_builtin_only,omitempty"`
	// NoNewPrivs: the kernel has PR_SET_NO_NEW_PRIVS (every Linux
	// omega-run runs on).
	NoNewPrivs bool `json:"no_new_privs"`
	// HostSockets says how sandbox mode keeps host unix sockets bound
	// after its start out of reach, or why it cannot.
	HostSockets string `json:"host_sockets,omitempty"`
	// Full is true when --mode sandbox gets everything here.
	Full bool `json:"full"`
}
