#!/usr/bin/env bash
# bench/profile.sh — where the milliseconds of `omega-run -- /bin/true` go.
# Prints markdown on stdout (bench/PROFILE.md discusses one run of it).
#
#   bash bench/profile.sh
#
# Needs root (perf trace, perf record -a), perf, hyperfine and strace.
# Nothing in the repository is modified: the variants of omega-run are
# built with `go build -overlay` into a temporary directory.
set -euo pipefail

BUDGET=${BUDGET:-290}
if [[ -z ${OMEGA_PROFILE_GUARDED:-} ]]; then
	export OMEGA_PROFILE_GUARDED=1
	exec timeout --kill-after=10 "$BUDGET" bash "${BASH_SOURCE[0]}" "$@"
fi

RUNS=${RUNS:-100}        # hyperfine runs per command per round
ROUNDS=${ROUNDS:-2}      # interleaved rounds
TRACE_RUNS=${TRACE_RUNS:-20}
PERF_LAUNCHES=${PERF_LAUNCHES:-100}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T0=$SECONDS
log() { printf '[profile %3ds] %s\n' "$((SECONDS - T0))" "$*" >&2; }
die() {
	printf 'profile: %s\n' "$*" >&2
	exit 1
}
[[ $(id -u) == 0 ]] || die "run as root (perf trace and perf record -a need it)"
for t in perf hyperfine strace go; do command -v "$t" >/dev/null || die "$t is missing"; done

WORK=$(mktemp -d /var/tmp/omega-profile.XXXXXX)
trap '[[ ${KEEP:-0} == 1 ]] && echo "profile: kept $WORK" >&2 || rm -rf "$WORK"' EXIT
BIN=$WORK/bin
RES=$WORK/results
mkdir -p "$BIN" "$RES" "$WORK/overlay"
# --- builds -------------------------------------------------------------------

log "building omega-run, its variants and the helpers"
cd "$REPO"
go build -trimpath -o "$BIN/omega-run" . || die "go build failed"
for h in timeline perfsum report; do
	CGO_ENABLED=0 go build -trimpath -o "$BIN/$h" "./bench/$h"
done
CGO_ENABLED=0 go build -trimpath -o "$BIN/floor-static" ./bench/floor
go build -trimpath -tags floor_cgo -o "$BIN/floor-cgo" ./bench/floor
go build -trimpath -tags floor_cgo,floor_seccomp -o "$BIN/floor-seccomp" ./bench/floor

# Variant "nodocs": urfave/cli without its man-page support (build tag
# urfave_cli_no_docs drops md2man and blackfriday); manpage.go, which
# needs it, is replaced by a stub.
cat >"$WORK/overlay/manpage.go" <<'EOF'
package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func manCommand() *cli.Command {
	return &cli.Command{Name: "manpage", Hidden: true, Action: func(*cli.Context) error { return errors.New("not in this build") }}
}

func manPage(*cli.App) (string, error) { return "", errors.New("not in this build") }
EOF
# Variant "godebug": no container-aware GOMAXPROCS (the runtime reads
# /proc/self/cgroup and /proc/self/mountinfo at start, and re-checks).
cat >"$WORK/overlay/zz_godebug.go" <<'EOF'
//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0
package main
EOF
printf '{"Replace":{"%s":"%s"}}' "$REPO/manpage.go" "$WORK/overlay/manpage.go" >"$WORK/nodocs.json"
printf '{"Replace":{"%s":"%s","%s":"%s"}}' "$REPO/manpage.go" "$WORK/overlay/manpage.go" \
	"$REPO/zz_godebug.go" "$WORK/overlay/zz_godebug.go" >"$WORK/lean.json"
