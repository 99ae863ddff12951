package rlimits

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	const M = 1 << 20
	tests := []struct {
		spec    string
		want    Limit // Resource is not compared
		wantErr string
	}{
		// valid
		{spec: "nofile=1024", want: Limit{Name: "nofile", Soft: 1024, Hard: 1024}},
		{spec: "nofile=1024:4096", want: Limit{Name: "nofile", Soft: 1024, Hard: 4096}},
		{spec: "nofile=1024:", want: Limit{Name: "nofile", Soft: 1024, KeepHard: true}},
		{spec: "nofile=:4096", want: Limit{Name: "nofile", Hard: 4096, KeepSoft: true}},
		{spec: "NOFILE = 10 ", want: Limit{Name: "nofile", Soft: 10, Hard: 10}},
		{spec: "nproc=0", want: Limit{Name: "nproc", Soft: 0, Hard: 0}},
		{spec: "cpu=10:unlimited", want: Limit{Name: "cpu", Soft: 10, Hard: Unlimited}},
		{spec: "core=unlimited", want: Limit{Name: "core", Soft: Unlimited, Hard: Unlimited}},
		{spec: "core=infinity:-1", want: Limit{Name: "core", Soft: Unlimited, Hard: Unlimited}},
		{spec: "core=0", want: Limit{Name: "core"}},
		{spec: "as=512M", want: Limit{Name: "as", Soft: 512 * M, Hard: 512 * M}},
		{spec: "as=1G:2g", want: Limit{Name: "as", Soft: 1 << 30, Hard: 2 << 30}},
		{spec: "fsize=4K:1MiB", want: Limit{Name: "fsize", Soft: 4096, Hard: M}},
		{spec: "memlock=64k", want: Limit{Name: "memlock", Soft: 64 << 10, Hard: 64 << 10}},
		{spec: "stack=8M:unlimited", want: Limit{Name: "stack", Soft: 8 * M, Hard: Unlimited}},
		{spec: "fsize=2T", want: Limit{Name: "fsize", Soft: 2 << 40, Hard: 2 << 40}},
		{spec: "as=18446744073709551615", want: Limit{Name: "as", Soft: Unlimited, Hard: Unlimited}},
		// invalid names
		{spec: "nofiles=10", wantErr: `unknown resource name "nofiles"`},
		{spec: "rss=10", wantErr: `unknown resource name "rss"`},
		{spec: "=10", wantErr: `unknown resource name ""`},
		{spec: "nofile", wantErr: "missing '='"},
		// bad values
		{spec: "nofile=", wantErr: "no value"},
		{spec: "nofile=:", wantErr: "no value"},
		{spec: "nofile=ten", wantErr: `"ten" is not a number`},
		{spec: "nofile=-5", wantErr: `"-5" is not a number`},
		{spec: "nofile=1.5", wantErr: `"1.5" is not a number`},
		{spec: "nofile=1:2:3", wantErr: `"2:3" is not a number`},
		{spec: "nofile=4096:1024", wantErr: "soft limit 4096 is above hard limit 1024"},
		{spec: "as=unlimited:1G", wantErr: "soft limit unlimited is above hard limit 1073741824"},
		{spec: "nofile=1K", wantErr: "size suffixes apply only to byte limits"},
		{spec: "cpu=1M", wantErr: "size suffixes apply only to byte limits"},
		{spec: "as=1MB", wantErr: `unknown size suffix "MB"`},
		{spec: "as=1P", wantErr: `unknown size suffix "P"`},
		{spec: "as=99999999999999999999", wantErr: "out of range"},
		{spec: "as=20000000T", wantErr: "out of range"},
		// A Kelvin sign lower-cases to k (found by FuzzParse).
		{spec: "as=1\u212a", wantErr: "non-ASCII character at byte 4"},
		{spec: "stac\u212a=1", wantErr: "non-ASCII character"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := Parse([]string{tt.spec})
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("Parse(%q) = %+v, want error containing %q", tt.spec, got, tt.wantErr)
				}
				msg := err.Error()
				if !strings.Contains(msg, tt.wantErr) {
					t.Errorf("error %q does not contain %q", msg, tt.wantErr)
				}
				if !errors.Is(err, ErrInvalid) {
					t.Errorf("error %q does not wrap ErrInvalid", msg)
				}
				// Every error lists the accepted names.
				if !strings.Contains(msg, strings.Join(Names(), ", ")) {
					t.Errorf("error %q does not list the accepted names", msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.spec, err)
			}
			if len(got) != 1 {
				t.Fatalf("Parse(%q) returned %d limits", tt.spec, len(got))
			}
			g := got[0]
			g.Resource = 0
			if !reflect.DeepEqual(g, tt.want) {
				t.Errorf("Parse(%q) = %+v, want %+v", tt.spec, g, tt.want)
			}
		})
	}
}

func TestParseSeveral(t *testing.T) {
	got, err := Parse([]string{"nofile=64", "core=0", "as=1G"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range got {
		names = append(names, l.String())
	}
	want := []string{"nofile=64:64", "core=0:0", "as=1073741824:1073741824"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("got %q, want %q (order kept)", names, want)
	}
	if got, err := Parse(nil); err != nil || got != nil {
		t.Errorf("Parse(nil) = %v, %v; want nil, nil", got, err)
	}
	if _, err := Parse([]string{"nofile=1", "NOFILE=2"}); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("duplicate name: err = %v, want 'given twice'", err)
	}
}

func TestNames(t *testing.T) {
	want := []string{"as", "core", "cpu", "fsize", "memlock", "msgqueue", "nofile", "nproc", "sigpending", "stack"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
}

func TestString(t *testing.T) {
	for _, tt := range []struct {
		l    Limit
		want string
	}{
		{Limit{Name: "nofile", Soft: 1, Hard: Unlimited}, "nofile=1:unlimited"},
		{Limit{Name: "nofile", Soft: 1, KeepHard: true}, "nofile=1:"},
		{Limit{Name: "nofile", Hard: 7, KeepSoft: true}, "nofile=:7"},
	} {
		if got := tt.l.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.l, got, tt.want)
		}
		// String's output parses back to the same limit.
		back, err := Parse([]string{tt.l.String()})
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.l.String(), err)
		}
		back[0].Resource = 0
		if back[0] != tt.l {
			t.Errorf("round trip of %q = %+v, want %+v", tt.want, back[0], tt.l)
		}
	}
}
