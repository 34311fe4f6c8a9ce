#!/usr/bin/python3
"""The shipped device models (models.d) against umockdev testbeds built from their published
facts (Tests/umockdev/models/*.json): for each, `foldcamd --probe --json` with no rig configured
must name the model, match its cameras, sensors and switches, and `foldcamd scenario --rig
model:ID` must replay the published readings to the stated decisions. Prints one check per line
and "N passed, N failed"; exits 1 on any failure.

usage: check_models.py FOLDCAMD "SHIM.so ..." MODELS_DIR TESTBEDS_DIR"""

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if "libumockdev-preload" not in os.environ.get("LD_PRELOAD", ""):
    os.environ["LD_PRELOAD"] = "libumockdev-preload.so.0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

from testbed import Bed, Tally  # noqa: E402
import evdev_mock as ev  # noqa: E402
import v4l2_mock as v  # noqa: E402

tally = Tally()
check = tally.check


FOLDCAMD, SHIM, MODELS, TESTBEDS = sys.argv[1:5]
FOLDCAMCTL = os.path.join(os.path.dirname(FOLDCAMD), "foldcamctl")
SERIAL = "7Q3X91"
# No local models: the shipped directory alone, as a fresh install has it.
EMPTY = tempfile.mkdtemp(prefix="foldcam-models-local-")
MODELS_PATH = "%s:%s" % (EMPTY, MODELS)


def build(facts):
    bed = Bed(FOLDCAMD, SHIM)
    bed.env["FOLDCAM_MODELS_PATH"] = MODELS_PATH
    dmi = ["P: /devices/virtual/dmi/id", "E: SUBSYSTEM=dmi"] + ["A: %s=%s" % item for item in facts["dmi"].items()]
    bed.testbed.add_from_string("\n".join(dmi) + "\n")
    for minor, camera in enumerate(facts.get("cameras", [])):
        properties = {}
        parent = camera.get("parent", "pci0000:00/0000:00:14.0/usb1/1-5/1-5:1.%d" % minor)
        if "usb" in camera:
            vendor, product = camera["usb"].split(":")
            properties = {"ID_BUS": "usb", "ID_VENDOR_ID": vendor, "ID_MODEL_ID": product,
                          "ID_PATH": "pci-0000:00:14.0-usb-0:5:1.%d" % minor, "ID_USB_INTERFACE_NUM": "%02d" % minor,
                          # A unit's serial, which `foldcamctl report` must redact.
                          "ID_SERIAL": "testbed_camera_SN%s" % SERIAL, "ID_SERIAL_SHORT": "SN%s" % SERIAL}
        else:
            properties = {"ID_PATH": "pci-0000:00:05.0"}
        properties.update(camera.get("properties", {}))
        if camera.get("subdev"):
            # A sensor sub-device: only its controls (foldcam never asks it for formats).
            controls = {getattr(v, name): value for name, value in camera.get("controls", {}).items()}
            mock = v.Camera(camera["card"], driver=camera.get("driver", "mockcam"), caps=0, formats={}, controls=controls)
        elif camera.get("metadata"):
            mock = v.Camera(camera["card"], driver=camera.get("driver", "mockcam"), caps=v.CAP_META_CAPTURE, formats={})
        else:
            formats = {fourcc: [(w, h, fps) for w, h, fps in sizes] for fourcc, sizes in camera["formats"].items()}
            controls = {getattr(v, name): value for name, value in camera.get("controls", {}).items()}
            mock = v.Camera(camera["card"], driver=camera.get("driver", "mockcam"), formats=formats, controls=controls)
        bed.add_camera(camera["node"], parent, properties, mock, minor, index=minor)
    for sensor in facts.get("iio", []):
        attributes = dict(sensor.get("attributes", {}))
        bed.add_iio(sensor["name"], attributes, sensor.get("properties", {}))
    for device in facts.get("usb", []):
        vendor, product = device["usb"].split(":")
        bed.testbed.add_from_string("\n".join([
            "P: /devices/pci0000:00/0000:00:14.0/usb1/%s" % device["name"], "E: SUBSYSTEM=usb", "E: DEVTYPE=usb_device",
            "E: ID_VENDOR_ID=%s" % vendor, "E: ID_MODEL_ID=%s" % product, "A: idVendor=%s" % vendor, "A: idProduct=%s" % product]) + "\n")
    for device in facts.get("inputs", []):
        # An input device (no evdev answers needed: --probe only reads its udev NAME).
        bed.testbed.add_from_string("\n".join([
            "P: /devices/virtual/misc/uhid/0005:17EF:0000.0001/input/input30/%s" % device["node"], "N: input/%s" % device["node"],
            "E: DEVNAME=/dev/input/%s" % device["node"], "E: SUBSYSTEM=input", 'E: NAME="%s"' % device["name"], "A: dev=13:80"]) + "\n")
    for device in facts.get("platform", []):
        # A platform device with its attributes (the X1 Fold's thinkpad_acpi, for one).
        bed.testbed.add_from_string("\n".join(["P: /devices/platform/%s" % device["name"], "E: SUBSYSTEM=platform", "E: DRIVER=%s" % device["name"]]
                                              + ["A: %s=%s" % item for item in device.get("attributes", {}).items()]) + "\n")
    if "switch" in facts:
        codes = {"SW_LID": ev.SW_LID, "SW_TABLET_MODE": ev.SW_TABLET_MODE}
        bed.add_switch("event9", ev.SwitchDevice(facts["switch"]["name"], [codes[s] for s in facts["switch"]["switches"]]))
    return bed


