# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 900
# Where the zero-copy producer spends its time against the bare loop (issue 29 item 2): runs only
# when named (FOLDCAM_E2E_BENCHES='profile-*' or '@(virtual|profile)-*' to profile at 1080p), not with every
# benchmark run. At 640x480 (vivid's webcam input), or at 1920x1080 after bench/virtual-camera.sh
# left vivid's HDMI inputs at that size, it takes in turn the bare loop (tools/bare-loop) and
# foldcamd's producer thread: CPU per frame and context switches over 10 s, `strace -c` of the
# thread alone over 10 s (system calls per frame), and `perf record` of it (a software clock:
# no PMU under TCG) with the hottest symbols as INFO lines and the call graphs in
# $E2E_LOGS/NAME.perf.txt. Then a cold switch (the hinge at rest at 40° jumps to 20°) under
# `strace -f -tt -T` of the whole daemon, in $E2E_LOGS/cold-switch.strace (the write's time in
# cold-switch.mark). Figures only; PASS unless the daemon or the bare loop could not run.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"
name=bench-profile-producer
if [[ " ${BENCHES:-*} " != *profile* ]]; then
    echo "SKIP $name: runs only when named (FOLDCAM_E2E_BENCHES='profile-*')"
    exit 0
fi
# shellcheck disable=SC2034 # FOLDCAM_BIN and VCAM_RIG are read by tools/vcam.sh
if [ -x "${FOLDCAM_BENCH_BIN:-}/foldcamd" ]; then FOLDCAM_BIN=$FOLDCAM_BENCH_BIN; fi
bare_pid=
cleanup() {
    [ -z "$bare_pid" ] || kill "$bare_pid" 2> /dev/null
    vcam_cleanup
}
trap cleanup EXIT
info() { echo "INFO $name: $*"; }
inner=$(camera_node inner-front)
# The mode vivid is in: HDMI at 1080p after the virtual-camera benchmark, else the webcam input.
# shellcheck disable=SC2034 # VCAM_RIG is read by tools/vcam.sh
if v4l2-ctl -d "$inner" --get-fmt-video 2> /dev/null | grep -q 'Width/Height *: *1920/1080'; then
    size=1920x1080 fps=30 VCAM_RIG=duo-vivid-1080p
else
    size=640x480 fps=25 VCAM_RIG=duo-vivid
fi
frames=$((10 * fps))
switches() { awk '/ctxt_switches/ { s += $2 } END { print s }' "/proc/$1/task/$2/status"; }
runtime() { cut -d' ' -f1 "/proc/$1/task/$2/schedstat"; }

# profile PID TID LABEL: the thread TID of process PID, three 10 s windows.
profile() {
    local c0 c1 r0 r1 tracer
    c0=$(switches "$1" "$2")
    r0=$(runtime "$1" "$2")
    sleep 10
    c1=$(switches "$1" "$2")
    r1=$(runtime "$1" "$2")
    info "$size $3: $(awk -v r=$((r1 - r0)) -v f="$frames" 'BEGIN { printf "%.3f", r / f / 1e6 }') ms CPU per frame, $((c1 - c0)) context switches in 10 s ($frames frames)"
    # Without -f, strace attaches to the thread named, not to the whole process.
    timeout 15 strace -c -p "$2" -o "$VCAM_DIR/$3.strace" > /dev/null 2>&1 &
    tracer=$!
    sleep 10
    kill -INT "$tracer" 2> /dev/null
    wait "$tracer"
    sed "s/^/INFO $name: $size $3 strace (10 s, $frames frames): /" "$VCAM_DIR/$3.strace" | head -n 25
    perf record -q -F 499 -g -t "$2" -o "$VCAM_DIR/$3.perf" -- sleep 10 > /dev/null 2>&1
    perf report -q --no-children --stdio -i "$VCAM_DIR/$3.perf" --percent-limit 2 -g none 2> /dev/null | grep . | head -n 30 \
        | sed "s/^/INFO $name: $size $3 perf: /"
    perf report -q --no-children --stdio -i "$VCAM_DIR/$3.perf" --percent-limit 2 -g caller --max-stack 16 2> /dev/null | head -n 400 > "$E2E_LOGS/$3.perf.txt"
}

reader=$VCAM_DIR/profile-bare.reader
"$E2E_TOOLS/bare-loop" "$inner" "$E2E_LOOPBACK" "$size" "$fps" > "$VCAM_DIR/profile-bare.out" 2>&1 &
bare_pid=$!
problems=()
if wait_until 30 reader_start "$reader" && wait_colour "$reader" red 10; then
    profile "$bare_pid" "$bare_pid" bare
else
    problems+=("no red frames from the bare loop ($(tr '\n' ' ' < "$VCAM_DIR/profile-bare.out"))")
fi
reader_stop
kill "$bare_pid"
wait "$bare_pid"
bare_pid=

set_angle 180
if VCAM_CONFIG_EXTRA=', "virtualCameraForwarding": "auto"' vcam_start && vcam_wait_readiness idle 40; then
    reader=$VCAM_DIR/profile-zero-copy.reader
    if reader_start "$reader" && vcam_wait_readiness ready 40 && wait_colour "$reader" red 10; then
        tid=$(grep -l '^foldcam-produce$' /proc/"$VCAM_PID"/task/*/comm | head -n 1 | cut -d/ -f5)
        profile "$VCAM_PID" "$tid" zero-copy
        for task in /proc/"$VCAM_PID"/task/*; do
            info "$size foldcamd thread $(cat "$task/comm"): $(awk '/ctxt_switches/ { s += $2 } END { print s }' "$task/status") context switches, $(cut -d' ' -f1 "$task/schedstat") ns CPU since it started"
        done
        # A cold switch's timeline: every thread's system calls, timed.
        set_angle 40
        wait_until 20 vcam_fold_is 40
        frames_after "$reader" 25 30
        timeout 30 strace -f -tt -T -o "$E2E_LOGS/cold-switch.strace" -p "$VCAM_PID" > /dev/null 2>&1 &
        tracer=$!
        sleep 2
        echo "$EPOCHREALTIME hinge 20" > "$E2E_LOGS/cold-switch.mark"
        set_angle 20
        wait_colour "$reader" green 30 || problems+=("no green after the jump to 20°")
        echo "$EPOCHREALTIME green" >> "$E2E_LOGS/cold-switch.mark"
        sleep 1
        kill -INT "$tracer" 2> /dev/null
        wait "$tracer"
        tac "$VCAM_LOG" | sed '/^--- foldcamd started at/q' | tac | grep -E 'now shows|opening' | tail -n 2 | sed "s/^/INFO $name: $size (under strace): /"
    else
        problems+=("no red frames from foldcamd")
    fi
    reader_stop
else
    problems+=("foldcamd did not start idle")
fi
vcam_stop
if ((${#problems[@]})); then fail "$name" "$(IFS=';'; echo "${problems[*]}")"; else pass "$name"; fi
