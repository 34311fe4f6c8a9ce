#!/usr/bin/python3
"""`foldcamctl calibrate` under umockdev testbeds built from the shipped models' facts: the test
answers each step's prompt on calibrate's standard input after setting the raw sensor values for
that pose, then checks the model file written and that `foldcamd --probe` under the same testbed
reads the sensors corrected by it. Prints one check per line and "N passed, N failed".

usage: check_calibrate.py FOLDCAMD MODELS_DIR TESTBEDS_DIR"""

import json
import math
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if "libumockdev-preload" not in os.environ.get("LD_PRELOAD", ""):
    os.environ["LD_PRELOAD"] = "libumockdev-preload.so.0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

from testbed import Bed, Tally  # noqa: E402

tally = Tally()
check = tally.check

FOLDCAMD, MODELS, TESTBEDS = sys.argv[1:4]
FOLDCAMCTL = os.path.join(os.path.dirname(FOLDCAMD), "foldcamctl")
EMPTY = tempfile.mkdtemp(prefix="foldcam-models-local-")


def facts(model_id):
    with open(os.path.join(TESTBEDS, model_id + ".json")) as f:
        return json.load(f)


def build(dmi, iio, local=EMPTY):
    """A testbed with DMI and IIO sensors only (calibrate reads nothing else); returns the bed
    and the syspath of each sensor, in order."""
    bed = Bed(FOLDCAMD, "")
    bed.env["FOLDCAM_MODELS_PATH"] = "%s:%s" % (local, MODELS)
    lines = ["P: /devices/virtual/dmi/id", "E: SUBSYSTEM=dmi"] + ["A: %s=%s" % item for item in dmi.items()]
    bed.testbed.add_from_string("\n".join(lines) + "\n")
    return bed, [bed.add_iio(s["name"], dict(s.get("attributes", {})), s.get("properties", {})) for s in iio]


class Calibrate:
    """foldcamctl calibrate ARGS in the testbed, its standard input and output in our hands."""

    def __init__(self, bed, arguments):
        self.process = subprocess.Popen([FOLDCAMCTL, "calibrate", *arguments], env=bed.env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.out = b""

    def wait_for(self, text, timeout=30):
        """Reads standard output until `text` appears (True) or calibrate exits or time runs out."""
        deadline = time.monotonic() + timeout
        while text.encode() not in self.out and time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.05)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    break
                self.out += chunk
        return text.encode() in self.out

    def enter(self):
        self.process.stdin.write(b"\n")
        self.process.stdin.flush()

    def finish(self, timeout=30):
        # communicate() closes standard input: calibrate reads end of file at its next prompt.
        rest, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, (self.out + rest).decode(), err.decode()


def guided(bed, arguments, poses):
    """Runs calibrate through its steps: before each step's Enter, `poses[target]()` sets the
    sensors for that pose. Returns (exit code, stdout, stderr, the targets it asked for)."""
    run = Calibrate(bed, arguments)
    asked = []
    for number in range(1, 6):
        if not run.wait_for("Step %d of " % number):
            break
        prompt = run.out.decode().rsplit("Step %d of " % number, 1)[1]
        target = int(prompt.split("(", 1)[1].split("°", 1)[0])
        asked.append(target)
        poses(target)
        run.enter()
        if not run.wait_for("for %d°" % target):
            break
    code, out, err = run.finish()
    if os.environ.get("SHOW_OUTPUT"):  # SHOW_OUTPUT=1: print what calibrate printed, to look at it
        print(out + err)
    return code, out, err, asked


def probe(bed):
    code, out, err = bed.run(["--probe", "--json"])
    try:
        return json.loads(out)
    except ValueError:
        return {"error": (code, err[-500:])}


# -- A hinge that counts the other way (reads 360 - angle): sign -1, offset 360 --------------------

MODEL = "lenovo-thinkpad-yoga-260"
yoga = facts(MODEL)
with open(os.path.join(MODELS, MODEL + ".json")) as f:
    shipped = json.load(f)
