"""A private PipeWire session for the host tiers of Tests/pipewire (docs/pipewire.md#tests).

Its own session bus (the calling script re-runs itself under dbus-run-session), runtime,
configuration and data directories; PipeWire and WirePlumber; GStreamer solid-colour test
sources published as camera nodes; foldcamd --simulate with the duo rig whose two front cameras
match those nodes; the companion. Everything it starts is stopped, and its directory removed, by
close(); the directory, with every process's log, is removed afterwards unless FOLDCAM_TEST_KEEP
is set.
"""
import json, os, shutil, signal, socket, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WIDTH, HEIGHT = 640, 480
# The test cameras: the inner display's front camera is red, the outer one's blue (ARGB).
COLOURS = {"inner": "0xffff0000", "outer": "0xff0000ff"}


def enter_bus(script, arguments):
    """Re-runs `script` under its own dbus-run-session, once, in a fresh work directory. The
    directories are set before the bus starts: services the bus activates (the permission store,
    the portal) take the bus's environment, and must not write to the user's own."""
    if os.environ.get("FOLDCAM_PIPEWIRE_WORK"):
        return os.environ["FOLDCAM_PIPEWIRE_WORK"]
    work = tempfile.mkdtemp(prefix="foldcam-pipewire-")
    os.chmod(work, 0o755)  # a compositor run as nobody reads its configuration here
    for name, mode in (("run", 0o700), ("home", 0o700), ("config", 0o755), ("data", 0o755), ("cache", 0o700)):
        os.mkdir(os.path.join(work, name), mode)
    os.environ.update(FOLDCAM_PIPEWIRE_WORK=work, HOME=os.path.join(work, "home"),
                      XDG_RUNTIME_DIR=os.path.join(work, "run"), PIPEWIRE_RUNTIME_DIR=os.path.join(work, "run"),
                      XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_DATA_HOME=os.path.join(work, "data"),
                      XDG_CACHE_HOME=os.path.join(work, "cache"), XDG_STATE_HOME=os.path.join(work, "data"),
                      GST_REGISTRY=os.path.join(work, "gst.bin"))
    for name in ("PIPEWIRE_REMOTE", "WAYLAND_DISPLAY", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_CURRENT_DESKTOP"):
        os.environ.pop(name, None)
    # Services the bus would start that nothing here needs: the document portal (a FUSE mount in
    # the runtime directory, which outlives the bus for a moment and then cannot be removed) and
    # GTK's accessibility bus. The bus reads services in XDG_DATA_HOME first.
    os.environ["NO_AT_BRIDGE"] = "1"
    services = os.path.join(work, "data", "dbus-1", "services")
    os.makedirs(services)
    with open(os.path.join(services, "org.freedesktop.portal.Documents.service"), "w") as f:
        f.write("[D-BUS Service]\nName=org.freedesktop.portal.Documents\nExec=/bin/false\n")
    try:
        status = subprocess.run(["dbus-run-session", "--", sys.executable, script] + arguments).returncode
    finally:
        if os.environ.get("FOLDCAM_TEST_KEEP"):
            print("logs kept in " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(status)


class Session:
    def __init__(self, build, work):
        self.build, self.work = build, work
        self.runtime = os.environ["XDG_RUNTIME_DIR"]
        self.env = dict(os.environ)
        self.processes = []
        self.socket = os.path.join(work, "foldcam.sock")
        # WirePlumber 0.4 exits at start where systemd-logind does not run (a CI container): its
        # logind plugin, which only the Bluetooth monitor loads, fails. Bluetooth without it.
        lua = os.path.join(self.env["XDG_CONFIG_HOME"], "wireplumber/bluetooth.lua.d")
        os.makedirs(lua, exist_ok=True)
        with open(os.path.join(lua, "51-foldcam-test-no-logind.lua"), "w") as f:
            f.write('bluez_monitor.properties["with-logind"] = false\n')

    def start(self, name, argv, env=None, **kwargs):
        log = open(os.path.join(self.work, name + ".log"), "wb")
        process = subprocess.Popen(argv, stdout=kwargs.pop("stdout", log), stderr=log, env=env or self.env, **kwargs)
        self.processes.append((name, process))
        return process

    def stop(self, process):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def log(self, name):
        with open(os.path.join(self.work, name + ".log"), "rb") as f:
            return f.read().decode(errors="replace")

    def close(self, show_logs):
        for _, process in reversed(self.processes):
            self.stop(process)
        if show_logs:
            for name, _ in self.processes:
                text = self.log(name)
                if text.strip():
                    print("--- %s.log (last lines)" % name)
                    print("\n".join(text.splitlines()[-40:]))

    @staticmethod
    def wait_for(condition, timeout=15):
        """Polls a condition of another process's state (a graph, a socket) until it holds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = condition()
            if value:
                return value
            time.sleep(0.05)
        return None

    def dump(self):
        try:
            return json.loads(subprocess.run(["pw-dump"], env=self.env, capture_output=True, timeout=10).stdout or b"[]")
        except (json.JSONDecodeError, subprocess.TimeoutExpired):
            return []

    @staticmethod
    def node(objects, name):
        for o in objects:
            if o.get("type") == "PipeWire:Interface:Node" and ((o.get("info") or {}).get("props") or {}).get("node.name") == name:
                return o
        return None

    def start_pipewire(self, wireplumber_env=None):
        self.start("pipewire", ["pipewire"])
        ready = self.wait_for(lambda: os.path.exists(os.path.join(self.runtime, "pipewire-0")))
        self.start("wireplumber", ["wireplumber"], env=dict(self.env, **(wireplumber_env or {})))
        return ready

    def start_source(self, name, colour=None, role="Camera"):
        """A solid-colour video source node, test-cam-NAME, in `colour` (ARGB; COLOURS[name] by
        default), a camera node unless `role` is None."""
        return self.start("source-" + name, [
            "gst-launch-1.0", "-q", "videotestsrc", "is-live=true", "pattern=solid-color", "foreground-color=" + (colour or COLOURS[name]),
            "!", "video/x-raw,format=YUY2,width=%d,height=%d,framerate=30/1" % (WIDTH, HEIGHT),
            "!", "pipewiresink", "mode=provide",
            "stream-properties=props,media.class=Video/Source,%snode.name=test-cam-%s,node.description=Test_%s" % ("media.role=%s," % role if role else "", name, name)])

    def serves(self, target):
        """Whether a pipewiresrc reads a buffer of `target` within 5 s: tells a test source that
        stopped serving from a failure of the companion."""
        try:
            return subprocess.run(["gst-launch-1.0", "-q", "pipewiresrc", "target-object=" + target, "num-buffers=1", "!", "video/x-raw", "!", "fakesink"],
                                  env=self.env, capture_output=True, timeout=5).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def write_rig(self):
        """The duo rig at one mode, its front cameras matched to the test sources by node name."""
        with open(os.path.join(ROOT, "Sources/FoldcamCore/Presets/duo.json")) as f:
            rig = json.load(f)
        for camera in rig["cameras"]:
            camera["formats"] = [{"pixelFormats": ["YUYV"], "width": WIDTH, "height": HEIGHT, "fps": 30}]
            if camera["id"] in ("inner-front", "outer-front"):
                camera["pipewire"] = {"nodeName": "test-cam-" + camera["id"].split("-")[0]}
        path = os.path.join(self.work, "rig.json")
        with open(path, "w") as f:
            json.dump(rig, f)
        return path

    def start_foldcam(self, rig):
        """foldcamd --simulate and the companion, both with `rig`."""
        daemon = self.start("foldcamd", [os.path.join(self.build, "foldcamd"), "--simulate", "--rig", rig, "--socket", self.socket, "--quiet"])
        self.wait_for(lambda: os.path.exists(self.socket))
        companion = self.start("companion", [os.path.join(self.build, "foldcam-pipewire"), "--rig", rig, "--socket", self.socket])
        return daemon, companion

    def request(self, method, params):
        """One request on foldcamd's socket; its reply."""
        connection = socket.socket(socket.AF_UNIX)
        connection.connect(self.socket)
        try:
            connection.sendall((json.dumps({"id": 1, "method": method, "params": params}) + "\n").encode())
            reply = b""
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    return {}
                reply += chunk
                for line in reply.split(b"\n")[:-1]:  # the complete lines
                    message = json.loads(line)
                    if message.get("id") == 1:
                        return message
        finally:
            connection.close()
