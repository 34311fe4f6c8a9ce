# shellcheck shell=bash source=../lib.sh
# The real foldcamd (hardware mode) with the duo rig: how long it takes to come up, and the
# camera inventory it serves (`foldcamctl devices --json`) against what udev and V4L2 say, and
# against `foldcamd --probe --json`.
. "$E2E_HERE/lib.sh"
# shellcheck source=../tools/daemon.sh
. "$E2E_HERE/tools/daemon.sh"

daemon_prepare foldcamd-ready inventory '"loopbackLabel": "foldcam virtual camera", "logLevel": "debug"' 180 || exit 0
trap daemon_stop EXIT

# --- READY=1 and the first hello, with real devices ---
# For scale: how long the binary takes to start and exit without touching any device.
started=$EPOCHREALTIME
"$FOLDCAM_BIN/foldcamd" --list-rigs > /dev/null
bare=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
if ! daemon_start "$config"; then
    fail foldcamd-ready "$DAEMON_ERROR"
    exit 0
fi
echo "foldcamd: READY=1 ${DAEMON_READY_S:-never} s, first hello ${DAEMON_HELLO_S} s after start" >&2
mode=$(python3 -c 'import json, sys; h = json.loads(sys.argv[1]); print(h["mode"], h["rig"], h["protocol"])' "$DAEMON_HELLO")
if [ "$mode" != "hardware duo-e2e 1" ]; then
    fail foldcamd-ready "hello says mode/rig/protocol '$mode', expected 'hardware duo-e2e 1'"
elif [ -z "$DAEMON_READY_S" ]; then
    fail foldcamd-ready "no READY=1 on NOTIFY_SOCKET (hello answered after ${DAEMON_HELLO_S}s)"
else
    info foldcamd-ready "READY=1 ${DAEMON_READY_S} s and the first hello reply ${DAEMON_HELLO_S} s after foldcamd started (3 vivid cameras, hinge sensor, switches, loopback producer); foldcamd --list-rigs alone takes ${bare} s"
    pass foldcamd-ready
fi

# --- What udev and V4L2 say, read independently of the daemon ---
stamp() { local up; read -r up _ < /proc/uptime; echo "[$up] $*" >&2; }
stamp "reading udev and v4l2-ctl"
udev_snapshot
facts=$work/facts.json
for id in "${E2E_CAMERAS[@]}"; do
    node=$(camera_node "$id")
    echo "=== $id $node"
    v4l2-ctl -d "$node" -D --list-formats-ext 2> /dev/null
done > "$work/v4l2-ctl.txt"
# v4l2-ctl's answers as {id: {"node", "card", "formats": [[fourcc, width, height, best fps], ...]}}
python3 - "$work/v4l2-ctl.txt" "$E2E_LOOPBACK" > "$facts" <<'EOF'
import json, re, sys
facts, camera, size = {"loopback": sys.argv[2]}, None, None
for line in open(sys.argv[1]):
    m = re.match(r"=== (\S+) (\S*)", line)
    if m:
        camera = facts[m.group(1)] = {"node": m.group(2), "card": None, "formats": []}
        continue
    m = re.match(r"\s*Card type\s*:\s*(.*)", line)
    if m:
        camera["card"] = m.group(1).strip()
        continue
    m = re.search(r"\[\d+\]: '([^']*)'", line)
    if m:
        fourcc = m.group(1).strip()
        continue
    m = re.search(r"Size: Discrete (\d+)x(\d+)", line)
    if m:
        size = [fourcc, int(m.group(1)), int(m.group(2)), 0.0]
        camera["formats"].append(size)
        continue
    m = re.search(r"\(([\d.]+) fps\)", line)
    if m and size:
        size[3] = max(size[3], float(m.group(1)))
print(json.dumps(facts))
EOF

