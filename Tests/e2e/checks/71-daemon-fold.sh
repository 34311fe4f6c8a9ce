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
# Every topic, so that `caught-up` can tell when it has all the events (the check reads the
# posture and directions events).
python3 "$E2E_SOCKET_TOOL" watch "$events" 2> "$work/watch.err" &
watcher=$!
wait_until 20 test -s "$events.subscribed" || echo "the subscriber got no subscribe reply within 20 s" >&2

export FOLLOW_FINAL=$work/final.json
follow_steps foldcamd-fold-hinge "$work/duo-e2e.json" \
    hinge=180 hinge=120 hinge=80 hinge=40 hinge=10 hinge=40 hinge=80 hinge=120 hinge=180
if ((${#problems[@]})); then fail foldcamd-fold-hinge "$(IFS=';'; echo "${problems[*]}")"; else pass foldcamd-fold-hinge; fi

# The subscriber has every event once it holds the daemon's latest seq.
problems=()
if python3 "$E2E_SOCKET_TOOL" caught-up "$events" 30 2> "$work/caught-up.err"; then
    mapfile -t problems < <(python3 "$E2E_SOCKET_TOOL" events "$events" "$FOLLOW_FINAL" || echo "problem: checking the events failed")
    mapfile -t problems < <(printf '%s\n' "${problems[@]}" | sed -n 's/^problem: //p')
else
    problems+=("$(tail -n 1 "$work/caught-up.err")")
fi
if ! kill -0 "$watcher" 2> /dev/null; then
    problems+=("the subscriber's connection ended: $(tail -n 1 "$work/watch.err")")
fi
if ((${#problems[@]})); then fail foldcamd-fold-events "$(IFS=';'; echo "${problems[*]}")"; else pass foldcamd-fold-events; fi
