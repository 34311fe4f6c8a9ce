// Appended to docs/kiosk.md's web page by checks/91-chromium.sh: reports, as console lines
// Chromium writes to stderr, the track the page opened, its events, and every 250 ms the colour
// at the centre of the video element, with how many frames the page has shown so far.
(() => {
  const COLOURS = { black: [0, 0, 0], white: [255, 255, 255], red: [255, 0, 0], green: [0, 255, 0],
    blue: [0, 0, 255], yellow: [255, 255, 0], cyan: [0, 255, 255], magenta: [255, 0, 255] };
  const nearest = (r, g, b) => {
    let best = "other", distance = 90;
    for (const [name, [R, G, B]] of Object.entries(COLOURS)) {
      const d = Math.hypot(r - R, g - G, b - B);
      if (d < distance) { best = name; distance = d; }
    }
    return best;
  };
  const video = document.getElementById("camera");
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 8;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  const say = (text) => console.log(`e2e ${Date.now()} ${text}`);
  let frames = 0;
  const count = () => { frames++; video.requestVideoFrameCallback(count); };
  const attach = () => {
    const track = video.srcObject && video.srcObject.getVideoTracks()[0];
    if (!track) return setTimeout(attach, 50);
    const s = track.getSettings();
    say(`track "${track.label}" ${s.width}x${s.height} ${s.frameRate}`);
    for (const event of ["ended", "mute", "unmute"]) track.addEventListener(event, () => say(`track-${event}`));
    video.requestVideoFrameCallback(count);
    setInterval(() => {
      if (video.readyState < 2) return say(`waiting readyState ${video.readyState} track ${track.readyState}`);
      context.drawImage(video, 0, 0, 8, 8);
      const [r, g, b] = context.getImageData(4, 4, 1, 1).data;
      say(`colour ${nearest(r, g, b)} ${r} ${g} ${b} frames ${frames} track ${track.readyState}${track.muted ? " muted" : ""}`);
    }, 250);
  };
  attach();
})();
