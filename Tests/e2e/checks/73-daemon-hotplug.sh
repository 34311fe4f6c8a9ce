# shellcheck shell=bash source=../lib.sh
# Hotplug with the real foldcamd: unbinding vivid's platform device removes all three cameras
# (vivid's instances share one platform device, so there is no per-camera unbind); each becomes
# unavailable with reason "unplugged", drops out of `devices` and of every direction list, and a
# subscriber sees it. Binding again brings them back with the same ids and directions. The vivid
# settings guest-init made are restored afterwards for the checks that follow.
. "$E2E_HERE/lib.sh"
# shellcheck source=../tools/daemon.sh
. "$E2E_HERE/tools/daemon.sh"

daemon_prepare foldcamd-unplug hotplug '"loopbackLabel": "foldcam virtual camera"' 180 || exit 0
driver=/sys/bus/platform/drivers/vivid
device=$(cd "$driver" 2> /dev/null && ls -d vivid.* 2> /dev/null | head -n 1)
if [ -z "$device" ]; then
    fail foldcamd-unplug "no vivid platform device bound to $driver"
    exit 0
fi

# restore_vivid: bound, with guest-init's patterns and format (the next checks rely on them).
restore_vivid() {
    [ -e "$driver/$device" ] || echo "$device" > "$driver/bind"
    udevadm settle -t 20
    local dev name node
    for dev in /sys/class/video4linux/video*; do
        name=$(cat "$dev/name")
        [[ $name == vivid-00[0-2]-vid-cap ]] || continue
        node=/dev/${dev##*/}
        v4l2-ctl -d "$node" -c test_pattern=$((7 + ${name:8:1})) -c osd_text_mode=2 \
            --set-fmt-video=width=640,height=480,pixelformat=YUYV --set-parm=25 > /dev/null \
            || echo "could not restore $name ($node)" >&2
    done
}
watcher=
reader=
cleanup() {
    [ -z "$watcher" ] || kill "$watcher" 2> /dev/null
    [ -z "$reader" ] || { kill "$reader" 2> /dev/null; wait "$reader" 2> /dev/null; }
    daemon_stop
    restore_vivid
}
trap cleanup EXIT
if ! daemon_start "$config"; then
    fail foldcamd-unplug "$DAEMON_ERROR"
    exit 0
fi
all_available="all(s['cameras'][c]['available'] for c in ('inner-front', 'outer-front', 'back'))"
all_unplugged="all(s['cameras'][c].get('reason') == 'unplugged' and not s['cameras'][c]['available'] for c in ('inner-front', 'outer-front', 'back'))"
ready="s['readiness']['state'] == 'ready'"
# The virtual camera runs only while someone reads it: once the daemon is idle (it has written
# its idle frame, so the loopback offers capture), a reader.
python3 "$E2E_SOCKET_TOOL" wait-state 30 "s['readiness']['state'] == 'idle'" > /dev/null 2> "$work/idle.err" \
    || echo "before the reader: $(cat "$work/idle.err")" >&2
"$E2E_TOOLS/loop-reader" "$E2E_LOOPBACK" "$work/reader.log" &
reader=$!
python3 "$E2E_SOCKET_TOOL" wait-state 30 "$all_available and $ready" > "$work/before.state" 2> "$work/before.err" \
    || echo "before unbinding: $(cat "$work/before.err")" >&2
sock directions > "$work/before.directions"
sock devices > "$work/before.devices"

events=$work/events.jsonl
rm -f "$events" "$events.subscribed"
# Every topic, so that `caught-up` can tell when it has all the events (the check reads the
# devices and readiness events).
python3 "$E2E_SOCKET_TOOL" watch "$events" 2> "$work/watch.err" &
watcher=$!
wait_until 20 test -s "$events.subscribed" || echo "the subscriber got no subscribe reply within 20 s" >&2

# --- unplug ---
unbind_started=$EPOCHREALTIME
echo "$device" > "$driver/unbind"
problems=()
if ! python3 "$E2E_SOCKET_TOOL" wait-state 20 "$all_unplugged" > "$work/unplugged.state" 2> "$work/unplugged.err"; then
    problems+=("after unbinding $device: $(tail -n 1 "$work/unplugged.err")")
else
    info foldcamd-unplug "the state said unplugged $(awk -v a="$unbind_started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s after the unbind (polled every 0.1 s)"
    sock directions > "$work/unplugged.directions"
    sock devices > "$work/unplugged.devices"
    mapfile -t found < <(python3 - "$work/unplugged.directions" "$work/unplugged.devices" <<'EOF'
import json, sys
directions, devices = (json.load(open(p)) for p in sys.argv[1:3])
for name, display in directions["displays"].items():
    if display["forward"] or display["backward"] or display["cameras"]:
        print("display %s still lists cameras: forward %s backward %s" % (name, display["forward"], display["backward"]))
listed = [c.get("rigCamera") or c.get("uniqueID") for c in devices["cameras"]]
if listed:
    print("devices still lists %s" % listed)
EOF
    [ $? = 0 ] || echo "the unplugged comparison failed"
    )
    problems+=("${found[@]}")
fi
if ((${#problems[@]})); then fail foldcamd-unplug "$(IFS=';'; echo "${problems[*]}")"; else pass foldcamd-unplug; fi

# --- plug back ---
bind_started=$EPOCHREALTIME
echo "$device" > "$driver/bind"
problems=()
if ! python3 "$E2E_SOCKET_TOOL" wait-state 30 "$all_available" > "$work/after.state" 2> "$work/after.err"; then
    problems+=("after binding $device again: $(tail -n 1 "$work/after.err")")
else
    info foldcamd-replug "all three available again $(awk -v a="$bind_started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s after the bind"
    sock directions > "$work/after.directions"
    sock devices > "$work/after.devices"
    # The virtual camera's readiness comes back once a frame of the camera is out.
    python3 "$E2E_SOCKET_TOOL" wait-state 30 "$ready" > /dev/null 2> "$work/ready.err" \
        || problems+=("after binding $device again: $(tail -n 1 "$work/ready.err")")
    # The subscriber has every event once it holds the daemon's latest seq.
    python3 "$E2E_SOCKET_TOOL" caught-up "$events" 30 2> "$work/caught-up.err" \
        || problems+=("$(tail -n 1 "$work/caught-up.err")")
    mapfile -t found < <(python3 - "$work" "$events" <<'EOF'
import json, os, sys
work, events = sys.argv[1], sys.argv[2]
load = lambda name: json.load(open(os.path.join(work, name)))
if load("after.directions") != load("before.directions"):
    print("directions after replugging differ: %s, before %s" % (json.dumps(load("after.directions")), json.dumps(load("before.directions"))))
key = lambda devices: [(c.get("rigCamera"), c.get("uniqueID"), c.get("available")) for c in devices["cameras"]]
if key(load("after.devices")) != key(load("before.devices")):
    print("devices after replugging %s, before %s" % (key(load("after.devices")), key(load("before.devices"))))
seen = [json.loads(line) for line in open(events)]
lists = [[c.get("rigCamera") for c in e["data"]["cameras"]] for e in seen if e["event"] == "devices"]
full = ["inner-front", "outer-front", "back"]
# The subscriber's devices events: the full list first, an empty one while unbound, the full list last.
if not lists or lists[0] != full or [] not in lists or lists[-1] != full:
    print("devices events went %s" % lists)
elif lists.index([]) == 0 or full not in lists[lists.index([]):]:
    print("devices events out of order: %s" % lists)
readiness = [e["data"] for e in seen if e["event"] == "readiness"]
print("readiness events: %s" % readiness, file=sys.stderr)
interrupted = {"state": "interrupted", "reason": "unplugged"}
if interrupted not in readiness or readiness[-1] != {"state": "ready"} or readiness.index(interrupted) == 0:
    print("readiness events went %s, expected ready, interrupted (unplugged), ..., ready" % readiness)
EOF
    [ $? = 0 ] || echo "the replug comparison failed"
    )
    problems+=("${found[@]}")
fi
if ((${#problems[@]})); then fail foldcamd-replug "$(IFS=';'; echo "${problems[*]}")"; else pass foldcamd-replug; fi
