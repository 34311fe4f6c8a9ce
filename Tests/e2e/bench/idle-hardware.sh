# shellcheck shell=bash source=../lib.sh
# Benchmark of an idle daemon's memory and wake-ups (issue 29 item 3), run in the guest after the
# checks when FOLDCAM_E2E_BENCH=1, with the release foldcamd: a simulate-mode daemon's VmRSS
# beside a hardware-mode one's (the test rig, a virtual camera nobody reads) with the hinge
# polled (the default module) and buffered (reloaded with buffered=1), each with where its memory
# is (tools/idle.sh); and polled once more with a single malloc arena, to show what the
# per-thread arenas hold. Check 87-hardware-idle-wakeups measures the same with the debug build. The
# same bounds as that check's make the FAIL line; the memory figures are INFO lines.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"
# shellcheck source=../tools/daemon.sh
. "$E2E_HERE/tools/daemon.sh"
# shellcheck source=../tools/idle.sh
. "$E2E_HERE/tools/idle.sh"

name='bench-idle-hardware'
# foldcam-socket-bench only measures: the debug build's does.
bench=$FOLDCAM_BIN/foldcam-socket-bench
if [ -x "${FOLDCAM_BENCH_BIN:-}/foldcamd" ]; then
    FOLDCAM_BIN=$FOLDCAM_BENCH_BIN
fi
if [ ! -x "$bench" ]; then
    echo "SKIP $name: no $bench (build the project first)"
    exit 0
fi
info "$name" "foldcamd from $FOLDCAM_BIN; load average $(cut -d' ' -f1-3 /proc/loadavg)"
idle_config
problems=()
cleanup() {
    load_hinge || echo "$name: could not load the default hinge module again" >&2
    set_angle 180
}
set_angle 180
idle_simulate
idle_window polled
# How much the per-thread malloc arenas hold: the same with one arena for every thread.
GLIBC_TUNABLES=glibc.malloc.arena_max=1 idle_window polled-one-arena
trap cleanup EXIT
if load_hinge buffered=1; then
    idle_window buffered
else
    problems+=("buffered: the hinge module did not load with buffered=1")
fi
info "$name" "load average $(cut -d' ' -f1-3 /proc/loadavg)"
if ((${#problems[@]})); then fail "$name" "$(IFS=';'; echo "${problems[*]}")"; else pass "$name"; fi
