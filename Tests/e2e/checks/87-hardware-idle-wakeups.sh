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
# shellcheck source=../tools/idle.sh
. "$E2E_HERE/tools/idle.sh"

name=hardware-idle-wakeups
bench=$FOLDCAM_BIN/foldcam-socket-bench
if [ ! -x "$bench" ]; then
    echo "SKIP $name: no $bench (build the project first)"
    exit 0
fi
idle_config
problems=()

restore=0
cleanup() {
    daemon_stop
    if ((restore)); then
        load_hinge || echo "$name: could not load the default hinge module again" >&2
    fi
    set_angle 180
}
trap cleanup EXIT

idle_simulate

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
