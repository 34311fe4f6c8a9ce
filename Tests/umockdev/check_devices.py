#!/usr/bin/python3
"""foldcam's device layer against umockdev: udev enumeration, properties and hotplug; V4L2 probing
through libv4l2 answered by v4l2_mock; IIO hinge and accelerometers through sysfs. Prints one
check per line and a final "N passed, N failed"; exits 1 on any failure.

usage: check_devices.py FOLDCAMD "SHIM.so ..." RIG_JSON   (shims preloaded before umockdev's)"""

import errno
import json
import os
import re
import shutil
import signal
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# The testbed's uevent sender needs umockdev's preload in this process too.
if "libumockdev-preload" not in os.environ.get("LD_PRELOAD", ""):
    os.environ["LD_PRELOAD"] = "libumockdev-preload.so.0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

from testbed import RADIANS_PER_DEGREE, Bed, Tally  # noqa: E402
import evdev_mock as ev  # noqa: E402
import v4l2_mock as v  # noqa: E402

tally = Tally()
check = tally.check


FOLDCAMD, SHIM, RIG = sys.argv[1:4]
G = 0.00980665  # in_accel_scale: 1000 raw = 1 g in m/s²

# -- The rig's devices ------------------------------------------------------------------------

def inner_front():
    return v.Camera("imx519 inner", formats={
        "NV12": [(1920, 1080, [60, 30]), (1280, 720, [60]), (640, 480, [30])],
        "YUYV": [(1920, 1080, [60]), (1280, 720, [60]), (640, 480, [30])]},
        controls={v.CID_CAMERA_ORIENTATION: 0, v.CID_CAMERA_SENSOR_ROTATION: 90, v.CID_HFLIP: 0, v.CID_VFLIP: 0})


def outer_front(**kwargs):
    return v.Camera("imx576 outer", formats={"YUYV": [(3840, 2160, [120]), (1920, 1080, [120])], "Z16 ": [(640, 480, [30])]}, **kwargs)


def back():
    return v.Camera("imx686 back", formats={"YUYV": [(3840, 2160, [60]), (1920, 1080, [60])]}, controls={v.CID_ROTATE: 0})


def populate(bed, outer=None):
    cams = {}
    cams["video0"] = bed.add_camera("video0", "platform/csi0", {"ID_PATH": "platform-csi0", "FOLDCAM_CAMERA": "inner-front", "FOLDCAM_MATCH": "ID_PATH"}, inner_front(), 0)
    cams["video1"] = bed.add_camera("video1", "platform/csi0", {"ID_PATH": "platform-csi0"}, v.Camera("imx519 inner", caps=v.CAP_META_CAPTURE, formats={}), 1, index=1)
    outer_camera = outer or outer_front()
    cams["video2"] = bed.add_camera("video2", "platform/csi1", {"ID_PATH": "platform-csi1", "FOLDCAM_CAMERA": "outer-front", "FOLDCAM_SENSOR_ROTATION": "90", "FOLDCAM_MATCH": "ID_PATH"}, outer_camera, 2)
    cams["video3"] = bed.add_camera("video3", "platform/csi2", {"ID_PATH": "platform-csi2", "FOLDCAM_CAMERA": "back", "FOLDCAM_MATCH": "ATTR{name}", "ID_CAMERA_DIRECTION": "back"}, back(), 3)
    cams["video4"] = bed.add_camera("video4", "pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0", {
        "ID_BUS": "usb", "ID_PATH": "pci-0000:00:14.0-usb-0:2:1.0", "ID_SERIAL": "Acme_Webcam_0001", "ID_SERIAL_SHORT": "0001"},
        v.Camera("Acme Webcam", driver="uvcvideo", formats={"MJPG": [(1280, 720, [30])]}), 4)
    cams["video20"] = bed.add_camera("video20", "virtual/loop20", {}, v.Camera("foldcam", driver="v4l2 loopback", caps=v.CAP_VIDEO_CAPTURE | v.CAP_VIDEO_OUTPUT), 20)
    hinge = bed.add_iio("hinge", {"in_angl0_raw": 90, "in_angl0_scale": RADIANS_PER_DEGREE, "sampling_frequency": "10.000000"}, {})
    base = bed.add_iio("accel_3d", {"in_accel_x_raw": 0, "in_accel_y_raw": 0, "in_accel_z_raw": -1000, "in_accel_scale": G}, {"ACCEL_LOCATION": "base"})
    # Mounted turned: the matrix maps chip (0, -1000, 0) to panel (-1000, 0, 0).
    display = bed.add_iio("accel_3d", {"in_accel_x_raw": 0, "in_accel_y_raw": -1000, "in_accel_z_raw": 0, "in_accel_scale": G},
                          {"ACCEL_LOCATION": "display", "ACCEL_MOUNT_MATRIX": "0, 1, 0; -1, 0, 0; 0, 0, 1"})
    return cams, hinge, base, display, outer_camera


def repeating_timers(pid):
    """The periods (ns) of the process's timerfds that repeat, from /proc/PID/fdinfo: the poll
    tick is one; a one-shot timer (or a disarmed one) has a zero interval."""
    periods = []
    for name in os.listdir("/proc/%d/fdinfo" % pid):
        try:
            with open("/proc/%d/fdinfo/%s" % (pid, name)) as f:
                info = f.read()
        except OSError:
            continue
        match = re.search(r"it_interval: \((\d+), (\d+)\)", info)
        if match and "clockid" in info:
            periods.append(int(match.group(1)) * 1_000_000_000 + int(match.group(2)))
    return [p for p in periods if p]


def by_node(report):
    return {entry["node"]: entry for entry in report["cameras"]}


# -- 1. Probe: enumeration, properties, V4L2 answers, classification reasons -----------------

bed = Bed(FOLDCAMD, SHIM)
cams, hinge, base, display, _ = populate(bed)
report, stderr, code = bed.probe(RIG)
check("probe ran and printed JSON", report is not None, stderr)
check("probe: everything the rig needs found, exit 0", code == 0 and report and report.get("complete") is True,
      (code, [n for n in (report or {}).get("needs", []) if n.get("status") != "found"]))
