"""foldcamd following DRM connectors inside a umockdev testbed: two eDP connectors on one card
(status, enabled and dpms sysfs attributes, change uevents on the card as the kernel sends them,
a connector removed and added back), the connectors' `panel orientation` property answered by
drm_mock on the card's node, and a testbed with no DRM card at all (nothing claimed).
Called by check_devices.py with its `check`."""

import json
import os
import subprocess
import tempfile

import drm_mock
from testbed import Bed

CARD = "/sys/devices/pci0000:00/0000:00:02.0/drm/card0"


def add_card(bed):
    bed.testbed.add_from_string("\n".join([
        "P: /devices/pci0000:00/0000:00:02.0/drm/card0", "N: dri/card0", "E: DEVNAME=/dev/dri/card0",
        "E: SUBSYSTEM=drm", "E: DEVTYPE=drm_minor", "A: dev=226:0"]) + "\n")


def add_connector(bed, name, status="connected", enabled="enabled", dpms="On"):
    bed.testbed.add_from_string("\n".join([
        "P: /devices/pci0000:00/0000:00:02.0/drm/card0/card0-%s" % name, "E: SUBSYSTEM=drm",
        "A: status=%s" % status, "A: enabled=%s" % enabled, "A: dpms=%s" % dpms]) + "\n")
    return "%s/card0-%s" % (CARD, name)


def hotplug(bed):
    """What the kernel sends when a connector's state changes: a change on the card."""
    bed.testbed.uevent(CARD, "change")


def foldcamctl(foldcamd, daemon, *arguments):
    """foldcamctl (built beside foldcamd) against the daemon in the testbed: (exit code, stdout)."""
    env = {key: value for key, value in os.environ.items() if key != "LD_PRELOAD"}
    done = subprocess.run([os.path.join(os.path.dirname(foldcamd), "foldcamctl"), "--socket", daemon.socket_path, *arguments],
                          env=env, capture_output=True, text=True, timeout=30)
    return done.returncode, done.stdout + done.stderr


def outputs(state):
    return {name: (d.get("outputState"), d.get("viewable"), d.get("reason")) for name, d in state.get("displays", {}).items()}