# --- The daemon's inventory: foldcamctl devices --json, the state, and --probe --json ---
stamp "foldcamctl devices"
ctl --json devices > "$work/devices.json" 2> "$work/devices.err" || echo "foldcamctl devices failed: $(cat "$work/devices.err")" >&2
sock state > "$work/state.json" || true
stamp "foldcamd --probe"
probe_status=0
"$FOLDCAM_BIN/foldcamd" --probe --config "$config" --json > "$work/probe.json" 2> "$work/probe.err" || probe_status=$?
((probe_status == 0)) || echo "foldcamd --probe exited $probe_status: $(cat "$work/probe.err")" >&2

stamp "comparing"
python3 - "$facts" "$work/devices.json" "$work/state.json" "$work/probe.json" "$probe_status" > "$work/problems" <<'EOF'
import json, sys

def load(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError) as error:
        return error

facts, devices, state, probe = (load(p) for p in sys.argv[1:5])
rig_cameras = ["inner-front", "outer-front", "back"]
# duo: inner-front and outer-front share a face with a display (front), back does not; the test
# rules state the back camera's position through udev.
positions = {"inner-front": ("front", "rig camera inner-front"), "outer-front": ("front", "rig camera outer-front"),
             "back": ("back", "udev FOLDCAM_POSITION")}
inventory, probing = [], []

if isinstance(devices, Exception):
    inventory.append("foldcamctl devices --json gave no JSON (%s)" % devices)
else:
    cameras = devices.get("cameras", [])
    unique_ids = []
    ids = [c.get("rigCamera") for c in cameras]
    if ids != rig_cameras:
        inventory.append("cameras %s, expected %s in rig order" % (ids, rig_cameras))
    for camera in cameras:
        rid = camera.get("rigCamera")
        if camera.get("node") == facts["loopback"]:
            inventory.append("the loopback %s is listed as a camera" % facts["loopback"])
        if rid not in facts:
            continue
        fact = facts[rid]
        where = "%s (%s)" % (rid, camera.get("node"))
        if camera.get("node") != fact["node"]:
            inventory.append("%s: node %s, udev tags %s" % (rid, camera.get("node"), fact["node"]))
        if camera.get("available") is not True:
            inventory.append("%s: available %s, reason %s" % (where, camera.get("available"), camera.get("reason")))
        if camera.get("localizedName") != fact["card"]:
            inventory.append("%s: localizedName %r, card %r" % (where, camera.get("localizedName"), fact["card"]))
        # vivid's instances share one platform device, so udev gives them one ID_PATH: the
        # daemon tells them apart by their sysfs name, which stays the same across boots.
        if not str(camera.get("uniqueID")).startswith("path:platform-vivid.0/vivid-"):
            inventory.append("%s: uniqueID %s is not path:<ID_PATH>/<sysfs name>" % (where, camera.get("uniqueID")))
        unique_ids.append(camera.get("uniqueID"))
        position, source = positions[rid]
        classification = camera.get("classification") or {}
        if (camera.get("position"), classification.get("positionSource")) != (position, source):
            inventory.append("%s: position %s from %s, expected %s from %s" % (
                where, camera.get("position"), classification.get("positionSource"), position, source))
        if classification.get("matchedBy") != "udev FOLDCAM_CAMERA=%s (rule matched ATTR{name})" % rid:
            inventory.append("%s: matchedBy %r" % (where, classification.get("matchedBy")))
        if classification.get("driver") != "vivid":
            inventory.append("%s: driver %r" % (where, classification.get("driver")))
        if camera.get("mediaTypes") != ["video"]:
            inventory.append("%s: mediaTypes %s" % (where, camera.get("mediaTypes")))
        got = sorted((f["pixelFormat"], f["width"], f["height"], round(f["fps"], 1)) for f in camera.get("formats", []))
        want = sorted((f, w, h, round(fps, 1)) for f, w, h, fps in fact["formats"])
        if not want:
            inventory.append("%s: v4l2-ctl --list-formats-ext listed nothing" % where)
        elif got != want:
            missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
            inventory.append("%s: formats differ from v4l2-ctl: missing %s, extra %s" % (where, missing[:5], extra[:5]))
        if ("YUYV", 640, 480) not in {(f, w, h) for f, w, h, _ in got}:
            inventory.append("%s: no YUYV 640x480" % where)
    if len(set(unique_ids)) != len(unique_ids):
        inventory.append("uniqueIDs are not unique: %s" % unique_ids)
    if not isinstance(state, Exception):
        for rid in rig_cameras:
            value = state.get("cameras", {}).get(rid, {})
            if value.get("available") is not True:
                inventory.append("state: camera %s is %s" % (rid, value))
        if state.get("hingeSources", {}).get("fold") != "sensor" or abs(state.get("hinges", {}).get("fold", -1) - 180) > 0.01:
            inventory.append("state: fold %s from %s, expected 180 from the sensor" % (
                state.get("hinges", {}).get("fold"), state.get("hingeSources", {}).get("fold")))
    else:
        inventory.append("no state reply (%s)" % state)