report = report or {"cameras": [], "sensors": [], "missingRigCameras": []}
nodes = by_node(report)
inner = nodes.get("/dev/video0", {}).get("descriptor", {})
check("inner-front matched through FOLDCAM_CAMERA (rule on ID_PATH)",
      inner.get("rigCamera") == "inner-front" and inner.get("classification", {}).get("matchedBy") == "udev FOLDCAM_CAMERA=inner-front (rule matched ID_PATH)", inner)
check("inner-front: stable id from ID_PATH, card name", inner.get("uniqueID") == "path:platform-csi0/imx519 inner" and inner.get("localizedName") == "imx519 inner", inner)
check("inner-front: position from V4L2_CID_CAMERA_ORIENTATION", inner.get("position") == "front" and inner.get("classification", {}).get("positionSource") == "V4L2_CID_CAMERA_ORIENTATION", inner)
check("inner-front: V4L2 sensor rotation 90 CCW becomes 270 clockwise", inner.get("sensorRotation") == 270 and inner.get("classification", {}).get("rotationSource", "").startswith("V4L2_CID_CAMERA_SENSOR_ROTATION"), inner)
check("inner-front: formats from ENUM_FMT/FRAMESIZES/FRAMEINTERVALS",
      [(f["pixelFormat"], f["width"], f["height"], f["fps"]) for f in inner.get("formats", [])] ==
      [("NV12", 1920, 1080, 60), ("NV12", 1280, 720, 60), ("NV12", 640, 480, 30), ("YUYV", 1920, 1080, 60), ("YUYV", 1280, 720, 60), ("YUYV", 640, 480, 30)],
      inner.get("formats"))
check("inner-front: hflip and vflip controls found", inner.get("classification", {}).get("controls") == ["hflip", "vflip"], inner)
check("metadata node skipped by name", nodes.get("/dev/video1", {}).get("reason") == "a metadata-only node", nodes.get("/dev/video1"))
outer = nodes.get("/dev/video2", {}).get("descriptor", {})
check("outer-front: rotation from udev FOLDCAM_SENSOR_ROTATION, position from the rig, depth from Z16",
      outer.get("sensorRotation") == 90 and outer.get("classification", {}).get("rotationSource") == "udev FOLDCAM_SENSOR_ROTATION"
      and outer.get("classification", {}).get("positionSource") == "rig camera outer-front" and outer.get("mediaTypes") == ["video", "depth"], outer)
back_descriptor = nodes.get("/dev/video3", {}).get("descriptor", {})
check("back: position from hwdb ID_CAMERA_DIRECTION, rotate control",
      back_descriptor.get("position") == "back" and back_descriptor.get("classification", {}).get("positionSource") == "hwdb ID_CAMERA_DIRECTION"
      and back_descriptor.get("classification", {}).get("controls") == ["rotate"], back_descriptor)
usb = nodes.get("/dev/video4", {}).get("descriptor", {})
check("untagged USB camera: external, by serial, no rig camera",
      usb.get("rigCamera") is None and usb.get("position") == "external" and usb.get("deviceType") == "external"
      and usb.get("uniqueID") == "usb:Acme_Webcam_0001" and usb.get("classification", {}).get("positionSource") == "ID_BUS=usb", usb)
check("the daemon's own loopback is skipped", nodes.get("/dev/video20", {}).get("reason") == "the daemon's own virtual camera (card label \"foldcam\")", nodes.get("/dev/video20"))
check("no rig camera missing", report["missingRigCameras"] == [], report["missingRigCameras"])
sensors = {s["syspath"]: s for s in report["sensors"]}
h = sensors.get(hinge, {})
check("hinge sensor found by IIO name, angle = raw x scale in degrees", h.get("kind") == "hinge" and h.get("hinge") == "fold" and abs(h.get("angle", -1) - 90) < 1e-6, h)
check("probe: the polled hinge's rate follows its sampling_frequency (10 Hz: every 100 ms)",
      (h.get("readBy"), h.get("pollMilliseconds"), h.get("samplingHertz")) == ("polling", 100, 10), h)
b, d = sensors.get(base, {}), sensors.get(display, {})
check("probe: an accelerometer without sampling_frequency is polled at sensorPollMilliseconds (50)",
      (b.get("readBy"), b.get("pollMilliseconds"), "samplingHertz" in b) == ("polling", 50, False), b)
text, _, _ = bed.probe(RIG, json_output=False)
check("probe text: the hinge's polling rate", "polled every 100 ms (its sampling_frequency, 10 Hz)" in text, text)
check("base accelerometer placed by ACCEL_LOCATION", b.get("accelerometer") == "base" and b.get("mountMatrixSource") == "identity (no mount matrix given)", b)
check("display accelerometer: ACCEL_MOUNT_MATRIX applied", d.get("accelerometer") == "display" and d.get("mountMatrixSource") == "udev ACCEL_MOUNT_MATRIX"
      and all(abs(x - y) < 1e-9 for x, y in zip(d.get("gravity", []), [-1000 * G, 0, 0])), d)

# -- 2. Probe errors: every one named, none fatal ---------------------------------------------

bad = Bed(FOLDCAMD, SHIM)
bad.add_camera("video0", "platform/csi0", {"ID_PATH": "platform-csi0", "FOLDCAM_CAMERA": "inner-front"}, v.Camera("busy", fail={v.ENUM_FRAMEINTERVALS: errno.EBUSY}), 0)
vanishing = v.Camera("vanishing")
vanish_path = bad.add_camera("video2", "platform/csi1", {"ID_PATH": "platform-csi1", "FOLDCAM_CAMERA": "outer-front"}, vanishing, 2)
vanishing.fail = {v.ENUM_FRAMESIZES: errno.ENODEV}
vanishing.on_fail = lambda: (bad.remove(vanish_path), setattr(vanishing, "on_fail", None))
bad.add_camera("video3", "platform/csi2", {"ID_PATH": "platform-csi2"}, v.Camera("fourcc", garbage={v.ENUM_FMT}), 3)
bad.add_camera("video4", "platform/csi3", {"ID_PATH": "platform-csi3"}, v.Camera("card", garbage={v.QUERYCAP}), 4)
bad.add_camera("video5", "platform/csi4", {"ID_PATH": "platform-csi4"}, v.Camera("size", garbage={v.ENUM_FRAMESIZES}), 5)
bad_hinge = bad.add_iio("hinge", {"in_angl0_raw": "banana", "in_angl0_scale": RADIANS_PER_DEGREE}, {})
bad.add_iio("hinge", {"in_angl0_raw": 1}, {"FOLDCAM_HINGE": "nope"})
report, stderr, code = bad.probe(RIG)
check("probe with faulty devices still ran", report is not None, stderr)
report = report or {"cameras": [], "sensors": []}
nodes = by_node(report)
busy = nodes.get("/dev/video0", {})
check("EBUSY named and the rig camera kept as busy", busy.get("status") == "busy" and busy.get("rigCamera") == "inner-front"
      and busy.get("error") == "/dev/video0: VIDIOC_ENUM_FRAMEINTERVALS failed: Device or resource busy", busy)
