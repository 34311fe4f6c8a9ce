"""A umockdev testbed for foldcam: fake cameras (udev + V4L2 ioctls), IIO sensors (udev + sysfs),
and helpers to run `foldcamd --probe` or the daemon itself inside it.

umockdev answers ioctls from this process, so every wait here keeps GLib's main context turning.
This process must itself run with libumockdev-preload (check_devices.py re-executes itself so):
the testbed's uevent sender looks devices up through libudev in-process."""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import GLib, UMockdev  # noqa: E402

import v4l2_mock  # noqa: E402

RADIANS_PER_DEGREE = 0.017453292519943295



class Tally:
    """The TAP-like output every umockdev script prints: a line per check, then "N passed, N
    failed"; `finish` exits 1 on any failure."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print("ok - %s" % name)
        else:
            self.failed += 1
            print("FAIL - %s%s" % (name, (": %s" % (detail,)) if detail else ""))  # a tuple detail prints whole
        sys.stdout.flush()

    def finish(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        sys.exit(1 if self.failed else 0)

class Bed:
    def __init__(self, foldcamd, shim):
        self.foldcamd = foldcamd
        self.shim = shim
        self.testbed = UMockdev.Testbed.new()
        self.context = GLib.MainContext.default()
        self.handlers = []  # keep handlers alive as long as the testbed
        self.iio_count = 0
        self.nodes = {}  # syspath -> /dev node with an ioctl handler
        self.env = dict(os.environ, UMOCKDEV_DIR=self.testbed.get_root_dir(),
                        LD_PRELOAD=shim + " libumockdev-preload.so.0")

    # Devices ------------------------------------------------------------------------------

    def add_camera(self, node, parent, properties, camera, minor, index=0, hotplug=False):
        """A video4linux node at /dev/<node> answered by `camera` (a v4l2_mock.Camera)."""
        syspath = "/sys/devices/%s/video4linux/%s" % (parent, node)
        lines = ["P: /devices/%s/video4linux/%s" % (parent, node), "N: %s" % node,
                 "E: DEVNAME=/dev/%s" % node, "E: SUBSYSTEM=video4linux"]
        lines += ["E: %s=%s" % item for item in properties.items()]
        lines += ["A: name=%s" % camera.card, "A: index=%d" % index, "A: dev=81:%d" % minor]
        self.testbed.add_from_string("\n".join(lines) + "\n")
        handler = v4l2_mock.Handler(camera)
        self.handlers.append(handler)
        assert self.testbed.attach_ioctl("/dev/" + node, handler)
        self.nodes[syspath] = "/dev/" + node
        if hotplug:
            # The "add" went out before the ioctl handler was attached: say it changed.
            self.testbed.uevent(syspath, "change")
        return syspath

    def add_iio(self, name, attributes, properties):
        attrs = ["name", name]
        for key, value in attributes.items():
            attrs += [key, str(value)]
        props = []
        for key, value in properties.items():
            props += [key, value]
        self.iio_count += 1
        return self.testbed.add_device("iio", "iio:device%d" % (self.iio_count - 1), None, attrs, props)

    def add_buffered_hinge(self, node, raw_type="le:s32/32>>0", properties=None):
        """An IIO hinge sensor with a buffer: /dev/<node> is a pty whose master end this process
        writes samples into (see write_samples). `properties`: extra udev properties."""
        syspath = "/sys/devices/platform/hinge-buffered/iio:%s" % node
        lines = ["P: /devices/platform/hinge-buffered/iio:%s" % node, "N: %s" % node,
                 "E: DEVNAME=/dev/%s" % node, "E: SUBSYSTEM=iio"]
        lines += ["E: %s=%s" % item for item in (properties or {}).items()]
        lines += [
                 "A: name=hinge", "A: dev=250:0", "A: in_angl0_raw=0", "A: in_angl0_scale=%r" % RADIANS_PER_DEGREE,
                 "A: scan_elements/in_angl0_en=0", "A: scan_elements/in_angl0_type=%s" % raw_type,
                 "A: scan_elements/in_timestamp_en=1", "A: buffer/enable=0", "A: buffer/length=2"]
        self.testbed.add_from_string("\n".join(lines) + "\n")
        import tty
        tty.setraw(self.testbed.get_dev_fd("/dev/" + node))
        return syspath

    def write_samples(self, node, data):
        os.write(self.testbed.get_dev_fd("/dev/" + node), data)

    def attribute(self, syspath, name):
        with open(self.testbed.get_root_dir() + syspath + "/" + name) as f:
            return f.read().strip()

    def add_switch(self, node, device):
        """An evdev switch device (evdev_mock.SwitchDevice) at /dev/input/<node>, as udev's
        input_id builtin describes one (ID_INPUT=1, ID_INPUT_SWITCH=1)."""
        import evdev_mock
        syspath = "/sys/devices/platform/switches/input/input9/%s" % node
        lines = ["P: /devices/platform/switches/input/input9/%s" % node, "N: input/%s" % node,
                 "E: DEVNAME=/dev/input/%s" % node, "E: SUBSYSTEM=input", "E: ID_INPUT=1", "E: ID_INPUT_SWITCH=1",
                 "A: dev=13:69"]
        self.testbed.add_from_string("\n".join(lines) + "\n")
        handler = evdev_mock.Handler(device)
        self.handlers.append(handler)
        assert self.testbed.attach_ioctl("/dev/input/" + node, handler)
        import tty
        tty.setraw(self.testbed.get_dev_fd("/dev/input/" + node))
        return syspath

    def write_input_events(self, node, data):
        os.write(self.testbed.get_dev_fd("/dev/input/" + node), data)

    def set_attribute(self, syspath, name, value):
        """Changes a value in the same file, as sysfs does: foldcamd keeps a polled attribute open
        and re-reads it (umockdev's own set_attribute puts a new file in its place). One write at
        offset 0, padded with spaces to the old length, so a read never sees it half done."""
        path = self.testbed.get_root_dir() + syspath + "/" + name
        fd = os.open(path, os.O_WRONLY)
        try:
            text = str(value).encode()
            os.pwrite(fd, text.ljust(os.fstat(fd).st_size), 0)
        finally:
            os.close(fd)

    def remove(self, syspath):
        """Unplugs a device: the "remove" uevent, then its sysfs directory and node go."""
        self.testbed.uevent(syspath, "remove")
        node = self.nodes.pop(syspath, None)
        if node:
            self.testbed.detach_ioctl(node)
        self.testbed.remove_device(syspath)

    # Running foldcam inside ---------------------------------------------------------------

    def turn(self, seconds=0.0):
        """Keeps the ioctl handlers answering for a while."""
        deadline = time.monotonic() + seconds
        while True:
            while self.context.iteration(False):
                pass
            if time.monotonic() >= deadline:
                return
            time.sleep(0.002)

    def run(self, arguments, timeout=30):
        """Runs foldcamd ARGUMENTS inside the testbed; returns (exit code, stdout, stderr)."""
        process = subprocess.Popen([self.foldcamd, *arguments], env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while process.poll() is None and time.monotonic() < deadline:
            self.turn(0.005)
        if process.poll() is None:
            process.kill()
        out, err = process.communicate()
        return process.returncode, out.decode(), err.decode()

    def probe(self, rig, extra=(), json_output=True):
        """`foldcamd --probe --rig RIG [--json]`: (parsed JSON or text, stderr, exit code)."""
        code, out, err = self.run(["--probe", "--rig", rig, *(["--json"] if json_output else []), *extra])
        return (json.loads(out or "null") if json_output else out), err, code

    def remove_node_file(self, node):
        """Leaves udev's record of /dev/<node> but removes the node itself, so opening it fails
        (ENOENT) as a node with the wrong permissions or a dead driver would."""
        self.testbed.detach_ioctl("/dev/" + node)
        os.unlink(self.testbed.get_root_dir() + "/dev/" + node)

    def start_daemon(self, config):
        return Daemon(self, config)


class Daemon:
    """foldcamd in hardware mode inside the testbed, with a notify socket and a client."""

    def __init__(self, bed, config):
        self.bed = bed
        self.dir = tempfile.mkdtemp(prefix="foldcam-umockdev-")
        config_path = os.path.join(self.dir, "foldcam.json")
        with open(config_path, "w") as f:
            json.dump(config, f)
        self.notify_path = os.path.join(self.dir, "notify")
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(self.notify_path)
        self.notify.setblocking(False)
        self.socket_path = os.path.join(self.dir, "foldcam.sock")
        env = dict(bed.env, NOTIFY_SOCKET=self.notify_path)
        self.stderr = open(os.path.join(self.dir, "stderr"), "w+")
        self.process = subprocess.Popen([bed.foldcamd, "--config", config_path, "--socket", self.socket_path, "--quiet"],
                                        env=env, stdout=subprocess.DEVNULL, stderr=self.stderr)
        self.client = None
        self.next_id = 1
        self.buffer = b""

    def wait_ready(self, timeout=30):
        """Returns the notify messages up to READY=1 (None if it never came)."""
        messages = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                message = self.notify.recv(4096).decode()
                messages.append(message)
                if "READY=1" in message.split("\n"):
                    return messages
            except BlockingIOError:
                self.bed.turn(0.01)
        return None

    def request(self, method, params=None, timeout=10):
        if self.client is None:
            self.client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.client.connect(self.socket_path)
            self.client.setblocking(False)
        request = {"id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.next_id += 1
        self.client.sendall((json.dumps(request) + "\n").encode())
        for reply in self._messages(time.monotonic() + timeout):
            if reply.get("id") == request["id"]:
                return reply.get("result", reply.get("error"))
        raise RuntimeError("no reply to %s" % method)

    def subscribe(self, topics, timeout=10):
        """Subscribes; returns {topic: value} from the events carrying each current value."""
        self.request("subscribe", {"topics": topics})
        values = {}
        for message in self._messages(time.monotonic() + timeout):
            if "event" in message:
                values[message["event"]] = message["data"]
                if len(values) == len(topics):
                    break
        return values

    def _messages(self, deadline):
        """The daemon's messages, one parsed line at a time, as they arrive until `deadline`."""
        while time.monotonic() < deadline:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                yield json.loads(line)
            try:
                chunk = self.client.recv(65536)
                if not chunk:
                    raise RuntimeError("daemon closed the connection")
                self.buffer += chunk
            except BlockingIOError:
                self.bed.turn(0.005)

    def eventually(self, method, predicate, timeout=10):
        """Asks until the answer satisfies `predicate`; returns the last answer."""
        deadline = time.monotonic() + timeout
        answer = None
        while time.monotonic() < deadline:
            answer = self.request(method)
            if predicate(answer):
                return answer
            self.bed.turn(0.05)
        return answer

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            deadline = time.monotonic() + 10
            while self.process.poll() is None and time.monotonic() < deadline:
                self.bed.turn(0.01)
            if self.process.poll() is None:
                self.process.kill()
        self.stderr.seek(0)
        log = self.stderr.read()
        self.stderr.close()
        self.notify.close()
        if self.client:
            self.client.close()
        shutil.rmtree(self.dir, ignore_errors=True)
        return self.process.returncode, log
