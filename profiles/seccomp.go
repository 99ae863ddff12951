package profiles

import (
	"embed"
	"fmt"
)

// Built-in seccomp profile names.
const (
	SeccompDefault = "default"
	SeccompStrict  = "strict"
	SeccompNone    = "none"
)

//go:embed seccomp/*.json
var seccompFS embed.FS

// BuiltinSeccomp returns the JSON of a built-in seccomp profile, and false
// when name is not one ("none" has no JSON).
func BuiltinSeccomp(name string) ([]byte, bool) {
	switch name {
	case SeccompDefault, SeccompStrict:
	default:
		return nil, false
	}
	data, err := seccompFS.ReadFile("seccomp/" + name + ".json")
	if err != nil {
		panic(fmt.Sprintf("profiles: embedded seccomp profile %q missing: %v", name, err))
	}
	return data, true
}

// IsBuiltinSeccomp reports whether name is a built-in profile name,
// "none" included.
func IsBuiltinSeccomp(name string) bool {
	return name == SeccompDefault || name == SeccompStrict || name == SeccompNone
}