gone = nodes.get("/dev/video2", {})
check("device vanishing mid-query named", gone.get("status") == "failed" and gone.get("error") == "/dev/video2: VIDIOC_ENUM_FRAMESIZES failed: No such device", gone)
check("garbage fourcc named", nodes.get("/dev/video3", {}).get("error") == "/dev/video3: VIDIOC_ENUM_FMT answered garbage: pixel format 0x1020304 is not a fourcc", nodes.get("/dev/video3"))
check("garbage card name named", nodes.get("/dev/video4", {}).get("error") == "/dev/video4: VIDIOC_QUERYCAP answered garbage: card is not NUL-terminated UTF-8", nodes.get("/dev/video4"))
check("garbage frame size named", nodes.get("/dev/video5", {}).get("error") == "/dev/video5: VIDIOC_ENUM_FRAMESIZES answered garbage: YUYV size 0x0", nodes.get("/dev/video5"))
check("probe errors are logged with a priority prefix", "<4>/dev/video0: VIDIOC_ENUM_FRAMEINTERVALS failed: Device or resource busy; will retry" in stderr, stderr)
bad_sensors = {s["syspath"]: s for s in report["sensors"]}
check("garbage hinge reading named, no angle", "angle" not in bad_sensors.get(bad_hinge, {}) and "in_angl0_raw answered garbage: \"banana\" is not a number" in stderr, stderr)
check("unknown FOLDCAM_HINGE skipped with the reason",
      any(s.get("reason", "").startswith("FOLDCAM_HINGE=nope names no hinge of rig duo") for s in report["sensors"]), report["sensors"])


def needs_of(report):
    return {(n["kind"], n["id"]): n for n in (report or {}).get("needs", [])}


needs = needs_of(report)
check("probe diagnosis: a busy rig camera is there (busy), not missing", needs.get(("camera", "inner-front"), {}).get("status") == "busy", needs.get(("camera", "inner-front")))
check("probe diagnosis: a tagged node that failed names the node, property and call",
      {k: needs.get(("camera", "outer-front"), {}).get(k) for k in ("status", "node", "property", "call")}
      == {"status": "failed", "node": "/dev/video2", "property": "FOLDCAM_CAMERA=outer-front", "call": "VIDIOC_ENUM_FRAMESIZES"}
      and needs[("camera", "outer-front")]["detail"].startswith("/dev/video2: VIDIOC_ENUM_FRAMESIZES failed: No such device"), needs.get(("camera", "outer-front")))
check("probe diagnosis: an untagged rig camera is missing", needs.get(("camera", "back"), {}).get("status") == "missing", needs.get(("camera", "back")))
check("probe diagnosis: a hinge sensor with a garbage reading failed, accelerometers missing",
      (needs.get(("hinge", "fold"), {}).get("status"), needs.get(("accelerometer", "base"), {}).get("status"), needs.get(("accelerometer", "display"), {}).get("status"))
      == ("failed", "missing", "missing"), needs)
check("probe exits 3 when something the rig needs is missing or failed", code == 3 and report.get("complete") is False, code)

# -- 3. The daemon: first inventory before READY=1, then hotplug and fallbacks ------------------

