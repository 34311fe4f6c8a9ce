// Appended to docs/kiosk.md's web page by checks/91-chromium.sh: reports, as console lines
// Chromium writes to stderr, the track the page opened, its events, and every 250 ms the colour
// of the track's newest frame at its centre, with how many frames the track has delivered so far.
// Frames are read from a clone of the page's track (MediaStreamTrackProcessor), not drawn from
// the <video> element: the guest has no GPU, and what is checked is what the track delivers.
(() => {
  // BT.601 limited range, as Tests/e2e/tools/frame-colours names them.
  const COLOURS = { black: [16, 128, 128], white: [235, 128, 128], red: [81, 90, 240], green: [145, 54, 34],
    blue: [41, 240, 110], yellow: [210, 16, 146], cyan: [170, 166, 16], magenta: [106, 202, 222] };
  const nearest = (y, u, v) => {
    let best = "other", distance = 30;
    for (const [name, [Y, U, V]] of Object.entries(COLOURS)) {
      const d = Math.hypot(y - Y, u - U, v - V);
      if (d < distance) { best = name; distance = d; }
    }
    return best;
  };
  const say = (text) => console.log(`e2e ${Date.now()} ${text}`);
  const video = document.getElementById("camera");
  let frames = 0, latest = null, failure = null;

  // The mean Y, U, V of a 32x32 block at the centre of a VideoFrame in I420 or NV12.
  async function centre(frame) {
    const buffer = new Uint8Array(frame.allocationSize());
    const planes = await frame.copyTo(buffer);
    const cx = frame.visibleRect.x + (frame.visibleRect.width >> 1), cy = frame.visibleRect.y + (frame.visibleRect.height >> 1);
    const at = (plane, column, row) => buffer[planes[plane].offset + row * planes[plane].stride + column];
    let y = 0, u = 0, v = 0, n = 0;
    for (let row = cy - 16; row < cy + 16; row += 2) {
      for (let column = cx - 16; column < cx + 16; column += 2) {
        y += at(0, column, row);
        const c = column >> 1, r = row >> 1;
        if (frame.format === "NV12") { u += at(1, c * 2, r); v += at(1, c * 2 + 1, r); }
        else if (frame.format === "I420" || frame.format === "I420A") { u += at(1, c, r); v += at(2, c, r); }
        else throw new Error(`frame format ${frame.format}`);
        n++;
      }
    }
    return [Math.round(y / n), Math.round(u / n), Math.round(v / n)];
  }

  async function read(track) {
    const reader = new MediaStreamTrackProcessor({ track }).readable.getReader();
    for (;;) {
      const { value: frame, done } = await reader.read();
      if (done) return say("track-frames-ended");
      frames++;
      if (frames === 1) say(`frames ${frame.format} ${frame.codedWidth}x${frame.codedHeight}`);
      try {
        if (frames % 5 === 0 || !latest) latest = await centre(frame);
      } catch (error) {
        failure = error.message;
      } finally {
        frame.close();
      }
    }
  }

  const attach = () => {
    const track = video.srcObject && video.srcObject.getVideoTracks()[0];
    if (!track) return setTimeout(attach, 50);
    const s = track.getSettings();
    say(`track "${track.label}" ${s.width}x${s.height} ${s.frameRate}`);
    for (const event of ["ended", "mute", "unmute"]) track.addEventListener(event, () => say(`track-${event}`));
    read(track.clone()).catch((error) => say(`probe-error ${error.message}`));
    setInterval(() => {
      if (failure) say(`probe-error ${failure}`);
      if (!latest) return say(`waiting frames ${frames} track ${track.readyState}`);
      const [y, u, v] = latest;
      say(`colour ${nearest(y, u, v)} ${y} ${u} ${v} frames ${frames} track ${track.readyState}${track.muted ? " muted" : ""}`);
    }, 250);
  };
  attach();
})();
