//go:build linux && amd64

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// socketcallProbe connects through the i386 ABI (int $0x80), as 32-bit
// programs do, with its arguments in memory below 4 GiB: first to its
// own socket OWN, then, once the test has bound it, to HOST; by
// socketcall(SYS_CONNECT) (32-bit glibc's only way) and by connect(362).
const socketcallProbe = `#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
static long i386(long nr, long b, long c, long d) {
	long r;
	__asm__ volatile ("int $0x80" : "=a"(r) : "a"(nr), "b"(b), "c"(c), "d"(d) : "memory");
	return r;
}
static long via(int socketcall, const char *path, char *low) {
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un *sa = (struct sockaddr_un *)low;
	unsigned *args = (unsigned *)(low + 256);
	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	strcpy(sa->sun_path, path);
	args[0] = fd, args[1] = (unsigned)(unsigned long)sa, args[2] = sizeof *sa;
	long r = socketcall ? i386(102, 3, (long)args, 0) : i386(362, fd, (long)sa, sizeof *sa);
	close(fd);
	return r;
}
int main(int argc, char **argv) {
	if (argc == 2 && strcmp(argv[1], "int80") == 0)
		return i386(20, 0, 0, 0) > 0 ? 0 : 1; /* getpid */
	char *low = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	int srv = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un own = {.sun_family = AF_UNIX};
	strcpy(own.sun_path, argv[1]);
	unlink(argv[1]);
	if (low == MAP_FAILED || bind(srv, (struct sockaddr *)&own, sizeof own) || listen(srv, 16))
		return perror("setup"), 2;
	printf("ready\n");
	fflush(stdout);
	struct stat st;
	for (int i = 0; i < 2000 && stat(argv[2], &st) != 0; i++)
		usleep(5000);
	printf("own socketcall=%ld connect=%ld host socketcall=%ld connect=%ld\n", via(1, argv[1], low),
	       via(0, argv[1], low), via(1, argv[2], low), via(0, argv[2], low));
	return 0;
}
`

// TestI386Connect: the connect broker follows socketcall's arguments, so
// 32-bit programs keep connecting to their own sockets and are refused
// host ones bound after the start, like 64-bit ones.
func TestI386Connect(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("needs gcc")
	}
	src, probe := filepath.Join(root, "socketcall.c"), filepath.Join(root, "socketcall")
	if err := os.WriteFile(src, []byte(socketcallProbe), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-O0", "-o", probe, src).CombinedOutput(); err != nil {
		t.Skipf("gcc cannot build the probe: %v\n%s", err, out)
	}
	// Some kernels and VMs (IA32 emulation off, a PVM guest) take no
	// int 0x80 at all: the kernel kills the caller with SIGSEGV.
	if err := exec.Command(probe, "int80").Run(); err != nil {
		t.Skipf("this machine runs no i386 system calls (int 0x80 outside omega-run: %v)", err)
	}
	for _, u := range users {
		for _, mode := range []string{"rwx", "sandbox"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				prof := filepath.Join(w.home, "with-i386.json")
				writeFile(t, prof, `{"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"], "syscalls": []}`)
				own := "/tmp/i3-" + worldID(w) + ".sock"
				t.Cleanup(func() { os.Remove(own) })
				host := filepath.Join(root, "i3-"+worldID(w)+".sock")
				var out string
				args := []string{"--mode", mode, "--seccomp", prof}
				if mode == "rwx" {
					args = args[:2] // the control: rwx refuses a profile it would not apply
				}
				got := bindAfterStartOut(t, w, host, &out, new(string), append(args, "--", probe, own, host)...)
				if strings.Contains(out, "socketcall=-38") && strings.Contains(out, "own socketcall=-38 connect=-38") {
					t.Skip("this kernel runs no i386 syscalls")
				}
				want := "own socketcall=0 connect=0 host socketcall=0 connect=0"
				if mode == "sandbox" {
					want = "own socketcall=0 connect=0 host socketcall=-13 connect=-13"
				}
				if !strings.Contains(out, want) || got != (mode == "rwx") {
					t.Errorf("probe: %q, host reached: %v; want %q", out, got, want)
				}
			})
		}
	}
}