bed, syspaths = build(yoga["dmi"], yoga["iio"])
hinge = syspaths[[s["name"] for s in yoga["iio"]].index("hinge")]
# The output directory does not exist yet (the package ships no /etc/foldcam/models.d): created.
output = os.path.join(tempfile.mkdtemp(prefix="foldcam-calibrated-"), "models.d")
written = os.path.join(output, MODEL + ".json")
code, out, err, asked = guided(bed, ["--output", output], lambda angle: bed.set_attribute(hinge, "in_angl0_raw", 360 - angle))
check("reversed hinge: calibrate asks for closed, 90°, flat and tent", asked == [0, 90, 180, 300], (asked, out[-800:], err))
check("reversed hinge: reads at the sensor's own rate (10 Hz)", "reading every 100 ms until 5 readings in a row agree within 1°" in out, out[:600])
check("reversed hinge: exit 0, fitted sign -1, offset 360", code == 0 and "sign -1, offset 360°" in out, (code, out[-800:], err))
check("reversed hinge: the missing output directory was created, the model written in it", os.path.exists(written), out[-300:])
check("reversed hinge: prints what changed",
      "devices.sensors[0].corrections.sign: (none) -> -1" in out and "devices.sensors[0].corrections.offset: (none) -> 360" in out, out[-800:])
model = json.load(open(written)) if os.path.exists(written) else {}
sensors = model.get("devices", {}).get("sensors", [{}, {}])
check("reversed hinge: the written model is the shipped one with the hinge entry corrected",
      sensors[0] == {"hinge": "lid", "iioName": "hinge", "corrections": {"sign": -1, "offset": 360}}
      and sensors[1] == shipped["devices"]["sensors"][1]
      and {k: v for k, v in model.items() if k != "devices"} == {k: v for k, v in shipped.items() if k != "devices"}
      and model["devices"]["cameras"] == shipped["devices"]["cameras"], model)
bed.set_attribute(hinge, "in_angl0_raw", 360 - 104)
bed.env["FOLDCAM_MODELS_PATH"] = "%s:%s" % (output, MODELS)
report = probe(bed)
reading = [s for s in report.get("sensors", []) if s.get("kind") == "hinge"]
check("reversed hinge: foldcamd --probe with the written model first reads 104° (raw 256), corrected by sign -1, offset 360",
      (report.get("model") or {}).get("file", "").startswith(output) and reading and abs(reading[0].get("angle", -1) - 104) < 0.01
      and "corrected by sign -1, offset 360°" in reading[0].get("matchedBy", ""), (report.get("model"), reading))

# An existing local file is kept without --force: refused before any step.
before = open(written).read()
code, out, err = Calibrate(bed, ["--output", output]).finish()
check("a local model file already there: exit 1 before any step, naming --force",
      code == 1 and "exists" in err and "--force" in err and "Step 1" not in out and open(written).read() == before, (code, out, err))
# The local (corrected) model is now the machine's; the sensor reads right: calibrate measures the
# raw sensor, so it takes the correction out again. --dry-run prints and writes nothing.
code, out, err, asked = guided(bed, ["--output", output, "--dry-run"], lambda angle: bed.set_attribute(hinge, "in_angl0_raw", angle))
check("a sensor that reads right, measured raw despite the local correction: the correction goes (dry run)",
      code == 0 and "devices.sensors[0].corrections.sign: -1 -> (none)" in out and "--dry-run: not written" in out
      and '{"hinge": "lid", "iioName": "hinge"},\n' in out and open(written).read() == before, (code, out[-900:], err))

# A hinge stuck at 0 (the Yoga Book 9i's) fits no correction: refused, nothing written.
bed.env["FOLDCAM_MODELS_PATH"] = "%s:%s" % (EMPTY, MODELS)
stuck_output = tempfile.mkdtemp(prefix="foldcam-calibrated-")
code, out, err, asked = guided(bed, ["--output", stuck_output], lambda angle: bed.set_attribute(hinge, "in_angl0_raw", 0))
check("a hinge stuck at 0: exit 1, the fit refused with why, nothing written",
      code == 1 and "fit no sign and offset" in err and os.listdir(stuck_output) == [], (code, out[-500:], err))

# A reading that is not a number stops calibrate, naming the attribute.
code, out, err, asked = guided(bed, ["--output", stuck_output], lambda angle: bed.set_attribute(hinge, "in_angl0_raw", "zzz"))
check("a hinge reading that is not a number: exit 1 naming the attribute, nothing written",
      code == 1 and "read in_angl0_raw" in err and "nothing written" in err and os.listdir(stuck_output) == [], (code, err))

