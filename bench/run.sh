#!/usr/bin/env bash
# bench/run.sh — omega-run's performance benchmark, side by side with
# bubblewrap in the same run. See bench/README.md.
#
#   bash bench/run.sh            # prints one markdown report on stdout
#   KEEP=1 bash bench/run.sh     # keep the raw hyperfine/JSON files
#
# Progress goes to stderr. The whole run is bounded by BUDGET seconds
# (default 290): everything it starts is killed when that runs out.
set -euo pipefail

BUDGET=${BUDGET:-290}
if [[ -z ${OMEGA_BENCH_GUARDED:-} ]]; then
	export OMEGA_BENCH_GUARDED=1
	# timeout makes itself a process group leader and signals the whole
	# group, so hyperfine and everything below it die with the script.
	exec timeout --kill-after=10 "$BUDGET" bash "${BASH_SOURCE[0]}" "$@"
fi

# Knobs (defaults fit the 5-minute budget on a 2-CPU VM).
STARTUP_ROUNDS=${STARTUP_ROUNDS:-2}  # interleaved hyperfine rounds
STARTUP_RUNS=${STARTUP_RUNS:-150}    # runs per command per round
WORK_ROUNDS=${WORK_ROUNDS:-4}
WORK_RUNS=${WORK_RUNS:-5}        # at most; cut down to fit the budget
FILES=${FILES:-20000}
SYSCALL_ROUNDS=${SYSCALL_ROUNDS:-3}
SYSCALL_CALLS=${SYSCALL_CALLS:-200000}  # calls per timed round; 10 rounds per process
RSS_RUNS=${RSS_RUNS:-5}
SECCOMP_VARIANT=${SECCOMP_VARIANT:-0} # 1: add bwrap with omega-run's filter (via sh -c exec)
# omega-run is built with the release build's tags, as `make build` and
# `make dist` use them: without urfave_cli_no_docs every start pays
# ~0.6 ms of man-page library init that shipped binaries do not have.
BUILDTAGS=${BUILDTAGS-urfave_cli_no_docs}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T0=$SECONDS

log() { printf '[bench %3ds] %s\n' "$((SECONDS - T0))" "$*" >&2; }
die() {
	printf 'bench: %s\n' "$*" >&2
	exit 1
}

# --- prerequisites ---------------------------------------------------------