variants=(omega-run)
if [[ -f $REPO/manpage.go ]] && go build -trimpath -overlay "$WORK/nodocs.json" -tags urfave_cli_no_docs -o "$BIN/omega-run.nodocs" . 2>>"$WORK/build.log"; then
	variants+=(omega-run.nodocs)
	if go build -trimpath -overlay "$WORK/lean.json" -tags urfave_cli_no_docs -o "$BIN/omega-run.lean" . 2>>"$WORK/build.log"; then
		variants+=(omega-run.lean)
		# Static: no cgo, hence no libseccomp: this build installs NO
		# seccomp filter (it warns), so it shows what cgo costs, not a
		# shippable build.
		if CGO_ENABLED=0 go build -trimpath -overlay "$WORK/lean.json" -tags urfave_cli_no_docs -o "$BIN/omega-run.static" . 2>>"$WORK/build.log"; then
			variants+=(omega-run.static)
		fi
	fi
else
	log "variant builds failed (see $WORK/build.log); profiling omega-run as is only"
fi
# A home of its own (after the builds: Go's caches live below $HOME).
export HOME=$WORK/home
mkdir -p "$HOME"
for v in "${variants[@]}"; do
	"$BIN/$v" --mode sandbox -- /bin/true 2>/dev/null || die "$v --mode sandbox fails"
done

echo "# omega-run start-up profile"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), kernel $(uname -r)"
echo "- omega-run $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown), $(go version | cut -d' ' -f3-); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- variants: nodocs = -tags urfave_cli_no_docs (no md2man/blackfriday; manpage.go stubbed); lean = nodocs + //go:debug containermaxprocs=0,updatemaxprocs=0; static = lean + CGO_ENABLED=0 (no libseccomp: installs no filter)"
echo

# --- 1. ablation ladder ------------------------------------------------------------

log "ablation ladder: $ROUNDS rounds x $RUNS runs"
args=(-n "/bin/true" /bin/true
	-n "floor: static Go, exec" "$BIN/floor-static /bin/true"
	-n "floor: + cgo (ld.so, libc, pthreads)" "$BIN/floor-cgo /bin/true"
	-n "floor: + libseccomp-golang" "$BIN/floor-seccomp /bin/true")
for v in "${variants[@]}"; do
	args+=(-n "$v rwx" "$BIN/$v --mode rwx -- /bin/true")
done
for v in "${variants[@]}"; do
	args+=(-n "$v rx" "$BIN/$v --mode rx -- /bin/true")
done
args+=(-n "unshare -Urmpf --mount-proc" "unshare -Urmpf --mount-proc /bin/true"
	-n "bwrap" "bwrap --ro-bind / / --unshare-all --share-net --dev /dev --proc /proc -- /bin/true")
for v in "${variants[@]}"; do
	args+=(-n "$v sandbox" "$BIN/$v --mode sandbox -- /bin/true")
done
for r in $(seq "$ROUNDS"); do
	hyperfine -N --style none --warmup 5 --runs "$RUNS" --export-json "$RES/ladder-$r.json" "${args[@]}" >/dev/null 2>&1 ||
		die "hyperfine failed"
done
"$BIN/report" -table "$RES/ladder-*.json" -ref "/bin/true" -title "## 1. Ablation ladder (wall time, hyperfine -N, $ROUNDS interleaved rounds)"

# --- 2. timeline -----------------------------------------------------------------

log "timelines under perf trace ($TRACE_RUNS runs per mode)"
echo "## 2. Timeline of one launch (perf trace, marker system calls only)"
echo
for m in rwx rx sandbox; do
	"$BIN/timeline" -n "$TRACE_RUNS" -mode "$m" -- "$BIN/omega-run" --mode "$m" -- /bin/true || echo "(timeline for $m failed)"
	echo
done

# --- 3. sampled CPU profile ------------------------------------------------------------

