"""The Camera portal's side of Tests/pipewire/chromium: the portal's and the permission store's
D-Bus calls (gdbus), the compositor its GTK backend needs, what dbus-monitor saw of Chromium's
calls, and when WirePlumber granted a portal client the camera nodes. Each function takes the
Session (session.py) it works in.
"""
import collections, os, re, subprocess


def gdbus(s, *args):
    """A gdbus call on the session bus; its output or error."""
    done = subprocess.run(["gdbus", "call", "--session"] + list(args), env=s.env, capture_output=True, text=True, timeout=10)
    return (done.stdout + done.stderr).strip()


def camera_present(s):
    """The portal's IsCameraPresent, or its error."""
    return gdbus(s, "-d", "org.freedesktop.portal.Desktop", "-o", "/org/freedesktop/portal/desktop",
                 "-m", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.portal.Camera", "IsCameraPresent")


def set_camera_permission(s, value):
    """What the user's answer to the portal's dialog stores: the camera for host applications
    (app id "") allowed ("yes") or not ("no")."""
    return gdbus(s, "-d", "org.freedesktop.impl.portal.PermissionStore", "-o", "/org/freedesktop/impl/portal/PermissionStore",
                 "-m", "org.freedesktop.impl.portal.PermissionStore.SetPermission", "devices", "true", "camera", "", "['%s']" % value)


def start_compositor(s):
    """sway's headless backend, for the portal's GTK backend; its Wayland socket. sway refuses
    to run as root: as root it runs as nobody."""
    runtime = os.path.join(s.work, "sway-run")
    os.mkdir(runtime, 0o700)
    config = os.path.join(s.work, "sway.config")
    open(config, "w").close()
    os.chmod(config, 0o644)
    as_user = []
    if os.geteuid() == 0:
        os.chown(runtime, 65534, 65534)
        as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    env = {"PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "HOME": runtime, "WLR_BACKENDS": "headless",
           "WLR_HEADLESS_OUTPUTS": "1", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"}
    s.start("sway", as_user + ["sway", "-c", config], env=env)
    found = s.wait_for(lambda: [f for f in os.listdir(runtime) if f.startswith("wayland-") and not f.endswith(".lock")])
    return os.path.join(runtime, found[0]) if found else None


def bus_messages(s):
    """dbus-monitor's log as (header, arguments) pairs."""
    messages = []
    for line in s.log("dbus-monitor").splitlines():
        if line and not line[0].isspace():
            messages.append([line, ""])
        elif messages:
            messages[-1][1] += line.strip() + "\n"
    return messages


def field(header, name):
    match = re.search(r"\b%s=([^ ;]+)" % name, header)
    return match.group(1) if match else None


Call = collections.namedtuple("Call", "member sender reply answer answered_at")


def portal_calls(s):
    """Each Camera method called on the portal, as dbus-monitor saw it (s.log("dbus-monitor")):
    its member, sender, the reply or error, the Response answer for AccessCamera, and when the
    portal replied (epoch seconds)."""
    messages = bus_messages(s)
    calls = []
    for header, _ in messages:
        if header.startswith("method call") and "interface=org.freedesktop.portal.Camera;" in header:
            member, sender, serial = field(header, "member"), field(header, "sender"), field(header, "serial")
            replied = next(((h, a) for h, a in messages
                            if h.startswith(("method return", "error")) and field(h, "destination") == sender and field(h, "reply_serial") == serial), None)
            reply = "%s %s" % (replied[0].split(" time=")[0], replied[1].strip().replace("\n", " ")) if replied else None
            answer = None
            if member == "AccessCamera" and reply and reply.startswith("method return"):
                handle = re.search(r'object path "([^"]+)"', reply)
                answer = next((a.split()[1] for h, a in messages if handle and "member=Response" in h and field(h, "path") == handle.group(1)), None)
            calls.append(Call(member, sender, reply, answer, float(field(replied[0], "time")) if replied else None))
    return calls


def seconds_of_day(epoch):
    return epoch % 86400


def grants(s):
    """When WirePlumber granted a portal client the camera nodes, in seconds of the (UTC) day."""
    found = re.findall(r"^I (\d\d):(\d\d):(\d\d\.\d+) .*Granting ALL access to client", s.log("wireplumber"), re.M)
    return [int(h) * 3600 + int(m) * 60 + float(sec) for h, m, sec in found]


def sender_process(s, name):
    """The command line of the process behind a bus name, while it runs."""
    match = re.search(r"uint32 (\d+)", gdbus(s, "-d", "org.freedesktop.DBus", "-o", "/org/freedesktop/DBus",
                                              "-m", "org.freedesktop.DBus.GetConnectionUnixProcessID", name))
    try:
        with open("/proc/%s/cmdline" % match.group(1), "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except (AttributeError, OSError):
        return ""