def run(report_check, foldcamd, shim, rig):
    def check(name, condition, detail=""):
        report_check(name, condition, detail if isinstance(detail, str) else repr(detail))

    bed = Bed(foldcamd, shim)
    add_card(bed)
    edp1 = add_connector(bed, "eDP-1")
    edp2 = add_connector(bed, "eDP-2")
    report, stderr, code = bed.probe(rig)
    needs = {n["id"]: n for n in (report or {}).get("needs", []) if n.get("kind") == "output"}
    # No camera in this testbed: the probe exits 3 for them, not for the outputs.
    check("outputs: probe lists each display's connector, found, never needed",
          code == 3 and [(needs.get(d, {}).get("status"), needs.get(d, {}).get("needed"), needs.get(d, {}).get("node")) for d in ("inner", "outer")]
          == [("found", False, "card0-eDP-1"), ("found", False, "card0-eDP-2")] and needs["inner"].get("detail") == "card0-eDP-1: on", (code, needs, stderr[-500:]))
    daemon = bed.start_daemon({"rig": rig})
    try:
        check("outputs: READY=1 sent", daemon.wait_ready() is not None)
        state = daemon.request("state")
        check("outputs: both eDP connectors on and viewable at start",
              outputs(state) == {"inner": ("on", True, None), "outer": ("on", True, None)}, outputs(state))
        check("outputs: the state names each display's output",
              [state["displays"][d].get("output") for d in ("inner", "outer")] == ["eDP-1", "eDP-2"], state.get("displays"))
        devices = daemon.request("devices")
        check("outputs: devices lists the displays' outputs",
              devices.get("displays", [None])[0] == {"id": "inner", "output": "eDP-1", "state": "on", "viewable": True,
                                                      "mountRotation": 0, "mountRotationSource": "none"}, devices.get("displays"))

        bed.set_attribute(edp1, "enabled", "disabled")
        bed.set_attribute(edp1, "dpms", "Off")
        hotplug(bed)
        state = daemon.eventually("state", lambda s: outputs(s).get("inner", ("",))[0] == "off")
        check("outputs: eDP-1 disabled makes inner unviewable (outputOff)", outputs(state).get("inner") == ("off", False, "outputOff"), outputs(state))
        check("outputs: with inner dark the lit outer display is viewed", state.get("viewedDisplay") == "outer", state.get("viewedDisplay"))
        check("outputs: inner's direction lists are empty like a folded-shut face",
              state["displays"]["inner"].get("forward") == [] and state["displays"]["inner"].get("backward") == [], state["displays"]["inner"])

        bed.set_attribute(edp1, "enabled", "enabled")
        bed.set_attribute(edp1, "dpms", "On")
        bed.set_attribute(edp2, "status", "disconnected")
        hotplug(bed)
        state = daemon.eventually("state", lambda s: outputs(s).get("outer", ("",))[0] == "disconnected")
        check("outputs: eDP-2 disconnected makes outer unviewable (outputDisconnected), inner back on",
              outputs(state) == {"inner": ("on", True, None), "outer": ("disconnected", False, "outputDisconnected")}, outputs(state))
        check("outputs: inner is viewed again", state.get("viewedDisplay") == "inner", state.get("viewedDisplay"))

        # The connector goes away (an MST hub unplugged) and comes back.
        bed.remove(edp2)
        bed.set_attribute(edp1, "status", "connected")
        hotplug(bed)
        state = daemon.eventually("state", lambda s: outputs(s).get("outer", ("",))[0] == "disconnected")
        check("outputs: a connector gone is disconnected", outputs(state).get("outer") == ("disconnected", False, "outputDisconnected"), outputs(state))
        code, out, err = bed.run(["--check-config", "--rig", rig])
        check("outputs: check-config warns of an output the machine lacks, naming the connectors",
              code == 0 and 'display outer: output "eDP-2" is not a DRM connector of this machine; did you mean "eDP-1"? (connectors: eDP-1)' in err, (code, err))
        edp2 = add_connector(bed, "eDP-2")
        state = daemon.eventually("state", lambda s: outputs(s).get("outer", ("",))[0] == "on")
        check("outputs: the connector added back (hotplug add) is on and viewable", outputs(state).get("outer") == ("on", True, None), outputs(state))

        code, out, err = bed.run(["--check-config", "--rig", rig])
        check("outputs: check-config is quiet when every output exists", code == 0 and "DRM connector" not in err, (code, err))
        # A compositor powering an output down changes dpms with no uevent: the poll sees it.
        bed.set_attribute(edp2, "dpms", "Off")
        state = daemon.eventually("state", lambda s: outputs(s).get("outer", ("",))[0] == "off")
        check("outputs: dpms Off with no uevent is seen by the poll", outputs(state).get("outer") == ("off", False, "outputOff"), outputs(state))
        bed.set_attribute(edp2, "dpms", "On")
        state = daemon.eventually("state", lambda s: outputs(s).get("outer", ("",))[0] == "on")
        check("outputs: ... and dpms On again", outputs(state).get("outer") == ("on", True, None), outputs(state))
        answer = daemon.request("directions", {"output": "eDP-2"})
        check("outputs: directions by output name answers for its display",
              answer.get("display") == "outer" and answer.get("output") == "eDP-2" and answer.get("viewable") is True, answer)
        answer = daemon.request("directions", {"output": "eDP-3"})
        check("outputs: an output the rig does not name is refused with the nearest",
              answer.get("code") == "invalidParams" and 'did you mean "eDP-' in answer.get("message", "") and "outputs: eDP-1, eDP-2" in answer.get("message", ""), answer)
        code, text = foldcamctl(foldcamd, daemon, "devices")
        check("outputs: foldcamctl devices shows each display's output", code == 0 and "OUTPUT" in text and "eDP-2" in text and "on" in text, text)
        code, text = foldcamctl(foldcamd, daemon, "directions", "--output", "eDP-2")
        check("outputs: foldcamctl directions --output eDP-2 shows outer", code == 0 and text.startswith("outer: ") and "output eDP-2 on" in text, text)
        answer = daemon.request("subscribe", {"topics": ["directions"], "output": "eDP-1"})
        check("outputs: subscribing by output names its display", answer.get("display") == "inner" and answer.get("topics") == ["directions"], answer)
    finally:
        code, log = daemon.stop()
    check("outputs: the daemon stopped cleanly", code == 0, log[-1500:])

    # The kernel's panel orientation, read from the card's node; the rig's mountRotation wins.
    turned = Bed(foldcamd, shim)
    add_card(turned)
    card = drm_mock.Card([(31, "eDP-1", "Right Side Up"), (32, "eDP-2", "Upside Down")])
    handler = drm_mock.Handler(card)
    turned.handlers.append(handler)
    turned.testbed.attach_ioctl("/dev/dri/card0", handler)
    add_connector(turned, "eDP-1")
    add_connector(turned, "eDP-2")
    directory = tempfile.mkdtemp(prefix="foldcam-umockdev-rig-")
    with open(rig) as f:
        document = json.load(f)
    document["displays"][1]["mountRotation"] = 0
    rig_path = os.path.join(directory, "duo-turned.json")
    with open(rig_path, "w") as f:
        json.dump(document, f)
    report, stderr, code = turned.probe(rig_path)
    details = {n["id"]: n.get("detail") for n in (report or {}).get("needs", []) if n.get("kind") == "output"}
    check("panel orientation: probe shows the kernel's", details.get("inner") == "card0-eDP-1: on, panel orientation 270° clockwise", (details, stderr[-500:]))
    card.seen.clear()
    card.master = True  # no compositor holds the card: the daemon's open makes it master
    daemon = turned.start_daemon({"rig": rig_path})
    try:
        check("panel orientation: READY=1 sent", daemon.wait_ready() is not None)
        displays = {d["id"]: d for d in daemon.request("devices").get("displays", [])}
        check("panel orientation: Right Side Up on eDP-1 is a 270 mount rotation, from the kernel",
              (displays.get("inner", {}).get("mountRotation"), displays.get("inner", {}).get("mountRotationSource")) == (270, "kernel"), displays)
        check("panel orientation: the rig's mountRotation overrides the kernel's Upside Down",
              (displays.get("outer", {}).get("mountRotation"), displays.get("outer", {}).get("mountRotationSource")) == (0, "rig"), displays)
        check("panel orientation: read with the KMS getters, never forcing a connector probe",
              drm_mock.GETPROPERTY in card.seen and not card.probed, (card.seen, card.probed))
        # Once per card appearance: the card's change uevents (each connector change sends one)
        # ask no KMS getter again; its remove (a driver reloaded) makes the next scan ask again.
        getters = len([n for n in card.seen if n != drm_mock.DROP_MASTER])
        for value in ("Off", "On", "Off"):
            turned.set_attribute(CARD + "/card0-eDP-2", "dpms", value)
            hotplug(turned)
        daemon.eventually("state", lambda s: outputs(s).get("outer", ("",))[0] == "off")
        check("panel orientation: asked once per card: change uevents open the card no more",
              len([n for n in card.seen if n != drm_mock.DROP_MASTER]) == getters and card.seen.count(drm_mock.DROP_MASTER) == 1, card.seen)
        turned.set_attribute(CARD + "/card0-eDP-2", "dpms", "On")
        turned.testbed.uevent(CARD, "remove")
        turned.testbed.uevent(CARD, "add")
        daemon.eventually("state", lambda s: outputs(s).get("outer", ("",))[0] == "on")
        check("panel orientation: a card removed and back (same number) is asked again, once",
              card.seen.count(drm_mock.DROP_MASTER) == 2 and len([n for n in card.seen if n != drm_mock.DROP_MASTER]) == 2 * getters, card.seen)
    finally:
        code, log = daemon.stop()
        os.unlink(rig_path)
        os.rmdir(directory)
    check("panel orientation: the daemon stopped cleanly", code == 0, log[-1500:])
    check("panel orientation: opening the card made foldcamd DRM master; it dropped that at once",
          log.count("/dev/dri/card0: opening it made foldcamd DRM master") == 1 and card.seen[0] == drm_mock.DROP_MASTER, (card.seen[:3], log[-1500:]))

    # No DRM card (a container): nothing is claimed, decisions as without outputs.
    bare = Bed(foldcamd, shim)
    report, stderr, code = bare.probe(rig)
    statuses = [n.get("status") for n in (report or {}).get("needs", []) if n.get("kind") == "output"]
    check("no DRM: probe says the outputs' state is unknown, still exit 0 for them", statuses == ["missing", "missing"] and code in (0, 3)
          and all("no DRM card is visible" in n.get("detail", "") for n in report["needs"] if n.get("kind") == "output"), (statuses, code))
    daemon = bare.start_daemon({"rig": rig})
    try:
        check("no DRM: READY=1 sent", daemon.wait_ready() is not None)
        state = daemon.request("state")
        check("no DRM: outputs unknown and viewable", outputs(state) == {"inner": ("unknown", True, None), "outer": ("unknown", True, None)}, outputs(state))
        check("no DRM: the posture's display is viewed", state.get("viewedDisplay") == "inner", state.get("viewedDisplay"))
    finally:
        code, log = daemon.stop()
    check("no DRM: the daemon stopped cleanly", code == 0, log[-1500:])
