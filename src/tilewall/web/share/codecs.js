// How the share page encodes (sender.js): WebCodecs H.264 in Annex B, in real-time mode,
// at a bit rate that fits the picture; and one encoded frame as the host's ingest takes
// it (docs/share.md, "On the wire").

/** H.264 profiles to try, best first: High, Main, Constrained Baseline (level 5.1). */
const H264 = ["avc1.640033", "avc1.4d0033", "avc1.42e033"];
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
 * The first encoder configuration this browser supports for the picture. Real-time mode:
 * each frame is put out as soon as it is encoded, never held back to look ahead.
 * @param {number} width
 * @param {number} height
 * @param {number} fps
 * @returns {Promise<VideoEncoderConfig>}
 */
export async function supportedConfig(width, height, fps) {
  for (const codec of H264) {
    /** @type {VideoEncoderConfig} */
    const config = {
      codec,
      width,
      height,
      bitrate: bitrateFor(width, height, fps),
      framerate: fps,
      latencyMode: "realtime",
      hardwareAcceleration: "no-preference",
      avc: { format: "annexb" },
    };
    const { supported } = await VideoEncoder.isConfigSupported(config);
    if (supported) return config;
  }
  throw new Error("this browser cannot encode H.264 (WebCodecs)");
}
