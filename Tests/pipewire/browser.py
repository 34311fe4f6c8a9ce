"""Chromium's side of Tests/pipewire/chromium: docs/kiosk.md's page with the e2e tier's probe,
and a headless Chromium on it whose console (the probe's lines) is read from its log.
"""
import os, re, signal, subprocess, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def write_page(work):
    """docs/kiosk.md's page (its LABEL "foldcam" matches the node's description, "foldcam
    camera"), with the e2e tier's probe and a line listing the cameras once a stream is open."""
    with open(os.path.join(ROOT, "docs/kiosk.md")) as f:
        pages = re.findall(r"```html\n(.*?)```", f.read(), re.S)
    with open(os.path.join(ROOT, "Tests/e2e/tools/chromium-probe.js")) as f:
        probe = f.read()
    listing = """(async () => {
  const video = document.getElementById("camera");
  while (!video.srcObject) await new Promise((resolve) => setTimeout(resolve, 50));
  const cameras = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === "videoinput");
  console.log(`e2e ${Date.now()} devices ${JSON.stringify(cameras.map((d) => d.label))}`);
})();
"""
    if len(pages) != 1 or "</body>" not in pages[0]:
        return None
    path = os.path.join(work, "kiosk.html")
    with open(path, "w") as f:
        f.write(pages[0].replace("</body>", "<script>\n" + probe + listing + "</script>\n</body>"))
    return path


class Browser:
    """One headless Chromium on the page, its console read from its log."""

    def __init__(self, s, name, page):
        self.s, self.name = s, name
        self.started = time.time()
        profile = os.path.join(s.work, name + "-profile")
        self.process = s.start(name, [
            "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-extensions", "--mute-audio",
            "--disable-features=OptimizationHints,OptimizationGuideModelDownloading,Translate,MediaRouter",
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            "--enable-features=WebRtcPipeWireCamera", "--use-fake-ui-for-media-stream",
            "--autoplay-policy=no-user-gesture-required", "--enable-logging=stderr", "--v=0",
            "--user-data-dir=" + profile, "file://" + page], stdout=subprocess.DEVNULL, start_new_session=True)

    def lines(self):
        """The page's probe lines, (milliseconds, text)."""
        return [(int(m.group(1)), m.group(2)) for m in re.finditer(r'CONSOLE.*?"e2e (\d+) (.*)", source:', self.s.log(self.name))]

    def error(self):
        match = re.search(r'CONSOLE.*?"(foldcam: .*)", source:', self.s.log(self.name))
        return match.group(1) if match else None

    def colour(self, since=0):
        """The latest colour line after `since` (ms): (ms, colour name)."""
        shown = [(ms, text.split()[1]) for ms, text in self.lines() if ms > since and text.startswith("colour ")]
        return shown[-1] if shown else None

    def shown(self, wanted, since=0):
        """The time (ms) of the first probe line after `since` showing `wanted`, or None."""
        return next((ms for ms, text in self.lines() if ms > since and text.startswith("colour %s " % wanted)), None)

    def wait_colour(self, wanted, since, timeout=30):
        """The time (ms) of the first frame showing `wanted` after `since`, or None."""
        return self.s.wait_for(lambda: self.shown(wanted, since) or self.process.poll() is not None, timeout) and self.shown(wanted, since)

    def log_lines(self, pattern):
        """Chromium's own log lines (not the page's) matching `pattern`."""
        return [line for line in self.s.log(self.name).splitlines() if "CONSOLE" not in line and re.search(pattern, line)]

    def close(self):
        # Chromium runs in its own process group: its helpers go with it.
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