live = Bed(FOLDCAMD, SHIM)
cams, hinge, base, display, outer_camera = populate(live, outer=outer_front(fail={v.ENUM_FRAMEINTERVALS: errno.EBUSY}))
live.add_switch("event5", ev.SwitchDevice("Lid Switch", [ev.SW_LID]))
daemon = live.start_daemon({"rig": RIG, "sensorPollMilliseconds": 20, "logLevel": "debug"})
try:
    ready = daemon.wait_ready()
    check("READY=1 sent", ready is not None, ready)
    devices = daemon.request("devices")
    ids = [c.get("rigCamera") or c.get("uniqueID") for c in devices.get("cameras", [])]
    check("devices right after READY=1: the tagged cameras and the USB one (outer-front busy)", ids == ["inner-front", "back", "usb:Acme_Webcam_0001"], ids)
    check("devices carry the classification from the same descriptor JSON",
          devices["cameras"][0].get("classification", {}).get("positionSource") == "V4L2_CID_CAMERA_ORIENTATION", devices["cameras"][0])
    # No camera streams into the testbed's virtual camera: a snapshot now would be a drawn card
    # (the simulator's test card, or the loopback's "camera unavailable" frame), which no camera
    # gave. It is refused (docs/virtual-camera.md).
    snapshot = daemon.request("snapshot")
    check("hardware mode with no camera streaming: snapshot is unavailable, never a drawn frame",
          snapshot.get("code") == "unavailable" and "png" not in snapshot, snapshot)

    def camera_state(state, camera_id):
        return state.get("cameras", {}).get(camera_id, {})

    def hinge_of(state):
        return state.get("hinges", {}).get("fold", -1), state.get("hingeSources", {}).get("fold")

    state = daemon.request("state")
    check("busy camera unavailable with reason busy", camera_state(state, "outer-front").get("reason") == "busy", camera_state(state, "outer-front"))
    angle, source = hinge_of(state)
    check("hinge from the IIO sensor: 90 degrees, source sensor", abs(angle - 90) < 0.01 and source == "sensor", (angle, source))
    check("posture from the sensor angle", state.get("posture") == "halfOpen", state.get("posture"))

    outer_camera.fail = {}
    state = daemon.eventually("state", lambda s: camera_state(s, "outer-front").get("available") is True, timeout=8)
    check("busy camera becomes available when the device answers again", camera_state(state, "outer-front").get("available") is True, camera_state(state, "outer-front"))

    sys_path = live.testbed.get_root_dir() + hinge + "/in_angl0_raw"
    fd_dir = "/proc/%d/fd" % daemon.process.pid
    kept = [name for name in os.listdir(fd_dir) if os.readlink(os.path.join(fd_dir, name)) == sys_path]
    check("the polled hinge's in_angl0_raw is kept open (one descriptor, re-read each tick)", len(kept) == 1, kept)
    check("the poll tick repeats at the fastest polled sensor's rate (accelerometers: sensorPollMilliseconds 20)",
          20_000_000 in repeating_timers(daemon.process.pid), repeating_timers(daemon.process.pid))
    live.set_attribute(hinge, "in_angl0_raw", 170)
    state = daemon.eventually("state", lambda s: abs(hinge_of(s)[0] - 170) < 0.01)
    check("hinge follows the sensor (polled sysfs)", abs(hinge_of(state)[0] - 170) < 0.01 and state["posture"] == "open", hinge_of(state))
    live.set_attribute(hinge, "in_angl0_raw", 400)
    # Wait for the daemon to have read the sensors after that write: each poll reads every hinge
    # sensor, then every accelerometer. Two base readings in turn, each waited for in the state's
    # gravity, mean a whole poll ran after the write (the first may have begun before it).
    for z in (-1020, -1000):
        live.set_attribute(base, "in_accel_z_raw", z)
        polled = daemon.eventually("state", lambda s: abs((s.get("gravity") or [0, 0, 0])[2] - z * G) < 0.01)
        check("gravity follows the base accelerometer (z %d)" % z, abs((polled.get("gravity") or [0, 0, 0])[2] - z * G) < 0.01, polled.get("gravity"))
    state = daemon.request("state")
    check("out-of-range reading dropped, with a warning", abs(hinge_of(state)[0] - 170) < 0.01, hinge_of(state))

    # The lid switch (through libinput) overrides the sensor, which rests meanwhile; opening the
    # lid hands back to a fresh sensor reading.
    live.write_input_events("event5", ev.switch_events(ev.SW_LID, True))
    state = daemon.eventually("state", lambda s: hinge_of(s)[1] == "lidSwitch")
    check("lid switch closed (libinput): hinge at the rig's closed angle", hinge_of(state) == (0, "lidSwitch") and state["posture"] == "closed", hinge_of(state))
    live.set_attribute(hinge, "in_angl0_raw", 100)
    live.write_input_events("event5", ev.switch_events(ev.SW_LID, False))
    state = daemon.eventually("state", lambda s: hinge_of(s)[1] == "sensor" and abs(hinge_of(s)[0] - 100) < 0.01)
    check("lid opened: back to the sensor's new reading", hinge_of(state)[1] == "sensor" and abs(hinge_of(state)[0] - 100) < 0.01, hinge_of(state))

    live.remove(cams["video3"])
    state = daemon.eventually("state", lambda s: camera_state(s, "back").get("reason") == "unplugged")
    check("unplugged camera: unavailable, reason unplugged", camera_state(state, "back").get("reason") == "unplugged", camera_state(state, "back"))
    devices = daemon.request("devices")
    check("unplugged camera gone from devices", "back" not in [c.get("rigCamera") for c in devices["cameras"]], devices)
    directions = daemon.request("directions")
    listed = [c for display_state in directions["displays"].values() for key in ("forward", "backward") for c in display_state.get(key, [])]
    check("unplugged camera in no direction list", all("back" not in str(c) for c in listed), directions)

    # Replugged under another node number (umockdev cannot reuse a removed node's name either).
    cams["video5"] = live.add_camera("video5", "platform/csi2", {"ID_PATH": "platform-csi2", "FOLDCAM_CAMERA": "back", "ID_CAMERA_DIRECTION": "back"}, back(), 5, hotplug=True)
    state = daemon.eventually("state", lambda s: camera_state(s, "back").get("available") is True)
    check("replugged camera available again", camera_state(state, "back").get("available") is True, camera_state(state, "back"))
    replugged = [c for c in daemon.request("devices")["cameras"] if c.get("rigCamera") == "back"]
    check("replugged camera keeps its uniqueID on a new node", [(c["uniqueID"], c["node"]) for c in replugged] == [("path:platform-csi2/imx686 back", "/dev/video5")], replugged)

    live.remove(hinge)
    state = daemon.eventually("state", lambda s: hinge_of(s)[1] == "accelerometers")
    check("hinge sensor removed: falls back to the accelerometers (90 degrees from gravity)",
          hinge_of(state)[1] == "accelerometers" and abs(hinge_of(state)[0] - 90) < 0.5, hinge_of(state))
    live.remove(display)
    state = daemon.eventually("state", lambda s: hinge_of(s)[1] != "accelerometers")
    check("an accelerometer removed: falls back to the last reading", hinge_of(state)[1] == "lastReading", hinge_of(state))
    live.write_input_events("event5", ev.switch_events(ev.SW_LID, True))
    state = daemon.eventually("state", lambda s: hinge_of(s)[1] == "lidSwitch")
    check("then the switch decides: lid closed", hinge_of(state) == (0, "lidSwitch"), hinge_of(state))
    live.write_input_events("event5", ev.switch_events(ev.SW_LID, False))
    state = daemon.eventually("state", lambda s: hinge_of(s)[1] != "lidSwitch")
    check("lid opened again: the last reading", hinge_of(state)[1] == "lastReading", hinge_of(state))

    # SIGHUP: a new device thread takes a fresh inventory for the reloaded rig.
    os.kill(daemon.process.pid, signal.SIGHUP)
    devices = daemon.eventually("devices", lambda d: len(d.get("cameras", [])) == 4 and daemon.process.poll() is None, timeout=15)
    ids = [c.get("rigCamera") or c.get("uniqueID") for c in devices.get("cameras", [])]
    check("after SIGHUP the cameras are inventoried again", ids == ["inner-front", "outer-front", "back", "usb:Acme_Webcam_0001"], ids)
finally:
    code, log = daemon.stop()
