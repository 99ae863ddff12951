// Command probe is the program the static test confines. It is built
// with CGO_ENABLED=0, so it needs nothing from the root it runs in. It
// tries to create each file named on its command line, one line each
// ("create PATH: ok" or the error), then prints the NoNewPrivs and
// Seccomp lines of /proc/self/status.
package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	for _, p := range os.Args[1:] {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, err = f.WriteString("written from inside\n")
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Printf("create %s: %v\n", p, err)
		} else {
			fmt.Printf("create %s: ok\n", p)
		}
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "NoNewPrivs:") || strings.HasPrefix(line, "Seccomp:") {
			fmt.Println(strings.Join(strings.Fields(line), " "))
		}
	}
}
