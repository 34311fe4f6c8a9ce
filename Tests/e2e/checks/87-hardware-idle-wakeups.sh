# shellcheck shell=bash source=../lib.sh
# The socket benchmark's idle figures (docs/benchmarks.md) for a hardware-mode foldcamd in the
# guest: the test rig with its vivid cameras, the IIO hinge, the uinput switches and the virtual
# camera on /dev/video20 that nobody reads. `foldcam-socket-bench --idle-config` counts every
# thread's context switches over 10 s. Asserted: the virtual camera's producer and setup threads
# sleep (at most 2 wake-ups each in the window: a starved guest can only lower the count); the
# device thread wakes only for the poll tick that `foldcamd --probe` publishes: with a buffered
# hinge (no sensor polled) not at all, else at most once per published interval (plus 10% and 5
# for the start of the window). The test module has no buffer and no sampling_frequency, so
# today its hinge is polled at the default sensorPollMilliseconds (50 ms).
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=hardware-idle-wakeups
bench=$FOLDCAM_BIN/foldcam-socket-bench
if [ ! -x "$bench" ]; then
    echo "SKIP $name: no $bench (build the project first)"
    exit 0
fi
set_angle 180
config=$VCAM_DIR/idle-hardware.json
cat > "$config" <<EOF
{"rig": "$E2E_HERE/rigs/duo-vivid.json", "loopbackDevice": "$E2E_LOOPBACK"}
EOF
# The tick the daemon will run: the fastest pollMilliseconds --probe reports (none: no tick).
poll_ms=$("$FOLDCAM_BIN/foldcamd" --probe --json --config "$config" 2>/dev/null | sed -n 's/^ *"pollMilliseconds": *\([0-9]*\).*/\1/p' | sort -n | head -n 1)
out=$VCAM_DIR/idle-hardware.out
if ! "$bench" --daemon "$FOLDCAM_BIN/foldcamd" --idle-config "$config" --idle-seconds 10 > "$out" 2> "$VCAM_DIR/idle-hardware.err"; then
    fail "$name" "foldcam-socket-bench failed: $(tail -n 3 "$VCAM_DIR/idle-hardware.err" | tr '\n' ' ')"
    exit 0
fi
cat "$out" >&2
total=$(sed -n 's/^ *wake-ups in \([0-9]*\) s *\([0-9]*\) context switches.*/\2 in \1 s/p' "$out")
threads=$(sed -n 's/^ *by thread *//p' "$out")
rss=$(sed -n 's/^ *VmRSS after start-up *//p' "$out" | cut -d' ' -f1-2)
if [ -n "$poll_ms" ]; then polling="sensors polled every $poll_ms ms"; else polling="no sensor polled"; fi
echo "INFO $name: idle hardware-mode daemon (no reader, hinge still, $polling): $total context switches; by thread: $threads; VmRSS $rss"
problems=()
devices=$(tr ',' '\n' <<< "$threads" | awk '$1 == "foldcam-devices" { print $2 }')
if [ -z "$poll_ms" ]; then allowed=0; else allowed=$((10000 * 11 / (poll_ms * 10) + 5)); fi
if ((${devices:-0} > allowed)); then
    problems+=("foldcam-devices woke $devices times in 10 s; the published poll tick (${poll_ms:-none}) allows $allowed")
fi
for thread in foldcam-produce foldcam-setup; do
    count=$(tr ',' '\n' <<< "$threads" | awk -v t="$thread" '$1 == t { print $2 }')
    if [ -z "$count" ]; then
        problems+=("no thread $thread in the report")
    elif ((count > 2)); then
        problems+=("$thread woke $count times in 10 s while nobody read the virtual camera")
    fi
done
if ((${#problems[@]})); then fail "$name" "$(IFS=';'; echo "${problems[*]}")"; else pass "$name"; fi