def at(state, key):
    """A state's value at a dotted key ("displays.screen.covered"); None where there is none."""
    for part in key.split("."):
        state = state.get(part) if isinstance(state, dict) else None
    return state


def scenario(model_id, script):
    path = tempfile.mktemp(prefix="foldcam-scenario-", suffix=".json")
    with open(path, "w") as f:
        json.dump({"steps": script["steps"]}, f)
    try:
        env = dict(os.environ, FOLDCAM_MODELS_PATH=MODELS_PATH)
        env.pop("LD_PRELOAD", None)
        result = subprocess.run([FOLDCAMD, "scenario", "--rig", "model:" + model_id, "--script", path], env=env, capture_output=True, text=True, timeout=60)
        return result.returncode, [json.loads(line) for line in result.stdout.splitlines() if line.strip()], result.stderr
    finally:
        os.unlink(path)


shipped = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(MODELS, "*.json")))
testbeds = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(TESTBEDS, "*.json")))
check("every shipped model has a testbed", shipped == testbeds, (shipped, testbeds))

for model_id in testbeds:
    with open(os.path.join(TESTBEDS, model_id + ".json")) as f:
        facts = json.load(f)
    with open(os.path.join(MODELS, model_id + ".json")) as f:
        model = json.load(f)
    bed = build(facts)
    code, out, err = bed.run(["--probe", "--json"])
    try:
        report = json.loads(out)
    except ValueError:
        report = None
    check("%s: probe ran" % model_id, report is not None, (code, err))
    report = report or {}
    found = report.get("model") or {}
    check("%s: probe names the model" % model_id, found.get("id") == model_id, found.get("summary"))
    check("%s: matched on the model's DMI fields" % model_id,
          sorted(found.get("matchedOn", {})) == sorted(model["match"]["dmi"]), found.get("matchedOn"))
    check("%s: the rig is the model's" % model_id, report.get("rig") == model_id, report.get("rig"))
    check("%s: the no-configuration warning names the model's rig, not the default" % model_id,
          "using the defaults (rig %s from model %s," % (model_id, model_id) in err, err)
    entries = {e["entry"]: e for e in found.get("entries", [])}
    expect = facts["expect"]
    for entry in expect.get("found", []):
        check("%s: %s found" % (model_id, entry), entries.get(entry, {}).get("found") not in (None, ""), entries.get(entry))
    check("%s: nothing else of the model missing" % model_id, sorted(found.get("notFound", [])) == sorted(expect.get("notFound", [])), found.get("notFound"))
    cameras = {c["node"]: c for c in report.get("cameras", [])}
    for rig_camera, node in expect.get("rigCameras", {}).items():
        descriptor = cameras.get(node, {}).get("descriptor", {})
        check("%s: %s is rig camera %s, matched by the model" % (model_id, node, rig_camera),
              descriptor.get("rigCamera") == rig_camera and descriptor.get("classification", {}).get("matchedBy", "").startswith("model %s devices.cameras" % model_id), descriptor)
    for node, reason in expect.get("skipped", {}).items():
        check("%s: %s classified out: %s..." % (model_id, node, reason[:40]), cameras.get(node, {}).get("reason", "").startswith(reason), cameras.get(node))
    sensors = report.get("sensors", [])
    for hinge, angle in expect.get("hinges", {}).items():
        reading = [s for s in sensors if s.get("kind") == "hinge" and s.get("hinge") == hinge]
        check("%s: hinge %s reads %s" % (model_id, hinge, angle), reading and abs(reading[0].get("angle", -999) - angle) < 0.01, reading)
    for accelerometer, source in expect.get("accelerometers", {}).items():
        placed = [s for s in sensors if s.get("accelerometer") == accelerometer]
        check("%s: accelerometer %s placed, mount matrix from %s" % (model_id, accelerometer, source),
              placed and placed[0].get("mountMatrixSource") == source, placed)
    check("%s: probe's completeness as the facts allow (%s)" % (model_id, expect["complete"]), report.get("complete") is expect["complete"],
          [n for n in report.get("needs", []) if n.get("status") != "found"])
    code, states, err = scenario(model_id, facts["scenario"])
    check("%s: scenario replayed" % model_id, code == 0 and len(states) == len(facts["scenario"]["steps"]), (code, err))
    for index, wanted in enumerate(facts["scenario"]["expect"]):
        state = states[index] if index < len(states) else {}
        got = {key: at(state, key) for key in wanted}
        check("%s: scenario step %d decides %s" % (model_id, index, wanted), got == wanted, got)

