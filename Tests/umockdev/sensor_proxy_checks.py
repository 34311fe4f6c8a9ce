"""foldcamd beside iio-sensor-proxy (issue 26 item 4): a private dbus-daemon stands in for the
system bus (DBUS_SYSTEM_BUS_ADDRESS), and `net.hadess.SensorProxy` is owned first by this
process (the name is what foldcamd asks about), then by Debian's real iio-sensor-proxy reading
the testbed's accelerometer. While the name has an owner, IIO devices udev tagged
IIO_SENSOR_PROXY_TYPE are read by polled sysfs reads and their buffers stay off.
Called by check_devices.py with its `check`."""

import struct
import os
import re
import subprocess
import time

from gi.repository import Gio, GLib

from testbed import Bed

PROXY_NAME = "net.hadess.SensorProxy"
# Debian's iio-sensor-proxy package (scripts/install-deps installs it); where its build puts it.
PROXY_BINARIES = ["/usr/libexec/iio-sensor-proxy", "/usr/sbin/iio-sensor-proxy"]
G = 0.00980665


class PrivateBus:
    """A dbus-daemon with the session configuration (anyone may own any name), outside umockdev."""

    def __init__(self):
        env = {key: value for key, value in os.environ.items() if key != "LD_PRELOAD"}
        self.process = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                                        env=env, stdout=subprocess.PIPE, text=True)
        self.address = self.process.stdout.readline().strip()  # the daemon prints it once listening
        self.connection = Gio.DBusConnection.new_for_address_sync(
            self.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

    def call(self, destination, path, interface, method, parameters, reply_type):
        return self.connection.call_sync(destination, path, interface, method, parameters,
                                         GLib.VariantType.new(reply_type), Gio.DBusCallFlags.NONE, 5000, None).unpack()

    def has_owner(self, name):
        return self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", GLib.Variant("(s)", (name,)), "(b)")[0]

    def own(self, name):
        # 4: DBUS_NAME_FLAG_DO_NOT_QUEUE; answer 1: now the primary owner.
        return self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName", GLib.Variant("(su)", (name, 4)), "(u)")[0] == 1

    def release(self, name):
        self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReleaseName", GLib.Variant("(s)", (name,)), "(u)")

    def watch_owner(self, name):
        """Returns a list that gets the new owner each time `name` changes hands (NameOwnerChanged)."""
        seen = []
        self.connection.signal_subscribe("org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus", name,
                                         Gio.DBusSignalFlags.NONE, lambda *args: seen.append(args[5].unpack()[2]))
        return seen

    def close(self):
        self.connection.close_sync(None)
        self.process.terminate()
        self.process.wait(10)


def testbed(foldcamd, shim, bus, tag_hinge):
    """A buffered hinge (tagged for the proxy only when `tag_hinge`: the real proxy would try to
    read it as an accelerometer) and a display accelerometer tagged as udev's rules tag one."""
    bed = Bed(foldcamd, shim)
    bed.env["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
    hinge = bed.add_buffered_hinge("iio:device0", properties={"IIO_SENSOR_PROXY_TYPE": "iio-buffer-accel"} if tag_hinge else {})
    display = bed.add_iio("accel_3d", {"in_accel_x_raw": 0, "in_accel_y_raw": -1000, "in_accel_z_raw": 0, "in_accel_scale": G},
                          {"ACCEL_LOCATION": "display", "IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"})
    return bed, hinge, display


def sensors_by_path(report):
    return {s["syspath"]: s for s in (report or {}).get("sensors", [])}


def run(check, foldcamd, shim, rig):
    bus = PrivateBus()
    try:
        stand_in(check, foldcamd, shim, rig, bus)
        real_proxy(check, foldcamd, shim, rig, bus)
    finally:
        bus.close()


def stand_in(check, foldcamd, shim, rig, bus):
    bed, hinge, display = testbed(foldcamd, shim, bus, tag_hinge=True)
    report, stderr, _ = bed.probe(rig)
    sensors = sensors_by_path(report)
    check("sensor proxy: no owner of net.hadess.SensorProxy: probe says not running, the tagged hinge would use its buffer",
          report and report.get("sensorProxy") == "not running" and sensors.get(hinge, {}).get("readBy") == "buffer"
          and "sharedWith" not in sensors.get(display, {}), (report and report.get("sensorProxy"), sensors, stderr[-500:]))
    bed.env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/system_bus_socket"
    report, stderr, _ = bed.probe(rig)
    check("sensor proxy: no system bus at all: not running (nothing can serve without one)",
          report and report.get("sensorProxy") == "not running", (report and report.get("sensorProxy"), stderr[-500:]))
    bed.env["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
    check("sensor proxy: this process owns net.hadess.SensorProxy on the private bus", bus.own(PROXY_NAME))
    try:
        report, stderr, _ = bed.probe(rig)
        sensors = sensors_by_path(report)
        check("sensor proxy: probe says running and names the shared sensors",
              report and report.get("sensorProxy") == "running"
              and sensors.get(display, {}).get("sharedWith") == "iio-sensor-proxy (iio-poll-accel)"
              and sensors.get(hinge, {}).get("sharedWith") == "iio-sensor-proxy (iio-buffer-accel)", (sensors, stderr[-500:]))
        check("sensor proxy: a shared hinge with a buffer is reported polled", sensors.get(hinge, {}).get("readBy") == "polling", sensors.get(hinge))
        text, _, _ = bed.probe(rig, json_output=False)
        check("sensor proxy: the text probe says so", re.search(r"^iio-sensor-proxy: +running \(", text, re.M) and re.search(r"^  Shared with: +iio-sensor-proxy \(iio-poll-accel\)", text, re.M), text[-1500:])
        daemon = bed.start_daemon({"rig": rig, "sensorPollMilliseconds": 20})
        try:
            check("sensor proxy: READY=1 beside the proxy", daemon.wait_ready() is not None)
            state = daemon.eventually("state", lambda s: s.get("hingeSources", {}).get("fold") == "sensor")
            check("sensor proxy: the shared hinge is read (polled), its buffer left off",
                  state.get("hingeSources", {}).get("fold") == "sensor" and bed.attribute(hinge, "buffer/enable") == "0"
                  and bed.attribute(hinge, "scan_elements/in_angl0_en") == "0", (state.get("hingeSources"), bed.attribute(hinge, "buffer/enable")))
        finally:
            code, log = daemon.stop()
        check("sensor proxy: notices name each shared sensor",
              "<5>IIO device %s is shared with iio-sensor-proxy (iio-poll-accel), which runs" % display in log
              and "<5>IIO device %s is shared with iio-sensor-proxy (iio-buffer-accel), which runs" % hinge in log, log[-2000:])
    finally:
        bus.release(PROXY_NAME)


def real_proxy(check, foldcamd, shim, rig, bus):
    """Debian's iio-sensor-proxy reading the testbed's accelerometer, then foldcamd beside it."""
    binary = next((path for path in PROXY_BINARIES if os.access(path, os.X_OK)), None)
    if binary is None:
        check("iio-sensor-proxy integration: the real proxy runs under the testbed", False,
              "Debian package iio-sensor-proxy is not installed (none of %s; run scripts/install-deps): this check needs the real daemon"
              % ", ".join(PROXY_BINARIES))
        return
    bed, hinge, display = testbed(foldcamd, shim, bus, tag_hinge=False)
    owners = bus.watch_owner(PROXY_NAME)
    env = dict(bed.env, G_MESSAGES_DEBUG="all")
    proxy = subprocess.Popen([binary, "--verbose"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = GLib.get_monotonic_time() + 20_000_000
        while not owners and proxy.poll() is None and GLib.get_monotonic_time() < deadline:
            GLib.MainContext.default().iteration(False)
            bed.turn(0.01)
        check("iio-sensor-proxy integration: the real proxy owns net.hadess.SensorProxy", bool(owners) and bus.has_owner(PROXY_NAME),
              "exit %s" % proxy.poll())
        if not owners:
            return
        sensor_path, sensor_interface = "/net/hadess/SensorProxy", "net.hadess.SensorProxy"
        bus.call(PROXY_NAME, sensor_path, sensor_interface, "ClaimAccelerometer", None, "()")
        has = bus.call(PROXY_NAME, sensor_path, "org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (sensor_interface, "HasAccelerometer")), "(v)")[0]
        check("iio-sensor-proxy integration: the proxy found the testbed's accelerometer", has is True, has)
        report, stderr, _ = bed.probe(rig)
        sensors = sensors_by_path(report)
        check("iio-sensor-proxy integration: probe says the display accelerometer is shared with it",
              report and report.get("sensorProxy") == "running" and sensors.get(display, {}).get("sharedWith") == "iio-sensor-proxy (iio-poll-accel)", (sensors, stderr[-500:]))
        daemon = bed.start_daemon({"rig": rig, "sensorPollMilliseconds": 20, "logLevel": "info"})
        try:
            check("iio-sensor-proxy integration: foldcamd READY=1 beside it", daemon.wait_ready() is not None)
            # The hinge is not the proxy's: foldcamd reads it through its own buffer.
            bed.write_samples("iio:device0", struct.pack("<i", 120))
            state = daemon.eventually("state", lambda s: s.get("hingeSources", {}).get("fold") == "sensor")
            check("iio-sensor-proxy integration: foldcamd reads its own hinge beside the proxy", state.get("hingeSources", {}).get("fold") == "sensor", state.get("hingeSources"))
            # The display accelerometer's orientation, asked of the proxy over D-Bus: the upright
            # panel first, then turned so its left side is up (the proxy polls the same sysfs).
            log_path = os.path.join(daemon.dir, "stderr")

            def logged(text, timeout=20):
                deadline = time.monotonic() + timeout
                while time.monotonic() < deadline:
                    with open(log_path) as f:
                        if text in f.read():
                            return True
                    GLib.MainContext.default().iteration(False)
                    bed.turn(0.05)
                return False
            check("iio-sensor-proxy integration: foldcamd follows the proxy's orientation over D-Bus (normal)",
                  logged("iio-sensor-proxy: accelerometer orientation normal"), open(log_path).read()[-1500:])
            bed.set_attribute(display, "in_accel_x_raw", 1000)
            bed.set_attribute(display, "in_accel_y_raw", 0)
            check("iio-sensor-proxy integration: a turn the proxy sees reaches foldcamd as a PropertiesChanged (left-up)",
                  logged("iio-sensor-proxy: accelerometer orientation left-up"), open(log_path).read()[-1500:])
            has = bus.call(PROXY_NAME, sensor_path, "org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (sensor_interface, "HasAccelerometer")), "(v)")[0]
            check("iio-sensor-proxy integration: the proxy still has its accelerometer with foldcamd running", has is True and proxy.poll() is None, has)
        finally:
            _, log = daemon.stop()
        check("iio-sensor-proxy integration: foldcamd's notice names the shared accelerometer",
              "IIO device %s is shared with iio-sensor-proxy (iio-poll-accel), which runs" % display in log, log[-2000:])
    finally:
        proxy.terminate()
        try:
            proxy.wait(10)
        except subprocess.TimeoutExpired:
            proxy.kill()
