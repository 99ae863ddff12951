package sandbox

import "testing"

func TestFilterNotify(t *testing.T) {
	cases := []struct{ in, want string }{
		{"READY=1", "READY=1"},
		{"READY=1\nSTATUS=up\nMAINPID=1", "READY=1\nSTATUS=up"},
		{"MAINPID=1", ""},
		{"NOTIFYACCESS=all\nFDSTORE=1\nFDNAME=x\nBARRIER=1", ""},
		{"RELOADING=1\nMONOTONIC_USEC=123", "RELOADING=1\nMONOTONIC_USEC=123"},
		{"WATCHDOG=1\nWATCHDOG_USEC=5\nEXTEND_TIMEOUT_USEC=9\nSTOPPING=1", "WATCHDOG=1\nWATCHDOG_USEC=5\nEXTEND_TIMEOUT_USEC=9\nSTOPPING=1"},
		{"READY", ""},                // no assignment
		{"READYX=1\nready=1", ""},    // keys are exact
		{"STATUS=a=b", "STATUS=a=b"}, // the value may hold '='
		{"ERRNO=2\nBUSERROR=x.y", "ERRNO=2\nBUSERROR=x.y"},
		{"READY=1\rMAINPID=1\rNOTIFYACCESS=all", "READY=1"}, // systemd splits at \r too
		{"READY=1\r\nSTATUS=x\n\n", "READY=1\nSTATUS=x"},
		{"READY=1\nSTATUS=a\x00MAINPID=1", ""}, // systemd drops a message with a NUL
	}
	for _, c := range cases {
		if got := string(filterNotify([]byte(c.in))); got != c.want {
			t.Errorf("filterNotify(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