# -- The daemon uses the model; a configured rig wins over it ----------------------------------

with open(os.path.join(TESTBEDS, "lenovo-thinkpad-yoga-260.json")) as f:
    yoga = json.load(f)
bed = build(yoga)
daemon = bed.start_daemon({"sensorPollMilliseconds": 20})
try:
    check("yoga 260 daemon with no rig configured: READY=1", daemon.wait_ready() is not None)
    state = daemon.eventually("state", lambda s: s.get("hingeSources", {}).get("lid") == "sensor")
    check("yoga 260 daemon: the model's rig, its hinge read from the sensor the model names",
          (state.get("hinges", {}).get("lid"), state.get("hingeSources", {}).get("lid"), state.get("posture")) == (104, "sensor", "laptop"), state.get("hinges"))
    cameras = daemon.request("devices").get("cameras", [])
    check("yoga 260 daemon: the USB camera is the rig's user camera, by the model",
          [(c.get("rigCamera"), c.get("classification", {}).get("matchedBy")) for c in cameras]
          == [("user", "model lenovo-thinkpad-yoga-260 devices.cameras[0] (usb 04f2:b5c1)")], cameras)
finally:
    code, log = daemon.stop()
check("yoga 260 daemon: the journal names the model and the DMI fields it matched",
      "<5>model lenovo-thinkpad-yoga-260 (" in log and 'matched on sys_vendor "LENOVO", product_name "20FES04T1M", product_version "ThinkPad Yoga 260"' in log, log[-600:])
code, out, err = bed.run(["--probe", "--json", "--rig", "convertible"])
report = json.loads(out or "{}")
check("--rig wins over the model: no model search", report.get("rig") == "convertible" and report.get("model") is None, (report.get("rig"), report.get("model")))
config = tempfile.mktemp(prefix="foldcam-config-", suffix=".json")
with open(config, "w") as f:
    json.dump({"rig": "dual-screen"}, f)