if isinstance(probe, Exception):
    probing.append("foldcamd --probe --json gave no JSON (%s)" % probe)
else:
    found = {c["node"]: c for c in probe.get("cameras", [])}
    described = [c["descriptor"] for c in probe.get("cameras", []) if c.get("status") == "camera"]
    if not isinstance(devices, Exception):
        for camera in devices.get("cameras", []):
            match = [d for d in described if d.get("node") == camera.get("node")]
            if not match:
                probing.append("--probe has no camera at %s" % camera.get("node"))
                continue
            mine = {k: v for k, v in camera.items() if k not in ("available", "reason")}
            if match[0] != mine:
                diff = sorted(k for k in set(mine) | set(match[0]) if mine.get(k) != match[0].get(k))
                probing.append("--probe and devices disagree about %s in %s" % (camera.get("node"), diff))
        if len(described) != len(devices.get("cameras", [])):
            probing.append("--probe lists %d cameras, devices %d" % (len(described), len(devices.get("cameras", []))))
    loop = found.get(facts["loopback"])
    if not loop or loop.get("status") != "skipped" or "virtual camera" not in loop.get("reason", ""):
        probing.append("--probe does not skip %s as the daemon's virtual camera: %s" % (facts["loopback"], loop))
    if probe.get("missingRigCameras") != []:
        probing.append("--probe: missingRigCameras %s" % probe.get("missingRigCameras"))
    # Everything the rig needs is there (cameras busy with the running daemon count as there).
    lacking = [n for n in probe.get("needs", []) if n.get("needed") and n.get("status") in ("missing", "failed")]
    if sys.argv[5] != "0" or probe.get("complete") is not True or lacking:
        probing.append("--probe: exit status %s, complete %s, lacking %s" % (sys.argv[5], probe.get("complete"), lacking))
    hinges = [s for s in probe.get("sensors", []) if s.get("kind") == "hinge"]
    if len(hinges) != 1 or hinges[0].get("hinge") != "fold" or abs(hinges[0].get("angle", -1) - 180) > 0.01:
        probing.append("--probe: hinge sensors %s, expected one for fold reading 180" % hinges)
    if not any("foldcam test switches" in s for s in probe.get("switches", [])):
        probing.append("--probe: switches %s lack the uinput device" % probe.get("switches"))

for problem in inventory:
    print("inventory\t" + problem)
for problem in probing:
    print("probe\t" + problem)
EOF
status=$?
((status == 0)) || printf "inventory\tthe comparison script failed with status %s\n" "$status" >> "$work/problems"
for name in inventory probe; do
    mapfile -t problems < <(sed -n "s/^$name\t//p" "$work/problems")
    check=foldcamd-$name
    [ $name = inventory ] && check=foldcamd-devices
    if ((${#problems[@]})); then fail "$check" "$(IFS=';'; echo "${problems[*]}")"; else pass "$check"; fi
done
[ -s "$work/problems" ] || exit 0
echo "--- devices ---" >&2
python3 -c 'import json,sys; [print(c.get("rigCamera"), c.get("node"), c.get("uniqueID"), c.get("position"), (c.get("classification") or {}).get("positionSource"), len(c.get("formats",[])), "formats", file=sys.stderr) for c in json.load(open(sys.argv[1]))["cameras"]]' "$work/devices.json" 2>&1 >&2 || true
