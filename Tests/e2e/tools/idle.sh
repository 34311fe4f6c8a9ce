# shellcheck shell=bash disable=SC2154 # name and bench are the sourcing script's
# The idle measurements of a hardware-mode foldcamd in the guest, shared by check
# 87-hardware-idle-wakeups (debug build, asserted) and bench/idle-hardware.sh (release build).
# Source lib.sh, vcam.sh and daemon.sh first, and set `name` (the INFO lines' check name) and
# `bench` (foldcam-socket-bench). The daemon is $FOLDCAM_BIN/foldcamd.
#
#   idle_config                  writes $config: the test rig, /dev/video20 as the virtual camera
#   memory_report LABEL PID      INFO lines: PID's smaps_rollup totals, the share of driver
#                                buffers (/dev/video*) in its Rss, and its largest mappings
#   idle_simulate                a simulate-mode daemon's VmRSS and memory_report, for comparison
#   idle_window LABEL            one 10 s idle window (foldcam-socket-bench --idle-config $config)
#                                with memory_report inside it; sets devices, poll_ms and rss and
#                                adds what is wrong to the array `problems`
#   load_hinge [PARAMETERS...]   (re)loads the hinge module and waits for udev and its node

idle_config() {
    config=$VCAM_DIR/idle-hardware.json
    cat > "$config" <<EOF
{"rig": "$E2E_HERE/rigs/duo-vivid.json", "loopbackDevice": "$E2E_LOOPBACK"}
EOF
}