code, out, err = bed.run(["--probe", "--json", "--config", config])
os.unlink(config)
report = json.loads(out or "{}")
check("the configuration's rig wins over the model", report.get("rig") == "dual-screen" and report.get("model") is None, (report.get("rig"), report.get("model")))
# "rig": "auto" (the packaged configuration): the rig file beside it if written, else the model.
auto_dir = tempfile.mkdtemp(prefix="foldcam-auto-")
auto_config = os.path.join(auto_dir, "foldcam.json")
with open(auto_config, "w") as f:
    json.dump({"rig": "auto"}, f)
code, out, err = bed.run(["--probe", "--json", "--config", auto_config])
report = json.loads(out or "{}")
check("rig auto with no rig.json: the machine's model", report.get("rig") == "lenovo-thinkpad-yoga-260" and report.get("model") is not None, (report.get("rig"), err[-300:]))
shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "FoldcamCore", "Presets", "dual-screen.json"), os.path.join(auto_dir, "rig.json"))
code, out, err = bed.run(["--probe", "--json", "--config", auto_config])
report = json.loads(out or "{}")
check("rig auto with a rig.json beside the configuration: that file, no model search", report.get("rig") == "dual-screen" and report.get("model") is None, (report.get("rig"), report.get("model")))
os.unlink(os.path.join(auto_dir, "rig.json"))
unknown = json.loads(json.dumps(yoga))
unknown["dmi"] = {"sys_vendor": "Nobody", "product_name": "Unknown 1"}
code, out, err = build(unknown).run(["--check-config", "--config", auto_config])
check("rig auto on a machine no model matches and no rig.json: exit 2, saying what to write and what was matched",
      code == 2 and 'rig "auto" found no rig' in err and os.path.join(auto_dir, "rig.json") in err and 'product_name "Unknown 1"' in err, (code, err[-500:]))
shutil.rmtree(auto_dir, ignore_errors=True)
ruled = json.loads(json.dumps(yoga))
ruled["cameras"][0]["properties"] = {"FOLDCAM_CAMERA": "user"}
code, out, err = build(ruled).run(["--probe", "--json"])
report = json.loads(out or "{}")
entry = {e["entry"]: e for e in (report.get("model") or {}).get("entries", [])}.get("devices.cameras[0]", {})
camera = {c["node"]: c for c in report.get("cameras", [])}.get("/dev/video0", {}).get("descriptor", {})
check("a local udev rule's tag is kept, and the model's entry still counts as found",
      entry.get("found") == "/dev/video0 (tagged by a local udev rule)" and camera.get("classification", {}).get("matchedBy") == "udev FOLDCAM_CAMERA=user", (entry, camera.get("classification")))
local = tempfile.mkdtemp(prefix="foldcam-models-etc-")
with open(os.path.join(local, "lenovo-thinkpad-yoga-260.json"), "w") as f:
    json.dump({"name": "local", "source": "https://example.org/local", "match": {"dmi": {"sys_vendor": "LENOVO"}},
               "rig": {"preset": "convertible", "overrides": {"id": "local-yoga"}}}, f)
bed.env["FOLDCAM_MODELS_PATH"] = "%s:%s" % (local, MODELS)
code, out, err = bed.run(["--probe", "--json"])
report = json.loads(out or "{}")
check("a file in the local directory replaces the shipped one of the same name",
      report.get("rig") == "local-yoga" and (report.get("model") or {}).get("file", "").startswith(local), report.get("model"))
# A local copy whose hinge counts the other way: the model's sign and offset reach the reading.
with open(os.path.join(local, "lenovo-thinkpad-yoga-260.json"), "w") as f:
    json.dump({"name": "reversed", "source": "https://example.org/local", "match": {"dmi": {"sys_vendor": "LENOVO"}},
               "rig": {"preset": "convertible", "overrides": {"id": "reversed-yoga"}},
               "devices": {"sensors": [{"hinge": "lid", "iioName": "hinge", "corrections": {"sign": -1, "offset": 360}}]}}, f)
