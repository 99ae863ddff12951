package nsexec

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOnAllThreads: as confineInit does it, around what confine does to
// its own thread, every thread of a process (the Go runtime's and some
// held by locked goroutines) ends with no capabilities and no_new_privs.
// In a child: it gives up its capabilities for good. Without cgo only
// (make test runs it so).
func TestOnAllThreads(t *testing.T) {
	if os.Getenv("OMEGA_TEST_ALL_THREADS") == "1" {
		allThreadsChild()
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs capabilities to drop")
	}
	if !otherThreadsConfined {
		t.Skip("a cgo build leaves the other threads (pid1threads_cgo_linux.go): run with CGO_ENABLED=0")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestOnAllThreads$")
	cmd.Env = append(os.Environ(), "OMEGA_TEST_ALL_THREADS=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	threads := 0
	for _, l := range strings.Split(string(out), "\n") {
		task, status, ok := strings.Cut(l, "task ")
		if !ok || task != "" {
			continue
		}
		threads++
		for _, want := range []string{"CapInh:\t0000000000000000", "CapPrm:\t0000000000000000",
			"CapEff:\t0000000000000000", "CapAmb:\t0000000000000000", "NoNewPrivs:\t1"} {
			if !strings.Contains(status, want) {
				t.Errorf("thread %s: want %q", status[:strings.IndexByte(status+" ", ' ')], want)
			}
		}
	}
	if threads < 5 {
		t.Fatalf("%d threads listed, want the runtime's and 4 held:\n%s", threads, out)
	}
}

// allThreadsChild holds 4 threads, confines as confineInit would, and
// prints each thread's status on one line.
func allThreadsChild() {
	runtime.LockOSThread()
	release := make(chan struct{})
	for i := 0; i < 4; i++ {
		held := make(chan struct{})
		go func() {
			runtime.LockOSThread()
			close(held)
			<-release
		}()
		<-held
	}
	step := func(name string, err error) {
		if err != nil {
			fmt.Println(name+":", err)
			os.Exit(1)
		}
	}
	step("this thread's bounding set", dropBounding()) // confine's steps
	step("this thread's capabilities", clearCapabilities())
	step("no_new_privs", unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
	step("other threads", dropOnAllThreads())
	tasks, err := os.ReadDir("/proc/self/task")
	step("tasks", err)
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/status")
		step("status", err)
		fmt.Println("task " + task.Name() + " " + strings.ReplaceAll(string(b), "\n", " "))
	}
	close(release)
	os.Exit(0)
}