echo "## 3. Where the CPU goes (perf record -a -g, cpu-clock at 10 kHz, $PERF_LAUNCHES launches)"
echo
for m in rx sandbox; do
	log "perf record: $PERF_LAUNCHES launches of --mode $m"
	perf record -q -e cpu-clock -F 10000 -a -g -o "$WORK/perf.$m.data" -- \
		sh -c "for i in \$(seq $PERF_LAUNCHES); do $BIN/omega-run --mode $m -- /bin/true; done" >/dev/null 2>&1 || true
	echo "### --mode $m"
	echo
	perf script -i "$WORK/perf.$m.data" 2>/dev/null | "$BIN/perfsum" -runs "$PERF_LAUNCHES" -comms omega-run,exe,true -top 10
	echo
done

# --- 4. counters --------------------------------------------------------------------

log "perf stat"
echo "## 4. Counters per launch (perf stat -r 30)"
echo
echo "| command | task-clock ms (CPU) | context switches | CPU migrations | page faults | wall ms |"
echo "|---|--:|--:|--:|--:|--:|"
stat_row() {
	local name=$1
	shift
	perf stat -r 30 -x, -e task-clock,context-switches,cpu-migrations,page-faults -o "$WORK/stat.csv" -- "$@" >/dev/null 2>&1 || return 0
	awk -F, -v name="$name" '
		$3=="task-clock" {tc=$1} $3=="context-switches" {cs=$1} $3=="cpu-migrations" {mig=$1} $3=="page-faults" {pf=$1}
		END {printf "| %s | %.2f | %.0f | %.0f | %.0f |", name, tc, cs, mig, pf}' "$WORK/stat.csv"
	# wall: perf stat -x does not print elapsed; take hyperfine's median from section 1 instead.
	echo " see §1 |"
}
stat_row "/bin/true" /bin/true
stat_row "floor: static Go" "$BIN/floor-static" /bin/true
stat_row "floor: + cgo + libseccomp-golang" "$BIN/floor-seccomp" /bin/true
for m in rwx rx sandbox; do
	for v in "${variants[@]}"; do
		stat_row "$v $m" "$BIN/$v" --mode "$m" -- /bin/true
	done
done
stat_row "bwrap" bwrap --ro-bind / / --unshare-all --share-net --dev /dev --proc /proc -- /bin/true
echo

# --- 5. package init ---------------------------------------------------------------------

log "GODEBUG=inittrace=1"
echo "## 5. Package initialisation (GODEBUG=inittrace=1, --mode sandbox, mean of 20 launches, both Go processes)"
echo
for i in $(seq 20); do
	GODEBUG=inittrace=1 "$BIN/omega-run" --mode sandbox -- /bin/true 2>&1 || true
done | awk '$1=="init" {clock[$2]+=$5; bytes[$2]+=$8; allocs[$2]+=$10; tot+=$5}
	END {
		for (p in clock) printf "%.3f\t%s\t%.0f\t%.0f\n", clock[p]/20, p, bytes[p]/20, allocs[p]/20
		printf "%.3f\t(all packages)\t\t\n", tot/20
	}' | sort -rn | head -12 | awk -F'\t' 'BEGIN {print "| package | init ms per launch | bytes | allocs |"; print "|---|--:|--:|--:|"}
	{printf "| %s | %.3f | %s | %s |\n", $2, $1, $3, $4}'
echo

# --- 6. system calls --------------------------------------------------------------------

log "strace -c"
echo "## 6. System calls of one --mode sandbox launch (strace -f -c; counts are exact, times are inflated by ptrace)"
echo
strace -f -c -o "$WORK/strace.txt" "$BIN/omega-run" --mode sandbox -- /bin/true
awk '/^ *[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+/ && $NF != "total" {
		errs = (NF == 6) ? $5 : ""; print $4 "\t" $NF "\t" errs
	}' "$WORK/strace.txt" | sort -rn | head -16 |
	awk -F'\t' 'BEGIN {print "| syscall | calls | errors |"; print "|---|--:|--:|"} {printf "| %s | %s | %s |\n", $2, $1, $3}'
awk '$NF == "total" {printf "\ntotal: %s system calls, %s failed\n", $4, (NF == 6 ? $5 : 0)}' "$WORK/strace.txt"
echo
log "done in $((SECONDS - T0)) s"