code, out, err = bed.run(["--probe", "--json"])
report = json.loads(out or "{}")
hinge = [s for s in report.get("sensors", []) if s.get("kind") == "hinge" and s.get("hinge") == "lid"]
check("a model's hinge sign and offset correct the reading (104 read, 360 - 104 used) and --probe says so",
      hinge and abs(hinge[0].get("angle", -999) - 256) < 0.01 and "corrected by sign -1, offset 360" in hinge[0].get("matchedBy", ""), hinge)
shutil.rmtree(local, ignore_errors=True)

# -- The X1 Fold's keyboard through thinkpad_acpi's attribute, with no rig configured --------------
# The testbed's kernel has /sys/devices/platform/thinkpad_acpi/keyboard_attached_on_screen (no stock
# kernel does): it turning 1 covers the lower half of the one screen (face bottom.A) once the 400 ms
# debounce has passed, and 0 uncovers it. The daemon reads it every second; the checks wait on the
# state.

with open(os.path.join(TESTBEDS, "lenovo-thinkpad-x1-fold-16-gen1.json")) as f:
    fold = json.load(f)
bed = build(fold)
platform = "/sys/devices/platform/thinkpad_acpi"
daemon = bed.start_daemon({})
lower_half = [{"face": "bottom.A", "x": 0, "y": 0.5, "width": 1, "height": 0.5}]
try:
    check("x1 fold daemon: READY=1", daemon.wait_ready() is not None)
    state = daemon.request("state")
    check("x1 fold daemon: the keyboard absent while the attribute reads 0, nothing covered",
          state.get("presence") == {"keyboard": False} and "covered" not in state.get("displays", {}).get("screen", {}), str((state.get("presence"), state.get("displays", {}).get("screen"))))
    bed.set_attribute(platform, "keyboard_attached_on_screen", 1)
    state = daemon.eventually("state", lambda s: s.get("presence") == {"keyboard": True})
    screen = state.get("displays", {}).get("screen", {})
    check("x1 fold daemon: the attribute turning 1 covers the lower half after the debounce, the screen still viewable",
          screen.get("covered") == lower_half and screen.get("viewable") is True and screen.get("occluded") is False, screen)
    entries = {d.get("id"): d for d in daemon.request("devices").get("displays", [])}
    check("x1 fold daemon: devices names the covered part too", entries.get("screen", {}).get("covered") == lower_half, entries)
    code, out, err = bed.run(["--probe", "--json"])
    entries = {e["entry"]: e for e in (json.loads(out or "{}").get("model") or {}).get("entries", [])}
    check("x1 fold: --probe finds the keyboard by its attribute while it reads 1",
          entries.get("devices.presence[0]", {}).get("found") == "present now: attribute /sys/devices/platform/thinkpad_acpi/keyboard_attached_on_screen reads 1", entries.get("devices.presence[0]"))
    status = subprocess.run([FOLDCAMCTL, "--socket", daemon.socket_path, "status"], env=bed.env, capture_output=True, text=True, timeout=30)
    check("x1 fold daemon: foldcamctl status shows the covered part", status.returncode == 0 and "part (bottom.A: x 0 y 0.5 w 1 h 0.5)" in status.stdout, (status.returncode, status.stdout[-800:], status.stderr[-300:]))
    bed.set_attribute(platform, "keyboard_attached_on_screen", 0)
    state = daemon.eventually("state", lambda s: s.get("presence") == {"keyboard": False})
    check("x1 fold daemon: back to 0, nothing covered", "covered" not in state.get("displays", {}).get("screen", {}), state.get("displays", {}).get("screen"))
finally:
    code, log = daemon.stop()
check("x1 fold daemon: the journal says the attribute is followed and what it said",
      "presence input keyboard: following /sys/devices/platform/thinkpad_acpi/keyboard_attached_on_screen" in log
      and "keyboard_attached_on_screen says present" in log and "keyboard_attached_on_screen says absent" in log, log[-1500:])