check("daemon stopped cleanly on SIGTERM", code == 0, log[-2000:])
check("daemon logged with syslog priority prefixes", "<6>device inventory:" in log and "<5>hinge sensor for fold removed" in log, log[-2000:])
check("libinput's switch device reported with the switches it trusts", '<6>switch device "Lid Switch": SW_LID' in log, log[-2000:])
# One warning per sensor per 10 s: the first drop (the 90 -> 170 step read as too fast, or 400)
# is named, later ones are counted.
check("dropped readings warned about by sensor, rate-limited", log.count("<4>hinge sensor %s: reading " % hinge) == 1, log[-2000:])

# -- 4. A hinge sensor with an IIO buffer is read from the buffer, not polled --------------------

import struct  # noqa: E402

buffered = Bed(FOLDCAMD, SHIM)
hinge = buffered.add_buffered_hinge("iio:device0")
report, stderr, _ = buffered.probe(RIG)
buffered_probe = {s["syspath"]: s for s in (report or {}).get("sensors", [])}.get(hinge, {})
check("probe: a hinge with a buffer is reported as read from it, with no poll rate",
      buffered_probe.get("readBy") == "buffer" and "pollMilliseconds" not in buffered_probe, (buffered_probe, stderr[-500:]))
daemon = buffered.start_daemon({"rig": RIG, "sensorPollMilliseconds": 20})
try:
    check("READY=1 with a buffered hinge sensor", daemon.wait_ready() is not None)
    check("buffer set up: only in_angl0 enabled, buffer on",
          (buffered.attribute(hinge, "scan_elements/in_angl0_en"), buffered.attribute(hinge, "scan_elements/in_timestamp_en"),
           buffered.attribute(hinge, "buffer/enable")) == ("1", "0", "1"))
    buffered.write_samples("iio:device0", struct.pack("<i", 120))
    state = daemon.eventually("state", lambda s: abs(s["hinges"]["fold"] - 120) < 0.01)
    check("hinge angle from a buffer sample", abs(state["hinges"]["fold"] - 120) < 0.01 and state["hingeSources"]["fold"] == "sensor",
          (state["hinges"], state["hingeSources"]))
    buffered.set_attribute(hinge, "in_angl0_raw", 30)  # must be ignored: the buffer is the source
    buffered.write_samples("iio:device0", struct.pack("<ii", 121, 122))
    state = daemon.eventually("state", lambda s: abs(s["hinges"]["fold"] - 122) < 0.01)
    check("several samples in one read: the newest wins, sysfs is not polled", abs(state["hinges"]["fold"] - 122) < 0.01, state["hinges"])
    # (The control socket's request-deadline timer, 1 s, runs while the test's client owes a
    # request; it is not the device thread's.)
    check("a buffered hinge alone: no poll tick (no timer repeating at sensorPollMilliseconds 20)",
          20_000_000 not in repeating_timers(daemon.process.pid), repeating_timers(daemon.process.pid))
finally:
    code, log = daemon.stop()
check("buffer mode logged, buffer disabled again on exit", "read from its IIO buffer /dev/iio:device0" in log and buffered.attribute(hinge, "buffer/enable") == "0", log[-1500:])

# -- 4b. A polled hinge alone is read at its sampling_frequency, not at sensorPollMilliseconds ---

rated = Bed(FOLDCAMD, SHIM)
hinge = rated.add_iio("hinge", {"in_angl0_raw": 90, "in_angl0_scale": RADIANS_PER_DEGREE, "sampling_frequency": "10"}, {})
daemon = rated.start_daemon({"rig": RIG, "sensorPollMilliseconds": 20})
try:
    check("READY=1 with a polled hinge at 10 Hz", daemon.wait_ready() is not None)
    check("the poll tick follows the hinge's sampling_frequency: every 100 ms, not 20",
          repeating_timers(daemon.process.pid).count(100_000_000) == 1 and 20_000_000 not in repeating_timers(daemon.process.pid),
          repeating_timers(daemon.process.pid))
    rated.set_attribute(hinge, "in_angl0_raw", 120)
    state = daemon.eventually("state", lambda s: abs(s["hinges"]["fold"] - 120) < 0.01)
    check("the kept-open attribute is re-read after a change", abs(state["hinges"]["fold"] - 120) < 0.01, state["hinges"])
finally:
    code, log = daemon.stop()
check("the polling rate is logged", "polled from sysfs every 100 ms (its sampling_frequency, 10 Hz)" in log, log[-1500:])

# -- 5. A switch that is already on at start (libinput syncs its state) -------------------------


def maps_libinput(pid):
    """Whether libinput itself (not the test's libinput-shim) is mapped into process pid."""
    with open("/proc/%d/maps" % pid) as maps:
        return any(re.search(r"/libinput\.so", line) for line in maps)


tablet = Bed(FOLDCAMD, SHIM)
tablet.add_switch("event7", ev.SwitchDevice("Intel HID switches", [ev.SW_TABLET_MODE], on=[ev.SW_TABLET_MODE]))
daemon = tablet.start_daemon({"rig": "convertible", "sensorPollMilliseconds": 20})
try:
    check("READY=1 on the convertible", daemon.wait_ready() is not None)
    state = daemon.request("state")
    check("tablet-mode switch on at start: in the first state, hinge at the tablet angle",
          (state["hinges"].get("lid"), state["hingeSources"].get("lid"), state["posture"]) == (360, "tabletModeSwitch", "tablet"), state["hinges"])
    tablet.write_input_events("event7", ev.switch_events(ev.SW_TABLET_MODE, False))
    state = daemon.eventually("state", lambda s: s["hingeSources"].get("lid") != "tabletModeSwitch")
    check("tablet mode off: back to the declared initial angle (no sensor)", (state["hinges"].get("lid"), state["hingeSources"].get("lid")) == (110, "initial"), state["hinges"])
    check("a rig that maps a switch loads libinput", maps_libinput(daemon.process.pid), daemon.process.pid)
finally:
    daemon.stop()

# -- 5b. libinput (with its glib stack, ~1.5 MB resident) only for a rig that maps a switch ------

