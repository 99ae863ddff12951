//go:build !linux

package sandbox

// homeFile is a home state file resolved once (resolveHome). The state
// sync runs on Linux only; elsewhere it is read and written by path.
type homeFile struct {
	real   string
	linked bool
	id     fileID // not known: zero
}

func openHome(path, shown string, roots []string) (*homeFile, error) {
	real, linked, err := resolveHome(path, shown, roots)
	if err != nil {
		return nil, err
	}
	return &homeFile{real: real, linked: linked}, nil
}

func (h *homeFile) close() {}

func (h *homeFile) read() ([]byte, fileAttrs, error) {
	data, err := readRegular(h.real, true, -1)
	if err != nil {
		return nil, fileAttrs{}, err
	}
	return data, attrsOf(h.real), nil
}

func (h *homeFile) write(data []byte, attrs fileAttrs) error { return atomicWrite(h.real, data, attrs) }

func (h *homeFile) removeTemps() {}

func removeTemps(int, ...string) {}