# memory_report LABEL PID: where PID's resident memory is, as INFO lines: smaps_rollup's totals
# and the mappings holding the most (by file, anonymous ones one by one with their size).
memory_report() {
    local label=$1 pid=$2 rollup top
    rollup=$(awk '$1 ~ /^(Rss|Pss|Pss_Anon|Pss_File|Shared_Clean|Private_Clean|Private_Dirty|Anonymous):$/ { printf "%s%s %d", sep, $1, $2; sep = ", " }' "/proc/$pid/smaps_rollup" 2> /dev/null)
    info "$name" "$label: smaps_rollup (KiB) $rollup"
    # v4l2loopback's buffers, mapped for zero-copy: the driver's memory, counted in Rss.
    info "$name" "$label: of Rss, $(awk '/^[0-9a-f]+-[0-9a-f]+ / { video = ($6 ~ /^\/dev\/video/) } video && $1 == "Rss:" { kib += $2 } END { print kib + 0 }' "/proc/$pid/smaps") KiB are driver buffers mapped from /dev/video*"
    top=$(python3 - "/proc/$pid/smaps" <<'EOF_PY'
import collections, os, sys
rss, anon, key = collections.Counter(), collections.Counter(), None
for line in open(sys.argv[1]):
    fields = line.split()
    if "-" in fields[0] and not fields[0].endswith(":"):
        low, high = (int(x, 16) for x in fields[0].split("-"))
        key = os.path.basename(fields[5]) if len(fields) > 5 else "[anon %d KiB %s]" % ((high - low) // 1024, fields[1])
    elif fields[0] == "Rss:":
        rss[key] += int(fields[1])
    elif fields[0] == "Anonymous:":
        anon[key] += int(fields[1])
print(", ".join("%s %d (anon %d)" % (k, v, anon[k]) for k, v in rss.most_common(14) if v))
EOF_PY
)
    info "$name" "$label: largest mappings (Rss KiB) $top"
}

# idle_simulate: the simulate-mode daemon's memory, for comparison.
idle_simulate() {
    local socket=$VCAM_DIR/idle-simulate.sock pid
    rm -f "$socket"
    "$FOLDCAM_BIN/foldcamd" --simulate --quiet --socket "$socket" 2> "$VCAM_DIR/idle-simulate.err" &
    pid=$!
    if FOLDCAM_SOCKET=$socket python3 "$E2E_SOCKET_TOOL" wait-hello 40 "$pid" > /dev/null; then
        info "$name" "simulate mode: VmRSS $(awk '$1 == "VmRSS:" { printf "%.1f MB (%d KiB)", $2 / 1024, $2 }' "/proc/$pid/status")"
        memory_report "simulate mode" "$pid"
    else
        problems+=("the simulate-mode daemon did not answer hello: $(tail -n 1 "$VCAM_DIR/idle-simulate.err")")
    fi
    kill "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
}

# idle_window LABEL: one bench run against $config; sets devices (the device thread's wake-ups),
# poll_ms (the tick --probe published, empty for none) and rss, adds to problems.
idle_window() {
    local label=$1 out=$VCAM_DIR/idle-$1.out err=$VCAM_DIR/idle-$1.err bench_pid daemon total threads allowed count thread
    # The tick the daemon will run: the fastest pollMilliseconds --probe reports (none: no tick).
    poll_ms=$("$FOLDCAM_BIN/foldcamd" --probe --json --config "$config" 2> /dev/null | sed -n 's/^ *"pollMilliseconds": *\([0-9]*\).*/\1/p' | sort -n | head -n 1)
    "$bench" --daemon "$FOLDCAM_BIN/foldcamd" --idle-config "$config" --idle-seconds 10 > "$out" 2> "$err" &
    bench_pid=$!
    # Inside the window (reading /proc wakes none of the daemon's threads): where memory goes.
    if wait_until 60 grep -q "counting wake-ups" "$err"; then
        daemon=$(pgrep -P "$bench_pid" -x foldcamd | head -n 1)
        [ -z "$daemon" ] || memory_report "$label hardware mode" "$daemon"
    fi
    if ! wait "$bench_pid"; then
        problems+=("$label: foldcam-socket-bench failed: $(tail -n 3 "$err" | tr '\n' ' ')")
        devices='' rss=''
        return
    fi
    cat "$out" >&2
    total=$(sed -n 's/^ *wake-ups in \([0-9]*\) s *\([0-9]*\) context switches.*/\2 in \1 s/p' "$out")
    threads=$(sed -n 's/^ *by thread *//p' "$out")
    rss=$(sed -n 's/^ *VmRSS after start-up *//p' "$out" | cut -d' ' -f1-2)
    local polling="no sensor polled"
    [ -z "$poll_ms" ] || polling="sensors polled every $poll_ms ms"
    info "$name" "$label: idle hardware-mode daemon (no reader, hinge still, $polling): $total context switches; by thread: $threads; VmRSS $rss"
    devices=$(tr ',' '\n' <<< "$threads" | awk '$1 == "foldcam-devices" { print $2 }')
    # A polled sensor: its ticks, half again for a starved guest's late and split wake-ups (a
    # 200 ms tick woke 62 times in one run), plus 10; a busy loop or a doubled rate still fails.
    if [ -z "$poll_ms" ]; then allowed=0; else allowed=$((10000 * 3 / (poll_ms * 2) + 10)); fi
    if ((${devices:-0} > allowed)); then
        problems+=("$label: foldcam-devices woke $devices times in 10 s; the published poll tick (${poll_ms:-none}) allows $allowed")
    fi
    for thread in foldcam-produce foldcam-setup; do
        count=$(tr ',' '\n' <<< "$threads" | awk -v t="$thread" '$1 == t { print $2 }')
        if [ -z "$count" ]; then
            problems+=("$label: no thread $thread in the report")
        elif ((count > 2)); then
            problems+=("$label: $thread woke $count times in 10 s while nobody read the virtual camera")
        fi
    done
}

# load_hinge [PARAMETERS...]: (re)loads the hinge module and waits until udev has handled it and
# its device node exists.
load_hinge() {
    local hinge
    if [ -d /sys/module/hinge ]; then rmmod hinge || return 1; fi
    insmod "$E2E_TOOLS/hinge.ko" angle=180 "$@" || return 1
    udevadm settle -t 30 || return 1
    wait_until 20 hinge_sysfs > /dev/null || return 1
    hinge=$(hinge_sysfs)
    wait_until 20 test -c "/dev/${hinge##*/}"
}