no_switches = Bed(FOLDCAMD, SHIM)
no_switches.add_switch("event7", ev.SwitchDevice("Intel HID switches", [ev.SW_TABLET_MODE], on=[ev.SW_TABLET_MODE]))
daemon = no_switches.start_daemon({"rig": "kiosk", "sensorPollMilliseconds": 20, "logLevel": "debug"})
try:
    check("READY=1 on a rig without switches", daemon.wait_ready() is not None)
    check("a rig that maps no switch: libinput is not loaded, though a switch device exists",
          not maps_libinput(daemon.process.pid), daemon.process.pid)
finally:
    code, log = daemon.stop()
check("a rig that maps no switch: no switch device read", "switch device" not in log, log[-1500:])

# -- 6. Nothing reported that was not observed (issue 13) --------------------------------------
# Hardware mode with devices missing: cameras are unplugged until a node answered, readiness
# names what to fix, a snapshot is never a drawn frame, probe and check-config say so too.


def available(state):
    return {camera: value.get("available") for camera, value in state.get("cameras", {}).items()}


def reasons(state):
    return {camera: value.get("reason") for camera, value in state.get("cameras", {}).items()}


def listed_cameras(directions):
    return sorted({c["camera"] if isinstance(c, dict) else c for d in directions.get("displays", {}).values() for key in ("forward", "backward") for c in d.get(key, [])})


