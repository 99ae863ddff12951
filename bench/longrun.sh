#!/usr/bin/env bash
# bench/longrun.sh — what a long run costs beside the program: PID 1 (the C
# init stage and the Go one), the connect broker, signal forwarding, the
# reaping of orphans, the --pty relay, and omega-run itself where it stays
# the parent. Each workload is timed per batch (the first and the last
# batch of ten are reported, so a slowdown after N operations shows), and
# omega-run's and PID 1's RSS, open fds, threads and CPU are sampled at its
# start and its end. See bench/README.md.
#
#   bash bench/longrun.sh        # one markdown report on stdout, as root
set -euo pipefail

CONNECTS=${CONNECTS:-20000}   # connects per row
ORPHANS=${ORPHANS:-3000}      # orphans per row
SIGNALS=${SIGNALS:-20000}     # signals per row, one every SIGNAL_PACE µs
SIGNAL_PACE=${SIGNAL_PACE:-20}
PTY_BYTES=${PTY_BYTES:-100M}  # through the terminal, per row
ECHOES=${ECHOES:-1000}        # keystroke round trips per row

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
log() { printf '[longrun %3ds] %s\n' "$SECONDS" "$*" >&2; }
[[ $(id -u) == 0 ]] || { echo "longrun: run as root (bwrap, --pids)" >&2; exit 1; }
for c in bwrap script go; do command -v $c >/dev/null || { echo "longrun: $c missing" >&2; exit 1; }; done

