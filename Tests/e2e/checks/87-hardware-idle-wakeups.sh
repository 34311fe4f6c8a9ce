# shellcheck shell=bash source=../lib.sh
# The socket benchmark's idle figures (docs/benchmarks.md) for a hardware-mode foldcamd in the
# guest: the test rig with its vivid cameras, the IIO hinge (polled: the test module has no
# buffer), the uinput switches and the virtual camera on /dev/video20 that nobody reads, at the
# default sensor polling interval (50 ms). `foldcam-socket-bench --idle-config` counts every
# thread's context switches over 10 s. Asserted: the virtual camera's producer and setup threads
# sleep (at most 2 wake-ups each in the window: a starved guest can only lower the count); the
# rest (the sensor polling) is reported.
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
out=$VCAM_DIR/idle-hardware.out
if ! "$bench" --daemon "$FOLDCAM_BIN/foldcamd" --idle-config "$config" --idle-seconds 10 > "$out" 2> "$VCAM_DIR/idle-hardware.err"; then
    fail "$name" "foldcam-socket-bench failed: $(tail -n 3 "$VCAM_DIR/idle-hardware.err" | tr '\n' ' ')"
    exit 0
fi
cat "$out" >&2
total=$(sed -n 's/^ *wake-ups in \([0-9]*\) s *\([0-9]*\) context switches.*/\2 in \1 s/p' "$out")
threads=$(sed -n 's/^ *by thread *//p' "$out")
rss=$(sed -n 's/^ *VmRSS after start-up *//p' "$out" | cut -d' ' -f1-2)
echo "INFO $name: idle hardware-mode daemon (no reader, hinge still, sensor polled every 50 ms): $total context switches; by thread: $threads; VmRSS $rss"
problems=()
for thread in foldcam-produce foldcam-setup; do
    count=$(tr ',' '\n' <<< "$threads" | awk -v t="$thread" '$1 == t { print $2 }')
    if [ -z "$count" ]; then
        problems+=("no thread $thread in the report")
    elif ((count > 2)); then
        problems+=("$thread woke $count times in 10 s while nobody read the virtual camera")
    fi
done
if ((${#problems[@]})); then fail "$name" "$(IFS=';'; echo "${problems[*]}")"; else pass "$name"; fi