def metric(text, name, labels):
    for line in text.splitlines():
        if line.startswith(name + "{") and all('%s="%s"' % item in line for item in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return None


# 6a. No video node at all, no loopback.
empty = Bed(FOLDCAMD, SHIM)
daemon = empty.start_daemon({"rig": RIG, "sensorPollMilliseconds": 20})
try:
    check("zero cameras: READY=1", daemon.wait_ready() is not None)
    state = daemon.request("state")
    check("zero cameras: every rig camera unavailable, reason unplugged",
          reasons(state) == {"inner-front": "unplugged", "outer-front": "unplugged", "back": "unplugged"} and not any(available(state).values()), state.get("cameras"))
    check("zero cameras: readiness interrupted (noLoopback)", state.get("readiness") == {"state": "interrupted", "reason": "noLoopback"}, state.get("readiness"))
    check("zero cameras: no virtual camera source", state.get("virtualCamera", {}).get("source") is None, state.get("virtualCamera"))
    check("zero cameras: devices lists none", daemon.request("devices").get("cameras") == [])
    check("zero cameras: directions list no camera", listed_cameras(daemon.request("directions")) == [], daemon.request("directions"))
    snapshot = daemon.request("snapshot")
    check("zero cameras: snapshot is an error, not a drawn frame", snapshot.get("code") == "unavailable" and "png" not in snapshot, snapshot)
    metrics = daemon.request("metrics").get("text", "")
    check("zero cameras: metrics say unavailable (unplugged) and interrupted",
          [metric(metrics, "foldcam_camera_available", {"camera": c}) for c in ("inner-front", "outer-front", "back")] == [0, 0, 0]
          and metric(metrics, "foldcam_camera_unavailable_reason", {"camera": "inner-front", "reason": "unplugged"}) == 1
          and metric(metrics, "foldcam_virtual_camera_readiness", {"state": "interrupted"}) == 1, metrics[-1500:])
    events = daemon.subscribe(["readiness", "devices", "directions"])
    check("zero cameras: subscribe's current values say the same",
          events.get("readiness") == {"state": "interrupted", "reason": "noLoopback"} and events.get("devices", {}).get("cameras") == []
          and listed_cameras(events.get("directions", {"displays": {"x": {"forward": ["?"]}}})) == [], events)
finally:
    code, log = daemon.stop()
check("zero cameras: the journal says what to fix", "<4>virtual camera: no v4l2loopback device labelled \"foldcam\"" in log and "load v4l2loopback with card_label=\"foldcam\"" in log, log[-1500:])
report, stderr, code = empty.probe(RIG)
check("zero cameras: probe lists every rig camera missing, exit 3",
      code == 3 and [n["status"] for n in report.get("needs", []) if n["kind"] == "camera"] == ["missing"] * 3 and report.get("missingRigCameras") == ["inner-front", "outer-front", "back"], (code, report))
text, stderr, code = empty.probe(RIG, json_output=False)
check("zero cameras: human probe names the property to add and the exit status",
      re.search(r"\n  camera inner-front +missing +no video4linux node has FOLDCAM_CAMERA=inner-front", text) and "(exit status 3)" in text and code == 3, text)

# 6b. One camera missing (back untagged away), the loopback missing.
partial = Bed(FOLDCAMD, SHIM)
partial.add_camera("video0", "platform/csi0", {"ID_PATH": "platform-csi0", "FOLDCAM_CAMERA": "inner-front"}, inner_front(), 0)
partial.add_camera("video2", "platform/csi1", {"ID_PATH": "platform-csi1", "FOLDCAM_CAMERA": "outer-front"}, outer_front(), 2)
partial.add_camera("video3", "platform/csi2", {"ID_PATH": "platform-csi2"}, back(), 3)  # no rule tags it
daemon = partial.start_daemon({"rig": RIG, "sensorPollMilliseconds": 20})
try:
    check("one camera missing: READY=1", daemon.wait_ready() is not None)
    state = daemon.request("state")
    check("one camera missing: it alone is unplugged", reasons(state) == {"inner-front": None, "outer-front": None, "back": "unplugged"}
          and available(state) == {"inner-front": True, "outer-front": True, "back": False}, state.get("cameras"))
    check("one camera missing, no loopback: readiness interrupted (noLoopback), never ready", state.get("readiness") == {"state": "interrupted", "reason": "noLoopback"}, state.get("readiness"))
    check("one camera missing: not in the directions", "back" not in listed_cameras(daemon.request("directions")), daemon.request("directions"))
    snapshot = daemon.request("snapshot")
    check("no loopback: snapshot is an error, not a drawn frame", snapshot.get("code") == "unavailable" and "png" not in snapshot, snapshot)
finally:
    daemon.stop()
# 6c. The same machine with PipeWire as the only sink: no loopback is looked for or missed.
daemon = partial.start_daemon({"rig": RIG, "sensorPollMilliseconds": 20, "sinks": ["pipewire"], "logLevel": "info"})
try:
    check("sinks pipewire: READY=1", daemon.wait_ready() is not None)
    state = daemon.request("state")
    check("sinks pipewire: readiness is not interrupted for want of a loopback", (state.get("readiness") or {}).get("reason") != "noLoopback", state.get("readiness"))
    check("sinks pipewire: the virtual camera still follows the viewer (the companion reads it)", state.get("virtualCamera", {}).get("source") is not None, state.get("virtualCamera"))
finally:
    code, log = daemon.stop()
check("sinks pipewire: no loopback warning; the journal says the companion publishes it",
      "no v4l2loopback device labelled" not in log and 'feeds no v4l2loopback device ("sinks": "pipewire"); foldcam-pipewire publishes it' in log, log[-1500:])

report, stderr, code = partial.probe(RIG)
needs = needs_of(report)
check("one camera missing: probe finds two, misses back, exit 3",
      [needs.get(("camera", c), {}).get("status") for c in ("inner-front", "outer-front", "back")] == ["found", "found", "missing"] and code == 3, (code, needs))
config_dir = tempfile.mkdtemp(prefix="foldcam-umockdev-config-")
with open(os.path.join(config_dir, "foldcam.json"), "w") as f:
    json.dump({"rig": RIG, "loopbackDevice": "/dev/video20"}, f)
code, out, err = partial.run(["--check-config", "--config", os.path.join(config_dir, "foldcam.json")])
check("loopback missing: check-config warns (exit 0)", code == 0 and "<4>loopbackDevice /dev/video20 does not exist now" in err and "configuration valid" in out, (code, out, err))
code, out, err = partial.run(["--check-config", "--config", os.path.join(config_dir, "foldcam.json"), "--strict"])
check("loopback missing: check-config --strict refuses it (exit 2)", code == 2 and "<3>configuration refused under --strict: 1 warning" in err, (code, out, err))

# 6c. A node tagged FOLDCAM_CAMERA=inner-front that cannot be opened.
broken = Bed(FOLDCAMD, SHIM)
broken.add_camera("video0", "platform/csi0", {"ID_PATH": "platform-csi0", "FOLDCAM_CAMERA": "inner-front"}, inner_front(), 0)
broken.remove_node_file("video0")
report, stderr, code = broken.probe(RIG)
need = needs_of(report).get(("camera", "inner-front"), {})
check("a tagged node that fails to open: probe says open of it failed, with the errno text",
      {k: need.get(k) for k in ("status", "node", "property", "call")} == {"status": "failed", "node": "/dev/video0", "property": "FOLDCAM_CAMERA=inner-front", "call": "open"}
      and need.get("detail", "").startswith("/dev/video0: open failed: No such file or directory"), need)
text, stderr, code = broken.probe(RIG, json_output=False)
check("... in the human listing too, and never 'no video4linux node has FOLDCAM_CAMERA=inner-front'",
      re.search(r"\n  camera inner-front +failed +/dev/video0: open failed: No such file or directory", text) and "no video4linux node has FOLDCAM_CAMERA=inner-front" not in text and code == 3, text)
daemon = broken.start_daemon({"rig": RIG})
try:
    check("a tagged node that fails to open: READY=1", daemon.wait_ready() is not None)
    state = daemon.request("state")
    check("... the daemon reports that camera unplugged", reasons(state).get("inner-front") == "unplugged", state.get("cameras"))
finally:
    daemon.stop()

# 6d. A loopback that refuses its format (the mock answers no VIDIOC_S_FMT), then a pool with no
# common format.
loop = Bed(FOLDCAMD, SHIM)
populate(loop)
daemon = loop.start_daemon({"rig": RIG})
try:
    check("broken loopback: READY=1", daemon.wait_ready() is not None)
    state = daemon.eventually("state", lambda s: s.get("readiness") == {"state": "interrupted", "reason": "outputFailed"})
    check("a loopback that cannot be written: readiness interrupted (outputFailed), not ready", state.get("readiness") == {"state": "interrupted", "reason": "outputFailed"}, state.get("readiness"))
    snapshot = daemon.request("snapshot")
    check("broken loopback: snapshot is an error, not a drawn frame", "png" not in snapshot and snapshot.get("code") == "unavailable", snapshot)
finally:
    code, log = daemon.stop()
check("broken loopback: the journal names the failed call", "<3>virtual camera output: /dev/video20: VIDIOC_S_FMT" in log, log[-1500:])

with open(RIG) as f:
    rig = json.load(f)
rig["id"] = "duo-accel-nocommon"
for camera in rig["cameras"]:
    if camera["id"] == "inner-front":
        camera["formats"] = [{"pixelFormats": ["YUYV"], "width": 800, "height": 600, "fps": 30}]
nocommon = os.path.join(config_dir, "nocommon.json")
with open(nocommon, "w") as f:
    json.dump(rig, f)
daemon = loop.start_daemon({"rig": nocommon})
try:
    check("no common format: READY=1", daemon.wait_ready() is not None)
    state = daemon.request("state")
    check("no common format: readiness interrupted (noCommonFormat)", state.get("readiness") == {"state": "interrupted", "reason": "noCommonFormat"}, state.get("readiness"))
    check("no common format: the cameras themselves are available", all(available(state).values()), state.get("cameras"))
    snapshot = daemon.request("snapshot")
    check("no common format: snapshot is an error, not a drawn frame", snapshot.get("code") == "unavailable" and "png" not in snapshot, snapshot)
finally:
    code, log = daemon.stop()
check("no common format: the journal names the pool", "<3>virtual camera: the pool's cameras (inner-front, outer-front, back) share no mode" in log, log[-1500:])
code, out, err = loop.run(["--check-config", "--rig", nocommon])
check("no common format: check-config refuses it (exit 2) naming noCommonFormat", code == 2 and "shares no format" in err and "noCommonFormat" in err, (code, out, err))
report, stderr, code = loop.probe(nocommon)
check("no common format: probe still finds every device (exit 0)", code == 0, (code, report and report.get("needs")))
# -- 7. A hinge sensor stuck at 0 (Yoga Book 9i 13IRU8) and a USB presence input (Zenbook Duo) --
# The hinge reads exactly 0 while the accelerometers say 90°: the daemon names it, warns once, and
# decides from the accelerometers. The keyboard (0b05:1b2c) appearing covers the inner display
# once the 400 ms debounce has passed (the daemon's timer, not a sleep in the core).
with open(RIG) as f:
    rig = json.load(f)
rig["id"] = "duo-accel-presence"
rig["presence"] = [{"id": "keyboard", "usb": ["0b05:1b2c", "0b05:1bf2"], "covers": ["inner"]}]
presence_rig = os.path.join(config_dir, "presence.json")
with open(presence_rig, "w") as f:
    json.dump(rig, f)
stuck = Bed(FOLDCAMD, SHIM)
cams, hinge, base, display, _ = populate(stuck)
stuck.set_attribute(hinge, "in_angl0_raw", 0)
daemon = stuck.start_daemon({"rig": presence_rig})
try:
    check("stuck hinge: READY=1", daemon.wait_ready() is not None)
    state = daemon.eventually("state", lambda s: s.get("suspectSensors"))
    check("a hinge reading 0 while the accelerometers say 90°: named as suspect (zeroWhileOpen)",
          [(x.get("sensor"), x.get("kind"), x.get("fault")) for x in state.get("suspectSensors", [])] == [("fold", "hinge", "zeroWhileOpen")], state.get("suspectSensors"))
    check("... and the decision comes from the accelerometers", state.get("hingeSources", {}).get("fold") == "accelerometers"
          and abs(state.get("hinges", {}).get("fold", -1) - 90) < 0.5 and state.get("posture") == "halfOpen", str((state.get("hinges"), state.get("hingeSources"), state.get("posture"))))
    devices = daemon.request("devices")
    check("... devices lists it too", devices.get("suspectSensors") == state.get("suspectSensors"), devices.get("suspectSensors"))
    check("presence input absent before any USB device", state.get("presence") == {"keyboard": False}, state.get("presence"))
    keyboard = stuck.testbed.add_device("usb", "3-1", None, ["idVendor", "0b05", "idProduct", "1b2c"],
                                        ["DEVTYPE", "usb_device", "PRODUCT", "b05/1b2c/100", "ID_VENDOR_ID", "0b05", "ID_MODEL_ID", "1b2c"])
    stuck.testbed.uevent(keyboard, "add")
    state = daemon.eventually("state", lambda s: s.get("presence") == {"keyboard": True})
    check("the keyboard appearing (USB 0b05:1b2c) covers the inner display after the debounce",
          state.get("presence") == {"keyboard": True} and state.get("displays", {}).get("inner", {}).get("occluded") is True, str((state.get("presence"), state.get("displays", {}).get("inner"))))
    stuck.remove(keyboard)
    state = daemon.eventually("state", lambda s: s.get("presence") == {"keyboard": False})
    check("... and going uncovers it", state.get("displays", {}).get("inner", {}).get("occluded") is False, state.get("displays", {}).get("inner"))
finally:
    code, log = daemon.stop()
check("the stuck hinge warned once at <4>, saying what to do",
      log.count("<4>hinge fold: the sensor reads exactly 0") == 1 and "leave the hinge sensor out of the rig's matches" in log, log[-2000:])
check("the presence changes are logged", "presence input keyboard: a matching USB device appeared" in log and "presence input keyboard: a matching USB device went" in log, log[-2000:])

# -- 8. A hinge sensor that stays put while the accelerometers fold the rig: stuck ------------------
# The window is the rig's tunables.plausibility.stuckForMilliseconds (2000 here); the display
# accelerometer turns 40° about the hinge while the hinge sensor keeps reading 90. The turn comes
# well inside the window and the polled hinge posts no unchanged reading after it, so only the
# daemon's own timer can complete the window: the check waits on the state for that.
with open(RIG) as f:
    rig = json.load(f)
rig["id"] = "duo-accel-stuck"
rig.setdefault("tunables", {})["plausibility"] = {"stuckForMilliseconds": 2000}
stuck_rig = os.path.join(config_dir, "stuck.json")
with open(stuck_rig, "w") as f:
    json.dump(rig, f)
still = Bed(FOLDCAMD, SHIM)
cams, hinge, base, display, _ = populate(still)
daemon = still.start_daemon({"rig": stuck_rig})
try:
    check("stuck window: READY=1", daemon.wait_ready() is not None)
    state = daemon.eventually("state", lambda s: s.get("hingeSources", {}).get("fold") == "sensor")
    check("the hinge sensor decides at first (90 degrees)", abs(state.get("hinges", {}).get("fold", -1) - 90) < 0.01, state.get("hinges"))
    # Panel (-cos 40°, 0, sin 40°) through the inverse mount matrix: chip (0, -766, 643).
    still.set_attribute(display, "in_accel_y_raw", -766)
    still.set_attribute(display, "in_accel_z_raw", 643)
    # The engine pairs only readings both taken since its last angle, and a driver posts only a
    # changed reading: the base moves a little too.
    still.set_attribute(base, "in_accel_z_raw", -1020)
    state = daemon.eventually("state", lambda s: s.get("suspectSensors"))
    faults = [(x.get("sensor"), x.get("fault")) for x in state.get("suspectSensors", [])]
    check("a hinge sensor standing still while the accelerometers move 40 degrees is set aside as stuck", faults == [("fold", "stuck")], state.get("suspectSensors"))
    check("... and the accelerometers decide", state.get("hingeSources", {}).get("fold") == "accelerometers"
          and abs(abs(state.get("hinges", {}).get("fold", -1) - 90) - 40) < 1, str((state.get("hinges"), state.get("hingeSources"))))
finally:
    code, log = daemon.stop()
check("the stuck hinge warned once at <4>", log.count("<4>hinge fold: the sensor stayed at 90") == 1, log[-2000:])

shutil.rmtree(config_dir, ignore_errors=True)

# -- Display outputs: DRM connectors (output_checks.py) -------------------------------------------

import output_checks  # noqa: E402

output_checks.run(check, FOLDCAMD, SHIM, os.path.join(os.path.dirname(os.path.abspath(__file__)), "rigs", "duo-outputs.json"))

# -- Sharing sensors with iio-sensor-proxy (sensor_proxy_checks.py) ------------------------------

import sensor_proxy_checks  # noqa: E402

sensor_proxy_checks.run(check, FOLDCAMD, SHIM, RIG)

tally.finish()
