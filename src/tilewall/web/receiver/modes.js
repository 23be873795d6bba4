// The screen sizes a receiver offers in its hello: the page renders a stage of any size
// and scales it to the window, so besides the screen's own size it offers the usual
// display modes (landscape and portrait).

const MODES = [
  [3840, 2160], [2560, 1440], [1920, 1200], [1920, 1080], [1680, 1050], [1600, 900],
  [1366, 768], [1280, 1024], [1280, 800], [1280, 720], [1024, 768], [800, 600],
  [2160, 3840], [1440, 2560], [1200, 1920], [1080, 1920], [720, 1280],
];

/** The screen's own size in device pixels, and every size offered (its own first, each once). */
export function screenModes() {
  const dpr = devicePixelRatio || 1;
  const own = { width: Math.max(1, Math.round(screen.width * dpr)), height: Math.max(1, Math.round(screen.height * dpr)) };
  const seen = new Set();
  const list = [];
  for (const [width, height] of [[own.width, own.height], ...MODES]) {
    const key = `${width}x${height}`;
    if (!seen.has(key)) {
      seen.add(key);
      list.push({ width, height });
    }
  }
  return { screen: own, resolutions: list };
}