# Outside /tmp: the sandbox's /tmp is its own.
WORK=$(mktemp -d /var/tmp/omega-longrun.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
B=$WORK/bin
log "building"
(cd "$REPO" && go build -o "$B/omega-run" . && go build -tags omega_goinit -o "$B/omega-run-goinit" . &&
	CGO_ENABLED=0 go build -o "$B/longrun" ./bench/longrun) >&2
export HOME=$WORK/home # after go build: its caches are under the real one
mkdir -p "$HOME" "$WORK/sock"
L=$B/longrun
"$L" accept "$WORK/sock/ok" & PIDS+=($!)
"$L" accept "$WORK/sock/other" & PIDS+=($!)
sleep 0.3

# monitored NAME CMD...: run CMD (an omega-run) in the background, sample
# it at its start and once its workload's last batch is out (the program
# sleeps after it), print the rows' fields.
monitored() {
	local name=$1 out=$WORK/$1.out o
	shift
	"$@" >"$out" 2>&1 &
	o=$!
	sleep 0.5
	"$L" sample $o >"$WORK/$name.start" || true
	if [[ ${SIGNAL_TO:-} ]]; then
		"$L" sigsend -pace "$SIGNAL_PACE" $o "$SIGNALS" >"$WORK/$name.send"
		sleep 0.5 # the forwarded ones arrive before the sample and the last
	fi
	while [[ -z ${SIGNAL_TO:-} ]] && kill -0 $o 2>/dev/null && ! grep -q " i=$N " "$out"; do sleep 0.2; done
	"$L" sample $o >"$WORK/$name.end" || true
	if [[ ${SIGNAL_TO:-} ]]; then kill -USR2 $o; fi
	wait $o || true
	row "$name"
}

# row NAME: | name | first batch | last batch | outer RSS start→end, fds, CPU | PID 1 the same |
row() {
	local f=$WORK/$1.out first last
	[[ -f $WORK/$1.send ]] && f=$WORK/$1.send
	first=$(grep -m1 -o 'us_per_op=[0-9.]*' "$f" | cut -d= -f2)
	last=$(grep -o 'us_per_op=[0-9.]*' "$f" | tail -1 | cut -d= -f2)
	f=$WORK/$1.out
	printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "${first:-–}" "${last:-–}" \
		"$(procs "$1" outer)" "$(procs "$1" pid1)" "$(grep -o 'refused=[0-9]* eintr=[0-9]*\|zombies=[0-9]*\|got=[0-9]*' "$f" | tail -1)"
}
procs() { # procs NAME ROLE: rss start→end, fds start→end, CPU ticks at the end
	local s e
	s=$(grep "role=$2 " "$WORK/$1.start" 2>/dev/null) || { echo –; return; }
	e=$(grep "role=$2 " "$WORK/$1.end" 2>/dev/null) || e=$s
	f() { grep -o "$1=[0-9]*" <<<"$2" | cut -d= -f2; }
	echo "$(f rss_kb "$s")→$(f rss_kb "$e") kB, $(f fds "$s")→$(f fds "$e") fds, $(f threads "$e") thr, $(f cpu_ticks "$e") ticks"
}
plain() { # plain NAME CMD...: no omega-run to sample
	local name=$1
	shift
	"$@" >"$WORK/$name.out" 2>&1 || true
	row "$name"
}
header() { printf '\n### %s\n\n| row | µs/op, first batch | µs/op, last batch | omega-run | PID 1 | counts |\n|---|---|---|---|---|---|\n' "$1"; }

echo "# omega-run long-run bench ($(date -u +%FT%TZ), $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg))"

N=$CONNECTS
header "connect(2) to an --allow-socket, $N times (the broker)"
plain plain "$L" connect "$WORK/sock/ok" $N
plain bwrap bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --share-net -- "$L" connect "$WORK/sock/ok" $N
for s in omega-run omega-run-goinit; do
	monitored "$s" "$B/$s" --allow-socket "$WORK/sock/ok" -- sh -c "$L connect $WORK/sock/ok $N; sleep 3"
	monitored "$s-interrupted" "$B/$s" --allow-socket "$WORK/sock/ok" -- sh -c "$L connect -itimer 37 $WORK/sock/ok $N; sleep 3"
	monitored "$s-refused" "$B/$s" --allow-socket "$WORK/sock/ok" -- sh -c "$L connect $WORK/sock/other $N; sleep 3"
done

N=$ORPHANS
header "$N orphans reaped (sh -c '/bin/true &')"
plain bwrap-orphans bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --share-net -- "$L" orphans $N
for s in omega-run omega-run-goinit; do
	monitored "$s-orphans" "$B/$s" -- sh -c "$L orphans $N; sleep 3"
done
monitored "rx-parent-orphans" "$B/omega-run" --mode rx --pids 100000 -- sh -c "$L orphans $N; sleep 3"

header "$SIGNALS SIGUSR1 to omega-run, one every $SIGNAL_PACE µs (forwarded; counts: delivered, standard signals merge)"
for s in omega-run omega-run-goinit; do
	N=$SIGNALS SIGNAL_TO=1 monitored "$s-signals" "$B/$s" -- "$L" sigcount
done

printf '\n### the terminal: %s of `yes` on a raw terminal; %s keystroke echoes through `cat`\n\n| row | MB/s | echo p50 / p90 / p99 µs |\n|---|---|---|\n' "$PTY_BYTES" "$ECHOES"
W="stty raw -echo; yes | head -c $PTY_BYTES"
term() { # term NAME PREFIX...: the program on the terminal, after PREFIX (script: its -c)
	local name=$1 t e
	shift
	if [[ $1 == script ]]; then
		t=$("$L" pty tput 0 -- script -qfec "sh -c '$W'" /dev/null)
		e=$("$L" pty lat "$ECHOES" -- script -qfec cat /dev/null)
	else
		t=$("$L" pty tput 0 -- "$@" sh -c "$W")
		e=$("$L" pty lat "$ECHOES" -- "$@" cat)
	fi
	t=$(grep -o 'MB_per_s=[0-9.]*' <<<"$t" | cut -d= -f2)
	e=$(grep -o 'p[0-9]*_us=[0-9]*' <<<"$e" | cut -d= -f2 | paste -sd/)
	printf '| %s | %s | %s |\n' "$name" "$t" "$e"
}
term plain env
term bwrap bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --share-net --
term "script -f" script
term omega-run "$B/omega-run" --
term "omega-run --pty" "$B/omega-run" --pty --
