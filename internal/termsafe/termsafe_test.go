package termsafe

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, c := range Vectors {
		if got := String(c.In); got != c.Want {
			t.Errorf("String(%q) = %q, want %q", c.In, got, c.Want)
		}
	}
}

// TestEncoded: a JSON line of encoding/json's, made safe, is the table's,
// valid, and reads back as encoding/json's did;
// String's output and a line's end go through as they are.
func TestEncoded(t *testing.T) {
	for _, c := range JSONVectors {
		raw, err := json.Marshal(c.In)
		if err != nil {
			t.Fatal(err)
		}
		got := Encoded(raw)
		var back, before string
		if string(got) != `"`+c.Want+`"` || !utf8.Valid(got) || json.Unmarshal(got, &back) != nil || json.Unmarshal(raw, &before) != nil || back != before {
			t.Errorf("Encoded(json %q) = %s, want \"%s\" (reads back %q, not %q)", c.In, got, c.Want, back, before)
		}
	}
	for _, c := range Vectors {
		line := String(c.In) + "\r\n"
		if got := string(Encoded([]byte(line))); got != line {
			t.Errorf("Encoded(%q) = %q, want it kept", line, got)
		}
	}
	if got := string(Encoded([]byte("a\rb\x1b[2K\n"))); got != `a\u000db\u001b[2K`+"\n" {
		t.Errorf("Encoded of raw controls = %q", got)
	}
}
