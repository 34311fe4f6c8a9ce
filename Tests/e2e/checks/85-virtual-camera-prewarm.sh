# shellcheck shell=bash source=../lib.sh
# Pre-warm: a hinge closing slowly towards the closed posture lets the daemon open the outer
# camera ahead of the switch (it looks 10° ahead of a moving hinge), so the switch only swaps
# the source. The same switch made cold (the hinge jumps 180 -> 0) is measured first. Each gap
# runs from the write of the hinge angle that caused the switch (a `foldcamctl watch` subscriber
# tells which: the posture event just before the new source) to the reader's first frames of
# the new colour, so it includes up to one sensor poll (20 ms). Asserted: the outer camera was
# opened ahead of the switch and the switch took that stream over (no second open); the producer
# kept writing around both switches (never 2 s apart), and the reader saw no error or format
# change. Timings are reported, not asserted (TCG): the gaps, the longest intervals, and by the
# daemon's own clock the time from decision to feed, against the targets (pre-warmed: one output
# interval; cold: the camera's own start plus one interval).
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=virtual-camera-prewarm
cleanup() {
    vcam_watch_stop
    vcam_cleanup
}
trap cleanup EXIT
vcam_begin "$name" prewarm || exit 0
problems=()
vcam_watch_start

# switch_mark LABEL COLOUR SINCE SOURCE: records, for vcam-analyse, the write of the hinge angle
# that made SOURCE the source (the first such switch after SINCE).
switch_mark() {
    vcam_switch_mark "$events.decided" "$@" > /dev/null || problems+=("$1: no hinge write found that made $4 the source")
}
wait_colour "$reader" red 30 || problems+=("at start the reader shows '$(last_colours "$reader" 5)', not red")
vcam_settle "at start"

# Cold: one jump across the boundary.
since=$EPOCHREALTIME
vcam_hinge 0
wait_colour "$reader" green 30 || problems+=("after the jump to 0° the reader shows '$(last_colours "$reader" 5)', not green")
switch_mark cold green "$since" outer-front
vcam_settle "after the jump to 0°"
since=$EPOCHREALTIME
vcam_hinge 180
wait_colour "$reader" red 30 || problems+=("after the jump back to 180° the reader shows '$(last_colours "$reader" 5)', not red")
switch_mark unfold red "$since" inner-front
vcam_settle "after the jump back to 180°"

# (The jump's gap from the hinge write includes the device layer's reading filter: it holds back a
# reading that changes faster than a hinge can move, 720°/s, until enough time has passed.)

# Pre-warmed: 60° (half open, still inner), then 1° every 100 ms down to 10°.
vcam_hinge 60
wait_until 20 vcam_fold_is 60 || problems+=("the daemon's hinge did not reach 60° within 20 s")
vcam_settle "at 60°"
since=$EPOCHREALTIME
# The pace is the input, not a wait: a hinge closing at 10°/s, which the daemon sees moving.
for angle in $(seq 59 -1 10); do
    vcam_hinge "$angle"
    sleep 0.1
done
wait_colour "$reader" green 30 || problems+=("after closing slowly the reader shows '$(last_colours "$reader" 5)', not green")
switch_mark prewarmed green "$since" outer-front
vcam_settle "after closing slowly"
reader_stop

# The last open of outer-front must be the pre-warm, followed by the switch to it.
last_two=$(grep -E 'virtual camera: opening outer-front|virtual camera now shows outer-front' "$VCAM_LOG" | tail -n 2)
if ! grep -q 'opening outer-front ahead of a likely switch (pre-warm)' <<< "$(head -n 1 <<< "$last_two")" \
    || ! grep -q 'now shows outer-front' <<< "$(tail -n 1 <<< "$last_two")"; then
    problems+=("the slow fold did not switch to a pre-warmed outer-front (log: $(tr '\n' '|' <<< "$last_two"))")
fi
cat "$events" "$events.decided" | sort -n > "$events.all"
vcam_analyse "$events.all"
gap() { echo "$analysis" | sed -n "s/^$1 -> [a-z]*: gap \([0-9]*\) ms.*/\1/p"; }
cold=$(gap cold)
warm=$(gap prewarmed)
nominal=$(echo "$analysis" | sed -n 's/.*nominal interval \([0-9]*\).*/\1/p')
# Reported, not asserted: the issue's target (one output interval) is below what this guest can
# resolve. The gap includes the sensor poll and the reader's wake-up, and the guest alone shows
# writes up to ~100 ms apart (see check 80); cold and pre-warmed gaps overlap from run to run.
echo "INFO $name: switch gap from the hinge write: cold ${cold:-?} ms, pre-warmed ${warm:-?} ms (output interval ${nominal:-?} ms)"
[ -n "$warm" ] || problems+=("no gap measured for the pre-warmed switch")
# The daemon's own account (VirtualCameraController, a monotonic clock, no reader in between):
# from the decision to the feed of the new camera; the producer writes it at its next tick. The
# issue's targets (pre-warmed: within one output interval; cold: within the camera's own start
# plus one interval) are reported, not asserted: a TCG guest on a shared host can be descheduled
# for longer than an interval at any moment. Asserted are the switches themselves (above) and
# bounds a starved guest cannot break: 2 s from decision to feed, 2 s between two writes.
prewarmed_ms=$(sed -n 's/.*virtual camera now shows outer-front, \([0-9]*\) ms after the decision (pre-warmed.*/\1/p' "$VCAM_LOG" | tail -n 1)
cold_line=$(grep -m 1 'virtual camera now shows outer-front, [0-9]* ms after the decision (the camera took' "$VCAM_LOG")
cold_ms=$(sed -n 's/.*outer-front, \([0-9]*\) ms after the decision.*/\1/p' <<< "$cold_line")
start_ms=$(sed -n 's/.*the camera took \([0-9]*\) ms from open.*/\1/p' <<< "$cold_line")
interval=${nominal:-40}
if [ -z "$prewarmed_ms" ]; then
    problems+=("the daemon logged no pre-warmed switch to outer-front")
elif ((prewarmed_ms > 2000)); then
    problems+=("the pre-warmed switch took the daemon ${prewarmed_ms} ms from decision to feed (bound 2000 ms)")
fi
if [ -z "$cold_ms" ] || [ -z "$start_ms" ]; then
    problems+=("the daemon logged no timed cold switch to outer-front ($cold_line)")
elif ((cold_ms - start_ms > 2000)); then
    problems+=("the cold switch took the daemon ${cold_ms} ms from decision to feed, ${start_ms} ms of it the camera's own start (bound: start + 2000 ms)")
fi
echo "INFO $name: daemon's decision to feed: pre-warmed ${prewarmed_ms:-?} ms (target ${interval} ms, one output interval); cold ${cold_ms:-?} ms, of which the camera's own start ${start_ms:-?} ms (target: the start plus ${interval} ms)"
# No stall around either switch: writes never 2 s apart (the longest is in the figures above).
while IFS= read -r line; do problems+=("$line"); done < <(writes_over "$analysis" 2000)
vcam_report "$name" 60
