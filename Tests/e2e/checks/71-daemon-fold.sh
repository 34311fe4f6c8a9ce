# shellcheck shell=bash source=../lib.sh
# The real foldcamd folds the duo rig (duo_rig: its vivid-format copy) as the IIO hinge sensor moves: after each angle the
# `directions` reply equals what `foldcamd scenario` computes for the same rig and angles, and
# a subscriber connected before the first step received the changes in order.
. "$E2E_HERE/lib.sh"
# shellcheck source=../tools/daemon.sh
. "$E2E_HERE/tools/daemon.sh"

# The decisions do not depend on the virtual camera (80-* checks it): loopbackLabel names no
# device, so no producer competes for the guest's CPU (the loopback is skipped as an output node).
daemon_prepare foldcamd-fold-hinge fold '"loopbackLabel": "no-producer", "sensorPollMilliseconds": 50' 180 || exit 0
watcher=
cleanup() {
    [ -z "$watcher" ] || kill "$watcher" 2> /dev/null
    daemon_stop
}
trap cleanup EXIT
if ! daemon_start "$config"; then
    fail foldcamd-fold-hinge "$DAEMON_ERROR"
    exit 0
fi

events=$work/events.jsonl
rm -f "$events" "$events.subscribed"
python3 "$E2E_SOCKET_TOOL" watch "$events" posture directions 2> "$work/watch.err" &
watcher=$!
for _ in $(seq 100); do [ -s "$events.subscribed" ] && break; sleep 0.05; done
[ -s "$events.subscribed" ] || echo "the subscriber did not get its subscribe reply" >&2

export FOLLOW_FINAL=$work/final.json
follow_steps foldcamd-fold-hinge "$work/duo-e2e.json" \
    hinge=180 hinge=120 hinge=80 hinge=40 hinge=10 hinge=40 hinge=80 hinge=120 hinge=180
if ((${#problems[@]})); then fail foldcamd-fold-hinge "$(IFS=';'; echo "${problems[*]}")"; else pass foldcamd-fold-hinge; fi

sleep 0.5  # the last events reach the subscriber
mapfile -t problems < <(python3 "$E2E_SOCKET_TOOL" events "$events" "$FOLLOW_FINAL" || echo "problem: checking the events failed") 
mapfile -t problems < <(printf '%s\n' "${problems[@]}" | sed -n 's/^problem: //p')
if ! kill -0 "$watcher" 2> /dev/null; then
    problems+=("the subscriber's connection ended: $(tail -n 1 "$work/watch.err")")
fi
if ((${#problems[@]})); then fail foldcamd-fold-events "$(IFS=';'; echo "${problems[*]}")"; else pass foldcamd-fold-events; fi