# Standard input closing mid-way stops calibrate without writing.
run = Calibrate(bed, ["--output", stuck_output])
run.wait_for("Step 1 of ")
code, out, err = run.finish()
check("standard input ends before a step: exit 1, nothing written", code == 1 and "standard input ended" in err and os.listdir(stuck_output) == [], (code, err))

# No model for this machine: refused, saying to write one.
unknown, _ = build({"sys_vendor": "Nobody", "product_name": "Unknown 1"}, yoga["iio"])
code, out, err = Calibrate(unknown, ["--output", stuck_output]).finish()
check("no model matches: exit 1, saying what the machine reports and to write a model first",
      code == 1 and "no device model matches this machine" in err and 'product_name "Unknown 1"' in err and "write a model for it first" in err, (code, err))

# -- A dual-screen hinge (0..180, no tent step) read from the other end; its stuckAt hint is kept --

BOOK = "lenovo-yoga-book-9i-13iru8"
book = facts(BOOK)
bed, syspaths = build(book["dmi"], book["iio"])
hinge = syspaths[[s["name"] for s in book["iio"]].index("hinge")]
output = tempfile.mkdtemp(prefix="foldcam-calibrated-")
code, out, err, asked = guided(bed, ["--output", output], lambda angle: bed.set_attribute(hinge, "in_angl0_raw", 180 - angle))
model = json.load(open(os.path.join(output, BOOK + ".json"))) if code == 0 else {}
check("dual-screen hinge: three steps (no tent), sign -1, offset 180, the model's stuckAt kept beside them",
      asked == [0, 90, 180] and model.get("devices", {}).get("sensors", [{}])[0].get("corrections") == {"stuckAt": 0, "sign": -1, "offset": 180},
      (code, asked, model.get("devices"), err))
shutil.rmtree(output, ignore_errors=True)

# -- Accelerometers whose base/display labels are swapped (cros-ec location attributes) -----------

G = 1000  # raw per g


def accelerometer_poses(bed, labelled_base, labelled_lid, swapped):
    """The base lies flat; the lid at `angle` reads gravity turned about the hinge (x). With
    swapped labels the sensor labelled "lid" sits in the base and the one labelled "base" in the lid."""
    def pose(angle):
        lid = (0, round(-G * math.sin(math.radians(angle))), round(G * math.cos(math.radians(angle))))
        base = (0, 0, -G)
        for syspath, values in ((labelled_base, lid if swapped else base), (labelled_lid, base if swapped else lid)):
            for axis, value in zip("xyz", values):
                bed.set_attribute(syspath, "in_accel_%s_raw" % axis, value)
    return pose


CROS = "chromebook-cros-ec-convertible"
cros = facts(CROS)
for swapped in (False, True):
    bed, syspaths = build(cros["dmi"], cros["iio"])
    labelled = {s["attributes"]["location"]: path for s, path in zip(cros["iio"], syspaths)}
    output = tempfile.mkdtemp(prefix="foldcam-calibrated-")
    code, out, err, asked = guided(bed, ["--output", output], accelerometer_poses(bed, labelled["base"], labelled["lid"], swapped))
    name = "swapped accelerometer labels" if swapped else "accelerometer labels right"
    check("%s: calibrate runs the four steps and decides" % name,
          code == 0 and asked == [0, 90, 180, 300] and ("labels swapped" if swapped else "labels right") in out, (code, asked, out[-900:], err))
    written = os.path.join(output, CROS + ".json")
    if not swapped:
        check("%s: nothing changes, so nothing is written (a copy would hide later fixes to the shipped file)" % name,
              "No correction changes" in out and "nothing written" in out and not os.path.exists(written), out[-500:])
        continue
    model = json.load(open(written)) if os.path.exists(written) else {}
    check("%s: both entries get swapLocation" % name,
          [s.get("corrections") for s in model.get("devices", {}).get("sensors", [])] == [{"swapLocation": True}, {"swapLocation": True}], model.get("devices"))
    bed.env["FOLDCAM_MODELS_PATH"] = "%s:%s" % (output, MODELS)
    report = probe(bed)
    placed = {s.get("syspath"): s.get("accelerometer") for s in report.get("sensors", []) if s.get("kind") == "accelerometer"}
    check("%s: with the written model the sensor labelled lid is the base accelerometer, the one labelled base the display" % name,
          placed.get(labelled["lid"]) == "base" and placed.get(labelled["base"]) == "display", (placed, labelled, report.get("error")))
    shutil.rmtree(output, ignore_errors=True)

tally.finish()
