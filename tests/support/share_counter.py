"""A page to share: the frame-numbered pattern of ``tests.support.framecode`` drawn by the
browser on a canvas, the number of the frame due now on every animation frame, so that a
receiver's screenshot of a shared tab tells which frame of it is shown (and so how long
after it was drawn), and which part of the picture a tile shows. Open it in the browser
that shares (``page.set_content(counter_page(pattern))``); Chromium started with
``--auto-select-tab-capture-source-by-title=`` :data:`TITLE` shares it."""

from __future__ import annotations

import json

from tests.support.framecode import BAND, GAP, MARKER, STRIP, TINT, WRAP, Pattern

TITLE = "Frame counter"

_SCRIPT = """
const P = %(pattern)s;
const canvas = document.getElementById("c");
const g = canvas.getContext("2d", { alpha: false });
function check(bits) {
  let total = 0;
  bits.forEach((bit, i) => { total += bit * ((i %% 6) + 1); });
  total %%= 7;
  return [(total >> 2) & 1, (total >> 1) & 1, total & 1];
}
function strip(index, byte) {
  let bits = [index];
  for (let i = 0; i < 8; i++) bits.push((byte >> (7 - i)) & 1);
  bits = bits.concat(check(bits));
  let out = Array(P.gap).fill(false).concat(Array(P.marker).fill(true), [false, true]);
  for (const bit of bits) out = out.concat(bit ? [true, false] : [false, true]);
  return out;
}
function draw(number) {
  const m = P.module;
  g.fillStyle = "#fff";
  g.fillRect(0, 0, P.width, P.height);
  for (let band = 0, top = 0; top < P.height; band++, top += P.band * m) {
    const bottom = Math.min(top + P.band * m, P.height);
    const byte = band %% 2 === 0 ? (number >> 8) & 0xff : number & 0xff;
    const modules = strip(band %% 2, byte);
    const b = Math.round(P.tint * ((top + bottom) / 2) / P.height);
    for (let x = 0, k = (band * 11) %% P.strip; x < P.width; x += m, k++) {
      if (modules[k %% P.strip]) continue;
      g.fillStyle = `rgb(${Math.round(P.tint * (x + m / 2) / P.width)},0,${b})`;
      g.fillRect(x, top, Math.min(m, P.width - x), bottom - top);
    }
  }
}
let shown = -1;
function tick() {
  const number = Math.floor((Date.now() / 1000 - P.origin) * P.fps) %% P.wrap;
  if (number !== shown) { draw(number); shown = number; }
  requestAnimationFrame(tick);
}
tick();
"""


def counter_page(pattern: Pattern) -> str:
    """The page's HTML (inline: it is set as a page's content, under no policy)."""
    settings = {
        "width": pattern.width,
        "height": pattern.height,
        "fps": pattern.fps,
        "origin": pattern.origin,
        "module": pattern.module,
        "band": BAND,
        "gap": GAP,
        "marker": MARKER,
        "strip": STRIP,
        "tint": TINT,
        "wrap": WRAP,
    }
    script = _SCRIPT % {"pattern": json.dumps(settings)}
    return (
        f"<!doctype html><html><head><title>{TITLE}</title>"
        "<style>html,body{margin:0;background:#fff;overflow:hidden}</style></head>"
        f'<body><canvas id="c" width="{pattern.width}" height="{pattern.height}"></canvas>'
        f"<script>{script}</script></body></html>"
    )
