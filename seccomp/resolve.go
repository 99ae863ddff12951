package seccomp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"strings"

	"github.com/omega-run/omega-run/internal/safefile"
	"github.com/omega-run/omega-run/profiles"
)

// maxProfile bounds a profile file's size (Docker's default is 30 KB).
const maxProfile = 16 << 20

// Resolve turns a profile name or path into a validated Profile.
//
// "default" and "strict" are the built-in profiles, "none" (and nothing
// else) means no filter and returns (nil, nil); "" means "default". Any
// other value is the path of a Docker / OCI JSON profile. A built-in name
// wins over a file of the same name: write ./default to load the file.
//
// Errors are one line and name the profile (file:line:column for bad
// JSON); like every error of this package they carry no "seccomp: "
// prefix, which the caller adds (omega-run prints "omega-run: seccomp: …").
func Resolve(nameOrPath string) (*Profile, error) {
	if nameOrPath == "" {
		nameOrPath = profiles.SeccompDefault
	}
	if nameOrPath == profiles.SeccompNone {
		return nil, nil
	}
	if p, ok := builtinProfile(nameOrPath); ok {
		// Decoded at build time from the embedded JSON (builtin_gen.go).
		p.Source, p.builtin = nameOrPath, nameOrPath
		return p, nil
	}
	if data, ok := profiles.BuiltinSeccomp(nameOrPath); ok {
		p, err := Parse(nameOrPath, data)
		if err != nil {
			return nil, fmt.Errorf("built-in profile %s: %w", nameOrPath, err)
		}
		p.builtin = nameOrPath
		return p, nil
	}
	// A profile in a writable root may have been replaced by a FIFO or
	// a link to a device (safefile); /dev/stdin works.
	data, err := safefile.Read(nameOrPath, maxProfile, safefile.Named)
	if err != nil {
		return nil, readError(nameOrPath, err)
	}
	return Parse(nameOrPath, data)
}

// readError explains a profile that cannot be read. A bare word that is
// no file was most likely meant as a built-in name.
func readError(name string, err error) error {
	if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(name, "/.") {
		return fmt.Errorf("unknown profile %q: not a built-in (%s, %s, %s) and no such file",
			name, profiles.SeccompDefault, profiles.SeccompStrict, profiles.SeccompNone)
	}
	// "NAME: no such file or directory", as the parse errors begin with
	// NAME, not "read profile: open NAME: …".
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) && pe.Path == name {
		return fmt.Errorf("%s: %w", name, pe.Err)
	}
	return fmt.Errorf("read profile: %w", err)
}

// Parse decodes and validates a JSON profile. source names it in errors,
// which look like "source:3:14: invalid character …" for bad JSON and
// "source: syscalls[2] (mount): unknown action …" for bad content.
// Unknown fields are errors: a misspelt "syscalls" would otherwise leave
// a profile that silently filters nothing.
func Parse(source string, data []byte) (*Profile, error) {
	p := &Profile{Source: source}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, jsonError(source, data, err)
	}
	if dec.More() {
		off := dec.InputOffset()
		for off < int64(len(data)) && strings.ContainsRune(" \t\r\n", rune(data[off])) {
			off++
		}
		line, col := position(data, off)
		return nil, fmt.Errorf("%s:%d:%d: unexpected data after the profile", source, line, col)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return p, nil
}

// jsonError adds a line and column to what encoding/json reports.
func jsonError(source string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(data, syn.Offset-1) // Offset counts the bad byte
		return fmt.Errorf("%s:%d:%d: %s", source, line, col, syn.Error())
	case errors.As(err, &typ):
		line, col := position(data, typ.Offset-1)
		field := typ.Field
		if field == "" {
			field = "the profile"
		}
		return fmt.Errorf("%s:%d:%d: %s: got %s, want %s", source, line, col, field, withArticle(jsonValue(typ.Value)), withArticle(jsonKind(typ.Type)))
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%s: empty file, want a JSON profile", source)
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := position(data, int64(len(data)))
		return fmt.Errorf("%s:%d:%d: unexpected end of JSON", source, line, col)
	}
	return fmt.Errorf("%s: %s", source, strings.TrimPrefix(err.Error(), "json: "))
}

// jsonValue names a JSON value as jsonKind does ("array" is a list).
func jsonValue(v string) string {
	switch v {
	case "array":
		return "list"
	case "bool":
		return "boolean"
	}
	return v
}

// withArticle puts "a" or "an" before a kind ("an object").
func withArticle(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// jsonKind names what JSON value a Go type takes.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "list"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Bool:
		return "boolean"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "non-negative integer"
	}
	return "number"
}

// position returns the 1-based line and column of the byte at offset
// (len(data) is the position just past the end). A tab is one column.
func position(data []byte, offset int64) (line, col int) {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}