need_pkgs=()
command -v bwrap >/dev/null || need_pkgs+=(bubblewrap)
command -v hyperfine >/dev/null || need_pkgs+=(hyperfine)
command -v unshare >/dev/null || need_pkgs+=(util-linux)
pkg-config --exists libseccomp 2>/dev/null || need_pkgs+=(libseccomp-dev pkg-config)
command -v gcc >/dev/null || need_pkgs+=(gcc)
# The static build's musl libseccomp (scripts/musl-libseccomp.sh).
command -v musl-gcc >/dev/null || need_pkgs+=(musl-tools)
command -v gperf >/dev/null || need_pkgs+=(gperf)
command -v curl >/dev/null || need_pkgs+=(curl)
command -v patch >/dev/null || need_pkgs+=(patch)
command -v xz >/dev/null || need_pkgs+=(xz-utils)
command -v make >/dev/null || need_pkgs+=(make)
if ((${#need_pkgs[@]})); then
	[[ $(id -u) == 0 ]] || die "missing ${need_pkgs[*]}: run as root, or: sudo apt-get install -y ${need_pkgs[*]}"
	log "installing ${need_pkgs[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq "${need_pkgs[@]}" >&2
fi
command -v go >/dev/null || die "go is not on PATH"

# Outside /tmp on purpose: /tmp is in omega-run's writable set, and a
# launcher binary there draws a warning (and a read-only bind) per run.
WORK=$(mktemp -d /var/tmp/omega-bench.XXXXXX)
cleanup() {
	local rc=$?
	if ((rc != 0)) && [[ -f $WORK/log ]]; then
		printf 'bench: failed (exit %d); last lines of %s:\n' "$rc" "$WORK/log" >&2
		tail -n 20 "$WORK/log" >&2 || true
	fi
	if [[ ${HOME_MOUNTED:-0} == 1 ]]; then
		umount "$WORK/home" 2>/dev/null || umount -l "$WORK/home" 2>/dev/null || true
	fi
	if [[ ${KEEP:-0} == 1 ]]; then
		printf 'bench: raw results kept in %s\n' "$WORK" >&2
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT
# When the budget runs out, timeout TERMs the whole group: report what
# there is.
trap 'log "time budget of ${BUDGET} s exhausted: partial report"; [[ -x ${BIN:-}/report ]] && "$BIN/report" -dir "$RES" -files "$FILES"; exit 124' TERM
BIN=$WORK/bin
RES=$WORK/results
mkdir -p "$BIN" "$RES"
: >"$WORK/log"

# --- build -------------------------------------------------------------------

log "building omega-run and the helpers"
# The shipped binary is the static one (make static / make dist, musl); the
# dynamic build (make build, go install) is measured next to it.
(cd "$REPO" && BUILDTAGS=$BUILDTAGS scripts/build-static.sh "$BIN/omega-run") >>"$WORK/log" 2>&1 || die "static build failed (see $WORK/log)"
(cd "$REPO" && go build -trimpath -tags "$BUILDTAGS" -o "$BIN/omega-run-dynamic" .) >>"$WORK/log" 2>&1 || die "go build failed (see $WORK/log)"
# The static build links musl; the glibc one shows what that saves.
(cd "$REPO" && LIBC=glibc BUILDTAGS=$BUILDTAGS scripts/build-static.sh "$BIN/omega-run-glibc") >>"$WORK/log" 2>&1 || die "static glibc build failed (see $WORK/log)"
for h in maxrss sysloop fsjob llprobe report; do
	(cd "$REPO" && CGO_ENABLED=0 go build -trimpath -o "$BIN/$h" "./bench/$h") >>"$WORK/log" 2>&1 ||
		die "building bench/$h failed"
done
if [[ $SECCOMP_VARIANT == 1 ]]; then
	(cd "$REPO" && go build -trimpath -o "$BIN/bpfdump" ./bench/bpfdump) >>"$WORK/log" 2>&1 &&
		"$BIN/bpfdump" default >"$WORK/filter.bpf" 2>>"$WORK/log" || SECCOMP_VARIANT=0
fi

# A home of its own: omega-run creates ~/.omega and ~/.claude, and the
# 20,000-file job runs in the data dir; none of it touches the caller's.
# As root it is a tmpfs (DATA_FS=disk keeps it on /var/tmp's filesystem):
# on ext4, back-to-back cycles of creating and deleting 20,000 files make
# the inode allocator scan past every recently deleted inode
# (recently_deleted(), find_inode_bit()), and one run's system time grew
# from 1.3 s to 13 s within minutes here — noise that buries a 15 %
# criterion, and that has nothing to do with the sandbox.
export HOME=$WORK/home
# Run as root, rx warns at every launch that Landlock does not stop chmod
# (README, Limitations): a line on stderr per run that earlier results did
# not have. The benchmark runs quiet so that rows stay comparable.
export OMEGA_RUN_LOG_LEVEL=error
mkdir -p "$HOME"
if [[ ${DATA_FS:-tmpfs} == tmpfs && $(id -u) == 0 ]]; then
	mount -t tmpfs -o size=1g,nr_inodes=400k,mode=0755 omega-bench "$HOME" || die "cannot mount a tmpfs on $HOME (DATA_FS=disk avoids it)"
	HOME_MOUNTED=1
fi
DATA=$HOME/.omega
CLAUDE=$HOME/.claude
mkdir -p "$DATA/workspace" "$DATA/tmp" "$CLAUDE"
OMEGA=$BIN/omega-run
TRUE=/bin/true

for m in rwx rx sandbox; do
	"$OMEGA" --mode "$m" -- "$TRUE" 2>>"$WORK/log" || die "omega-run --mode $m -- $TRUE fails on this machine"
done
if [[ -s $WORK/log ]] && grep -q 'omega-run: warning' "$WORK/log"; then
	log "omega-run warns (each run pays for it):"
	grep 'omega-run: warning' "$WORK/log" | sort -u | sed 's/^/    /' >&2
fi

{
	echo "data dir $DATA on $(findmnt -no FSTYPE -T "$DATA")"
	echo "omega-run $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown) (build tags: ${BUILDTAGS:-none}; the static release build, scripts/build-static.sh, unless a row says dynamic), $(go version | cut -d' ' -f3-)"
	echo "$(bwrap --version), $(hyperfine --version), $(unshare --version | head -n1)"
	echo "omega-run check: $("$OMEGA" check 2>/dev/null | grep -E '^(landlock|seccomp|  libseccomp)' | tr -s ' ' | paste -sd ';' -)"
	echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$RES/versions.txt"

# --- commands ------------------------------------------------------------------

BWRAP_REF=(bwrap --ro-bind / / --unshare-all --share-net --dev /dev --proc /proc)
# "Equivalent isolation": what omega-run's sandbox mode sets up, in
# bubblewrap's terms — the same namespaces (user, mount, pid, ipc, uts;
# not net, not cgroup), a read-only root with the data dir and ~/.claude
# writable, /tmp backed by <data-dir>/tmp, a fresh /run, a private /dev and
# /proc, death with the parent (omega-run: PDEATHSIG), and a new session
# (omega-run denies TIOCSTI with seccomp instead). bubblewrap has no
# Landlock, and no seccomp filter unless SECCOMP_VARIANT=1.
BWRAP_EQ=(bwrap --unshare-user --unshare-pid --unshare-ipc --unshare-uts --die-with-parent --new-session
	--ro-bind / / --bind "$DATA" "$DATA" --bind "$DATA/tmp" /tmp --bind "$CLAUDE" "$CLAUDE" --tmpfs /run
	--dev /dev --proc /proc)

# hyperfine -N splits commands like a shell does; none of these paths
# contain spaces (mktemp).
declare -a HF_ARGS
add() { # add SECTION NAME COMMAND...
	local section=$1 name=$2
	shift 2
	HF_ARGS+=(-n "$name" "$*")
	printf '%s / %s\t%s\n' "$section" "$name" "$*" >>"$RES/commands.tsv"
}

hf() { # hf ROUND HYPERFINE-ARGS...: hyperfine over HF_ARGS, rotated by ROUND
	# hyperfine runs the commands one after the other; starting each round
	# with a different one keeps load that comes and goes from always
	# hitting the same variants (the report merges rounds by name).
	local round=$1 n=$((${#HF_ARGS[@]} / 3)) rotated=()
	shift
	local k=$(((round - 1) % n * 3))
	rotated=("${HF_ARGS[@]:k}" "${HF_ARGS[@]:0:k}")
	hyperfine -N --style basic "$@" "${rotated[@]}" >>"$WORK/log" 2>&1 || die "hyperfine failed"
}

# --- start-up --------------------------------------------------------------

HF_ARGS=()
add start-up plain "$TRUE"
add start-up "unshare -Urmpf" unshare -Urmpf --mount-proc "$TRUE"
add start-up bwrap "${BWRAP_REF[@]}" -- "$TRUE"
add start-up "bwrap (equivalent)" "${BWRAP_EQ[@]}" -- "$TRUE"
if [[ $SECCOMP_VARIANT == 1 ]]; then
	add start-up "bwrap (equivalent + omega-run seccomp)" sh -c "'exec ${BWRAP_EQ[*]} --seccomp 9 -- $TRUE 9<$WORK/filter.bpf'"
fi
add start-up "omega-run rwx" "$OMEGA" --mode rwx -- "$TRUE"
add start-up "omega-run rx" "$OMEGA" --mode rx -- "$TRUE"
add start-up "omega-run sandbox" "$OMEGA" --mode sandbox -- "$TRUE"
add start-up "omega-run rx (dynamic build)" "$BIN/omega-run-dynamic" --mode rx -- "$TRUE"
add start-up "omega-run sandbox (dynamic build)" "$BIN/omega-run-dynamic" --mode sandbox -- "$TRUE"
add start-up "omega-run rx (static glibc)" "$BIN/omega-run-glibc" --mode rx -- "$TRUE"
add start-up "omega-run sandbox (static glibc)" "$BIN/omega-run-glibc" --mode sandbox -- "$TRUE"
for r in $(seq "$STARTUP_ROUNDS"); do
	log "start-up, round $r/$STARTUP_ROUNDS (${STARTUP_RUNS} runs per command)"
	hf "$r" --warmup 10 --runs "$STARTUP_RUNS" --export-json "$RES/startup-$r.json"
done

# --- workloads -------------------------------------------------------------

# The workloads are slow and, on a shared machine, unpredictable (the file
# job is ~1.5 s quiet, ten times that when other jobs hammer the disk). So
# each variant runs once first, untimed (warm-up and calibration), and the
# rounds and runs per round are cut down to fit the section's slice of the
# budget; the report shows how many runs each median rests on.
fit_runs() { # fit_runs SLICE_SECONDS: sets ROUNDS_NOW, RUNS_NOW from a calibration pass over HF_CMDS
	local slice=$1 t0 t1 c
	t0=$(date +%s.%N)
	for c in "${HF_CMDS[@]}"; do
		sync
		eval "$c" >/dev/null 2>>"$WORK/log" || die "calibration run failed: $c"
	done
	t1=$(date +%s.%N)
	read -r ROUNDS_NOW RUNS_NOW < <(awk -v s="$slice" -v p="$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" \
		-v R="$WORK_ROUNDS" -v N="$WORK_RUNS" 'BEGIN {
			rounds = R; runs = int(s / (R * p)); if (runs > N) runs = N
			if (runs < 1) { runs = 1; rounds = int(s / p); if (rounds < 1) rounds = 1; if (rounds > R) rounds = R }
			print rounds, runs
		}')
	log "  one untimed pass over the variants: $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}') s; timing $ROUNDS_NOW rounds x $RUNS_NOW runs"
}
left() { echo $((BUDGET - 40 - (SECONDS - T0))); } # seconds left, keeping 40 s for seccomp, RSS, report

FIND="sh -c 'find /usr | wc -l'"
HF_ARGS=()
HF_CMDS=()
addw() { add "$@"; shift 2; HF_CMDS+=("$*"); }
addw find plain "$FIND"
addw find "plain, 1-insn seccomp filter" "$BIN/sysloop" -filter allow -exec "$FIND"
# The kernel's own floor for a Landlock and seccomp confinement: one
# Landlock layer (read on /, writes in the data dir) and the cheapest filter.
addw find "plain, Landlock + 1-insn filter" "$BIN/llprobe" -read handled -w "$DATA" -- "$BIN/sysloop" -filter allow -exec "$FIND"
addw find bwrap "${BWRAP_REF[@]}" -- "$FIND"
addw find "omega-run rx" "$OMEGA" --mode rx -- "$FIND"
addw find "omega-run sandbox" "$OMEGA" --mode sandbox -- "$FIND"
slice=$(($(left) * 2 / 5))
log "find /usr | wc -l (slice ${slice} s)"
fit_runs "$slice"
for r in $(seq "$ROUNDS_NOW"); do
	log "find /usr | wc -l, round $r/$ROUNDS_NOW"
	hf "$r" --runs "$RUNS_NOW" --export-json "$RES/find-$r.json"
done

JOB="$BIN/fsjob -n $FILES $DATA"
HF_ARGS=()
HF_CMDS=()
addw files plain "$JOB"
addw files bwrap "${BWRAP_REF[@]}" --bind "$DATA" "$DATA" -- "$JOB"
addw files "omega-run rx" "$OMEGA" --mode rx -- "$JOB"
addw files "omega-run sandbox" "$OMEGA" --mode sandbox -- "$JOB"
slice=$(left)
log "$FILES files in the data dir (slice ${slice} s; sync before every run)"
fit_runs "$slice"
for r in $(seq "$ROUNDS_NOW"); do
	log "$FILES files, round $r/$ROUNDS_NOW"
	hf "$r" --prepare sync --runs "$RUNS_NOW" --export-json "$RES/files-$r.json"
done

# --- seccomp per system call -----------------------------------------------------

for r in $(seq "$SYSCALL_ROUNDS"); do
	log "seccomp per-syscall cost, round $r/$SYSCALL_ROUNDS"
	for sc in getppid ioctl; do
		L=("$BIN/sysloop" -syscall "$sc" -n "$SYSCALL_CALLS" -rounds 10)
		"${L[@]}" -label "no filter"
		"${L[@]}" -label "allow-all (1 insn)" -filter allow
		"$OMEGA" --mode rx -- "${L[@]}" -label "omega-run rx (default profile)"
		"$OMEGA" --mode sandbox -- "${L[@]}" -label "omega-run sandbox (default profile)"
	done >>"$RES/seccomp.jsonl" 2>>"$WORK/log"
done

# --- peak RSS ------------------------------------------------------------------

log "peak RSS"
M=("$BIN/maxrss" -n "$RSS_RUNS")
{
	"${M[@]}" -label "plain /bin/true" -- "$TRUE"
	"${M[@]}" -label "bwrap (outer process only, see the last check)" -- "${BWRAP_REF[@]}" -- "$TRUE"
	"${M[@]}" -label "omega-run rwx" -- "$OMEGA" --mode rwx -- "$TRUE"
	"${M[@]}" -label "omega-run rx" -- "$OMEGA" --mode rx -- "$TRUE"
	"${M[@]}" -label "omega-run sandbox" -- "$OMEGA" --mode sandbox -- "$TRUE"
	# PID 1 of the sandbox on its own, read from inside while it waits.
	hwm=$("$OMEGA" --mode sandbox -- awk '/^VmHWM/ {print $2}' /proc/1/status)
	printf '{"label":"omega-run sandbox: init stage (PID 1) alone, VmHWM","runs_kib":[%d],"children_kib":0}\n' "$hwm"
	# Coverage: 64 MiB touched by the program itself, and by an orphan
	# that PID 1 of the sandbox's pid namespace reaps.
	"$BIN/maxrss" -label "check: program touching 64 MiB in the sandbox" -- \
		"$OMEGA" --mode sandbox -- "$BIN/maxrss" -touch 64 | sed 's/}$/,"check_min_kib":65536}/'
	"$BIN/maxrss" -label "check: orphan touching 64 MiB, reaped by the sandbox's PID 1" -- \
		"$OMEGA" --mode sandbox -- sh -c "( $BIN/maxrss -touch 64 & ) ; sleep 1" | sed 's/}$/,"check_min_kib":65536}/'
	# bubblewrap does not wait for its child in a new pid namespace: its
	# tree is not covered, and its row above is its outer process alone.
	"$BIN/maxrss" -label "check: bwrap --unshare-all, program touching 64 MiB" -- \
		"${BWRAP_REF[@]}" -- "$BIN/maxrss" -touch 64 | sed 's/}$/,"check_min_kib":65536}/'
} >>"$RES/rss.jsonl" 2>>"$WORK/log"

log "done in $((SECONDS - T0)) s; report follows on stdout"
"$BIN/report" -dir "$RES" -files "$FILES"