# A kernel without the attribute (every stock kernel): no presence, no poll, no error.
stock = json.loads(json.dumps(fold))
stock["platform"] = [{"name": "thinkpad_acpi", "attributes": {}}]
bed = build(stock)
daemon = bed.start_daemon({})
try:
    check("x1 fold daemon on a stock kernel: READY=1", daemon.wait_ready() is not None)
    state = daemon.request("state")
    check("x1 fold daemon on a stock kernel: the keyboard counts as absent", state.get("presence") == {"keyboard": False}, state.get("presence"))
finally:
    code, log = daemon.stop()
check("x1 fold daemon on a stock kernel: the attribute is not followed, nothing said of it",
      "keyboard_attached_on_screen" not in log, log[-1500:])

# -- foldcamctl report under the Yoga 260's testbed --------------------------------------------

with open(os.path.join(TESTBEDS, "lenovo-thinkpad-yoga-260.json")) as f:
    bed = build(json.load(f))
# A pw-dump on PATH that prints the Surface Pro 9 fixture's two libcamera nodes and a
# Bluetooth address, as PipeWire would.
fake = tempfile.mkdtemp(prefix="foldcam-pwdump-")
with open(os.path.join(fake, "pw-dump"), "w") as f:
    f.write("#!/bin/sh\ncat <<'EOF'\n" + json.dumps([
        {"id": 107, "info": {"props": {"media.class": "Video/Source", "device.api": "libcamera", "api.libcamera.path": "\\_SB_.PC00.I2C3.CAMF",
                                        "api.libcamera.location": "front", "api.libcamera.rotation": 180, "node.name": "libcamera_input.__SB_.PC00.I2C3.CAMF"}}},
        {"id": 99, "info": {"props": {"media.class": "Video/Source", "device.api": "libcamera", "api.libcamera.path": "\\_SB_.PC00.I2C2.CAMR",
                                       "api.libcamera.location": None, "api.libcamera.rotation": 0, "node.description": "phone 12:34:56:78:9A:BC"}}},
        {"id": 40, "info": {"props": {"media.class": "Audio/Sink", "node.name": "speaker"}}}]) + "\nEOF\n")
os.chmod(os.path.join(fake, "pw-dump"), 0o755)
bed.env["PATH"] = fake + ":" + os.environ.get("PATH", "/usr/bin:/bin")
out_path = os.path.join(fake, "report.txt")
process = subprocess.Popen([FOLDCAMCTL, "report", "-o", out_path], env=bed.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
while process.poll() is None:
    bed.turn(0.01)
_, err = process.communicate()
report = open(out_path).read() if os.path.exists(out_path) else ""
check("report: written to the -o file", process.returncode == 0 and report.startswith("# foldcam report"), (process.returncode, err.decode()))
check("report: DMI fields", "sys_vendor=LENOVO" in report and "product_version=ThinkPad Yoga 260" in report, report[:400])
check("report: the camera's udev properties, serials redacted",
      "ID_VENDOR_ID=04f2" in report and "ID_SERIAL=<redacted>" in report and SERIAL not in report, report)
check("report: V4L2 capabilities of the camera", "V4L2 driver=uvcvideo card=testbed UVC camera 04f2:b5c1" in report, report)
check("report: IIO channels with three readings", "in_angl0_raw: 104, 104, 104" in report and "in_accel_y_raw: -940241, -940241, -940241" in report, report)
check("report: the switch's input device", "ID_INPUT_SWITCH=1" in report, report)
check("report: PipeWire's camera nodes from pw-dump, addresses masked",
      "node 107: media.class=\"Video/Source\" device.api=\"libcamera\"" in report and "api.libcamera.rotation=180" in report
      and "phone XX:XX:XX:XX:XX:XX" in report and "12:34:56" not in report and "speaker" not in report, report)
shutil.rmtree(fake, ignore_errors=True)
if os.environ.get("SHOW_REPORT"):  # SHOW_REPORT=1: print the report, to look at it
    print(report)

tally.finish()
