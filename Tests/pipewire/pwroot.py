#!/usr/bin/env python3
"""Which PipeWire the PipeWire tests run (docs/testing.md): the host's, or the one unpacked by
Tests/pipewire/backports-root into $FOLDCAM_PIPEWIRE_ROOT (bookworm-backports' 1.4 and
WirePlumber 0.5), run from there with the host's own packages untouched."""

import os
import re
import subprocess

ROOT = os.environ.get("FOLDCAM_PIPEWIRE_ROOT") or None
ARCH = "x86_64-linux-gnu"


def environment(root=ROOT, base=None):
    """`base` (os.environ by default) changed to run PipeWire, WirePlumber, their tools and
    GStreamer's PipeWire plugin from `root`; `base` unchanged when root is None."""
    env = dict(os.environ if base is None else base)
    if not root:
        return env
    lib = os.path.join(root, "usr/lib", ARCH)
    share = os.path.join(root, "usr/share")

    def prepend(name, value, default=""):
        rest = env.get(name) or default
        env[name] = value + (":" + rest if rest else "")

    prepend("PATH", os.path.join(root, "usr/bin"))
    # libpipewire-0.3.so.0 and libwireplumber-0.5.so.0 for everything started from here: the
    # daemons, pw-dump, GStreamer's plugin, and the companion, which links the same soname.
    prepend("LD_LIBRARY_PATH", lib)
    env["SPA_PLUGIN_DIR"] = os.path.join(lib, "spa-0.2")
    env["SPA_DATA_DIR"] = os.path.join(share, "spa-0.2")
    env["PIPEWIRE_MODULE_DIR"] = os.path.join(lib, "pipewire-0.3")
    # pipewire.conf and client.conf: the root's alone (the host's are 0.3.65's).
    env["PIPEWIRE_CONFIG_DIR"] = os.path.join(share, "pipewire")
    env["WIREPLUMBER_MODULE_DIR"] = os.path.join(lib, "wireplumber-0.5")
    # Scripts from the root only. wireplumber.conf is looked up in $XDG_CONFIG_HOME/wireplumber,
    # /etc/wireplumber, then $XDG_DATA_DIRS/wireplumber: the root first there, so its
    # wireplumber.conf wins over 0.4's in /usr/share, and the wireplumber.conf.d fragments of
    # every directory (the user's, a package's in /usr/share) are read as an installed 0.5
    # reads them (WIREPLUMBER_CONFIG_DIR would replace that search).
    env["WIREPLUMBER_DATA_DIR"] = os.path.join(share, "wireplumber")
    prepend("XDG_DATA_DIRS", share, "/usr/local/share:/usr/share")
    # libcamera 0.3's pipeline handlers' IPA modules and proxies, when the root has them
    # (FOLDCAM_BACKPORTS_EXTRA=pipewire-libcamera): libcamera looks in its build's paths otherwise,
    # where the host's 0.0.3 modules are.
    if os.path.isdir(os.path.join(lib, "libcamera")):
        env["LIBCAMERA_IPA_MODULE_PATH"] = env["LIBCAMERA_IPA_PROXY_PATH"] = os.path.join(lib, "libcamera")
        env["LIBCAMERA_IPA_CONFIG_PATH"] = os.path.join(share, "libcamera/ipa")
    # GST_PLUGIN_PATH is scanned before the system path: its libgstpipewire.so is the one used.
    prepend("GST_PLUGIN_PATH", os.path.join(lib, "gstreamer-1.0"))
    return env


def versions(env):
    """(PipeWire's version, WirePlumber's version) of the programs `env` runs."""
    def version(argv, pattern):
        try:
            out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            return None
        match = re.search(pattern, out)
        return match.group(1) if match else None
    return (version(["pipewire", "--version"], r"Linked with libpipewire (\S+)"),
            version(["wireplumber", "--version"], r"Linked with libwireplumber (\S+)"))


if __name__ == "__main__":
    # `pwroot.py ROOT`: the variables environment(ROOT) changes, one NAME=VALUE a line, for
    # `env` (the e2e guest's checks, which get the root from Tests/e2e/run's share).
    import sys
    if len(sys.argv) != 2 or not os.path.isdir(os.path.join(sys.argv[1], "usr/lib", ARCH)):
        sys.exit("usage: Tests/pipewire/pwroot.py ROOT (a root unpacked by Tests/pipewire/backports-root)")
    changed = environment(sys.argv[1])
    for name in sorted(changed):
        if os.environ.get(name) != changed[name]:
            print("%s=%s" % (name, changed[name]))
