package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
)

// decodeState decodes Claude Code's state into doc in one pass, its
// top-level keys matched exactly, as JSON.parse does: the projects, which
// make up most of the file, are decoded once (through a field, a
// differently spelt "projects" would need each decoded apart: see found).
func decodeState(data []byte, doc *stateDoc) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil {
		return err
	} else if t != json.Delim('{') {
		return errors.New("not an object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		var into any = &skipped{}
		switch {
		case key == "projects":
			if err := decodeProjects(dec, doc); err != nil {
				return err
			}
			continue
		case slices.ContainsFunc(stateKeys, func(k cfgKey) bool { return k.name == key }):
			into = field(doc, key)
		}
		var te *json.UnmarshalTypeError
		if err := dec.Decode(into); err != nil && !errors.As(err, &te) {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

// decodeProjects adds the projects object dec is at to doc, entry by
// entry, maxProjects of them at most; a value that is no object is
// skipped, as a map's decoding skipped it.
func decodeProjects(dec *json.Decoder, doc *stateDoc) error {
	if !dec.More() {
		return errors.New("a key without a value")
	}
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		if _, ok := t.(json.Delim); ok {
			return dec.Decode(&skipped{}) // an array's rest: not ours
		}
		return nil // a scalar
	}
	// A name twice in one object: the last wins, as in JSON.parse.
	m := map[string]*projectDoc{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		if _, again := m[name]; !again && len(m) == maxProjects {
			doc.manyProjects = true
			if err := dec.Decode(&skipped{}); err != nil {
				return err
			}
			continue
		}
		var p projectDoc
		var te *json.UnmarshalTypeError
		if err := dec.Decode(&p); err != nil && !errors.As(err, &te) {
			return err
		}
		m[name] = &p
	}
	for name, p := range m {
		if doc.Projects == nil {
			doc.Projects = projectLists{}
		}
		doc.Projects[name] = append(doc.Projects[name], p)
	}
	_, err = dec.Token()
	return err
}
