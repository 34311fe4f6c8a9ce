# shellcheck shell=bash source=../lib.sh
# The socket benchmark's idle figures (docs/benchmarks.md) for a hardware-mode foldcamd in the
# guest: the test rig with its vivid cameras, the IIO hinge, the uinput switches and the virtual
# camera on /dev/video20 that nobody reads. `foldcam-socket-bench --idle-config` counts every
# thread's context switches over 10 s, three times in this boot:
#   polled   the default hinge module (in_angl0_sampling_frequency 50 Hz, so the daemon's
#            sensorPollMilliseconds, 50 ms, sets the tick)
#   5hz      the same module with in_angl0_sampling_frequency 5: the tick follows the sensor (200 ms)
#   buffered the module reloaded with buffered=1 (an IIO kfifo buffer fed on every angle change):
#            no tick at all; then a daemon must still follow the hinge through the buffer
# Asserted each time: the virtual camera's producer and setup threads sleep (at most 2 wake-ups
# each: a starved guest can only lower the count); the device thread wakes only for the poll
# tick `foldcamd --probe` publishes: with the buffered hinge (no sensor polled) not at all, else
# at most once per published interval (plus 10% and 5 for the start of the window). Where the
# daemon's memory goes is printed as INFO lines (smaps_rollup and the largest mappings), beside
# a simulate-mode daemon's. The default hinge module is loaded again at the end.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"
# shellcheck source=../tools/daemon.sh
. "$E2E_HERE/tools/daemon.sh"

name=hardware-idle-wakeups
bench=$FOLDCAM_BIN/foldcam-socket-bench
if [ ! -x "$bench" ]; then
    echo "SKIP $name: no $bench (build the project first)"
    exit 0
fi
config=$VCAM_DIR/idle-hardware.json
cat > "$config" <<EOF
{"rig": "$E2E_HERE/rigs/duo-vivid.json", "loopbackDevice": "$E2E_LOOPBACK"}
EOF
problems=()

# memory_report LABEL PID: where PID's resident memory is, as INFO lines: smaps_rollup's totals
# and the mappings holding the most (by file, anonymous ones one by one with their size).
memory_report() {
    local label=$1 pid=$2 rollup top
    rollup=$(awk '$1 ~ /^(Rss|Pss|Pss_Anon|Pss_File|Shared_Clean|Private_Clean|Private_Dirty|Anonymous):$/ { printf "%s%s %d", sep, $1, $2; sep = ", " }' "/proc/$pid/smaps_rollup" 2> /dev/null)
    info "$name" "$label: smaps_rollup (KiB) $rollup"
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
    if [ -z "$poll_ms" ]; then allowed=0; else allowed=$((10000 * 11 / (poll_ms * 10) + 5)); fi
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
restore=0
cleanup() {
    daemon_stop
    if ((restore)); then
        load_hinge || echo "$name: could not load the default hinge module again" >&2
    fi
    set_angle 180
}
trap cleanup EXIT

# The simulate-mode daemon's memory, for comparison.
sim_socket=$VCAM_DIR/idle-simulate.sock
rm -f "$sim_socket"
"$FOLDCAM_BIN/foldcamd" --simulate --quiet --socket "$sim_socket" 2> "$VCAM_DIR/idle-simulate.err" &
sim_pid=$!
if FOLDCAM_SOCKET=$sim_socket python3 "$E2E_SOCKET_TOOL" wait-hello 40 "$sim_pid" > /dev/null; then
    info "$name" "simulate mode: VmRSS $(awk '$1 == "VmRSS:" { printf "%.1f MB", $2 / 1024 }' "/proc/$sim_pid/status")"
    memory_report "simulate mode" "$sim_pid"
else
    problems+=("the simulate-mode daemon did not answer hello: $(tail -n 1 "$VCAM_DIR/idle-simulate.err")")
fi
kill "$sim_pid" 2> /dev/null
wait "$sim_pid" 2> /dev/null

hinge=$(hinge_sysfs) || { fail "$name" "no IIO device named hinge"; exit 0; }
set_angle 180

# 1. The default module, polled at sensorPollMilliseconds.
idle_window polled

# 2. The sensor's own sampling frequency, slower than sensorPollMilliseconds, sets the tick.
frequency=$hinge/in_angl0_sampling_frequency
if echo 5 > "$frequency"; then
    idle_window 5hz
    [ "$poll_ms" = 200 ] || problems+=("5hz: --probe published a poll tick of '${poll_ms:-none}' ms for a 5 Hz sensor, expected 200")
    echo 50 > "$frequency"
else
    problems+=("writing 5 to $frequency failed")
fi

# 3. The buffered module: the device thread sleeps until the angle changes.
restore=1
if ! load_hinge buffered=1; then
    problems+=("buffered: the hinge module did not load with buffered=1")
elif [ ! -e "$(hinge_sysfs)/scan_elements/in_angl0_en" ]; then
    problems+=("buffered: the hinge module loaded with buffered=1 has no scan_elements/in_angl0_en")
else
    idle_window buffered
    [ -z "$poll_ms" ] || problems+=("buffered: --probe published a poll tick of $poll_ms ms for a buffered hinge")
    # The buffer delivers: an angle written reaches the daemon's state.
    if daemon_start "$config"; then
        started=$EPOCHREALTIME
        set_angle 90
        if python3 "$E2E_SOCKET_TOOL" wait-state 20 "abs(s['hinges']['fold'] - 90) < 0.01" > /dev/null 2> "$VCAM_DIR/idle-buffered-state.err"; then
            info "$name" "buffered: hinge 90 reached the daemon's state $(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s after the write"
        else
            problems+=("buffered: $(tail -n 1 "$VCAM_DIR/idle-buffered-state.err")")
        fi
        daemon_stop
    else
        problems+=("buffered: $DAEMON_ERROR")
    fi
fi
if ((${#problems[@]})); then fail "$name" "$(IFS=';'; echo "${problems[*]}")"; else pass "$name"; fi
