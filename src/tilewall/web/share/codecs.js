// How the share page encodes (sender.js): WebCodecs H.264 in Annex B, or VP9 where the
// browser cannot encode H.264, in real-time mode, at a bit rate that fits the picture;
// and one encoded frame as the host's ingest takes it (docs/share.md, "On the wire").

/** H.264 profiles to try, best first: High, Main, Constrained Baseline (level 5.1). */
const H264 = ["avc1.640033", "avc1.4d0033", "avc1.42e033"];
/** VP9 when no H.264 encoder is offered: profile 0 (4:2:0), level 5, 8 bits. */
const VP9 = "vp09.00.50.08";
const MAX_SIDE = 1920;

/**
 * Bits per second that fit a picture: about 0.08 bits a pixel a frame, within 0.5-8 Mb/s.
 * @param {number} width
 * @param {number} height
 * @param {number} fps
 */
export function bitrateFor(width, height, fps) {
  return Math.round(Math.min(8e6, Math.max(5e5, width * height * fps * 0.08)));
}

/**
 * The encoded size of a captured picture: at most MAX_SIDE on its longer side, even.
 * @param {number} width
 * @param {number} height
 */
export function encodedSize(width, height) {
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  return { width: Math.max(16, Math.round((width * scale) / 2) * 2), height: Math.max(16, Math.round((height * scale) / 2) * 2) };
}

/**
 * One encoded frame as the ingest takes it: 1 byte of flags (bit 0: key frame), the
 * capture timestamp in microseconds (float64, big-endian), the frame.
 * @param {EncodedVideoChunk} chunk
 */
export function message(chunk) {
  const out = new Uint8Array(9 + chunk.byteLength);
  const view = new DataView(out.buffer);
  view.setUint8(0, chunk.type === "key" ? 1 : 0);
  view.setFloat64(1, chunk.timestamp, false);
  chunk.copyTo(out.subarray(9));
  return out;
}

/**
 * The encoder configurations to try for a picture, best first: H.264's profiles, then VP9.
 * Real-time mode: each frame is put out as soon as it is encoded, never held back to
 * look ahead.
 * @param {number} width
 * @param {number} height
 * @param {number} fps
 * @returns {VideoEncoderConfig[]}
 */
export function configsFor(width, height, fps) {
  const common = { width, height, bitrate: bitrateFor(width, height, fps), framerate: fps, latencyMode: /** @type {LatencyMode} */ ("realtime") };
  /** @type {VideoEncoderConfig[]} */
  const h264 = H264.map((codec) => ({ ...common, codec, hardwareAcceleration: "no-preference", avc: { format: "annexb" } }));
  return [...h264, { ...common, codec: VP9 }];
}

/**
 * The first encoder configuration this browser supports for the picture.
 * @param {number} width
 * @param {number} height
 * @param {number} fps
 * @returns {Promise<VideoEncoderConfig>}
 */
export async function supportedConfig(width, height, fps) {
  for (const config of configsFor(width, height, fps)) {
    const { supported } = await VideoEncoder.isConfigSupported(config);
    if (supported) return config;
  }
  throw new Error("this browser can encode neither H.264 nor VP9 (WebCodecs)");
}
