// A screen, window or tab captured with getDisplayMedia, encoded with WebCodecs
// (H.264, Annex B) and sent to the host's ingest WebSocket (docs/share.md, "On the wire"):
// a config message with the picture's size, then one binary message a frame: 1 byte of
// flags (bit 0: key frame), the capture timestamp in microseconds (float64, big-endian),
// the access unit. A key frame every KEY_EVERY_MS and whenever the host asks for one.

/** H.264 profiles to try, best first: High, Main, Constrained Baseline (level 5.1). */
const CODECS = ["avc1.640033", "avc1.4d0033", "avc1.42e033"];
export const KEY_EVERY_MS = 3000;
/** A picture that did not change is sent again after this long (receivers mark a tile
 * "no signal" after a second without frames; a screen sends frames only as it changes). */
const REPEAT_MS = 400;
/** Frames are dropped while the connection has this much to send (a slow network). */
const BUFFERED_LIMIT = 2 * 1024 * 1024;
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
 * One encoded frame as the ingest takes it.
 * @param {EncodedVideoChunk} chunk
 */
function message(chunk) {
  const out = new Uint8Array(9 + chunk.byteLength);
  const view = new DataView(out.buffer);
  view.setUint8(0, chunk.type === "key" ? 1 : 0);
  view.setFloat64(1, chunk.timestamp, false);
  chunk.copyTo(out.subarray(9));
  return out;
}

/**
 * The first H.264 encoder configuration this browser supports for the picture.
 * @param {number} width
 * @param {number} height
 * @param {number} fps
 * @returns {Promise<VideoEncoderConfig>}
 */
async function supportedConfig(width, height, fps) {
  for (const codec of CODECS) {
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

/** Why sharing cannot start in this browser, or "" when it can. */
export function missing() {
  if (!window.isSecureContext) return "Sharing needs a secure page: open it over HTTPS, or as localhost on the host itself.";
  if (!navigator.mediaDevices || !navigator.mediaDevices.getDisplayMedia) return "This browser cannot share a screen (getDisplayMedia).";
  if (typeof VideoEncoder === "undefined" || typeof MediaStreamTrackProcessor === "undefined") {
    return "This browser cannot encode video (WebCodecs): use a recent Chrome, Chromium or Edge.";
  }
  return "";
}

/**
 * A share in progress: the capture, the encoder and the connection.
 * `onEnd(reason)` is called once, when it ends for any reason.
 */
export class Sender {
  /**
   * @param {MediaStream} stream
   * @param {string} ingestUrl the ingest WebSocket's URL, token included
   * @param {{onEnd: (reason: string) => void, onStats?: (stats: {width: number, height: number, bitrate: number, frames: number}) => void, fps?: number}} options
   */
  constructor(stream, ingestUrl, { onEnd, onStats = () => {}, fps = 30 }) {
    this.stream = stream;
    this.track = stream.getVideoTracks()[0];
    this.fps = fps;
    this.onEnd = onEnd;
    this.onStats = onStats;
    this.ended = false;
    this.frames = 0;
    this.wantKey = true;
    this.lastKeyAt = 0;
    /** @type {VideoEncoder | null} */
    this.encoder = null;
    this.size = { width: 0, height: 0, bitrate: 0 };
    /** @type {VideoFrame | null} the last picture, sent again when nothing changes */
    this.last = null;
    this.lastSentAt = 0;
    /** an encoder is being configured (repeats wait for it) */
    this.configuring = false;
    this.socket = new WebSocket(ingestUrl);
    this.socket.binaryType = "arraybuffer";
    this.socket.onmessage = (event) => {
      if (typeof event.data === "string" && JSON.parse(event.data).type === "key") this.wantKey = true;
    };
    this.socket.onclose = (event) => this.end(closeReason(event));
    this.track.addEventListener("ended", () => this.end("You stopped sharing."));
  }

  /** Run until the share ends: wait for the connection, then encode every frame. */
  async run() {
    await new Promise((resolve, reject) => {
      this.socket.addEventListener("open", resolve, { once: true });
      this.socket.addEventListener("close", () => reject(new Error("the host refused the connection")), { once: true });
    });
    const reader = new MediaStreamTrackProcessor({ track: this.track }).readable.getReader();
    const repeat = setInterval(() => this.repeat(), REPEAT_MS / 2);
    try {
      while (!this.ended) {
        const { value: frame, done } = await reader.read();
        if (done || !frame) break;
        await this.send(frame);
      }
    } finally {
      clearInterval(repeat);
      reader.releaseLock();
    }
    this.end("The shared screen ended.");
  }

  /**
   * Encode `frame` (and keep it to send again), restamped now: captured frames carry
   * timestamps of their own clock, repeats must follow them in order.
   * @param {VideoFrame} frame
   */
  async send(frame) {
    const stamped = new VideoFrame(frame, { timestamp: Math.round(performance.now() * 1000) });
    frame.close();
    if (this.last) this.last.close();
    this.last = stamped.clone();
    await this.encode(stamped);
  }

  /** The last picture again, when the screen sent nothing new for a while. */
  repeat() {
    if (this.ended || !this.last || this.configuring || performance.now() - this.lastSentAt < REPEAT_MS) return;
    const again = new VideoFrame(this.last, { timestamp: Math.round(performance.now() * 1000) });
    this.encode(again).catch((e) => this.end(String(e)));
  }

  /** @param {VideoFrame} frame */
  async encode(frame) {
    try {
      const { width, height } = encodedSize(frame.displayWidth, frame.displayHeight);
      if (!this.encoder || width !== this.size.width || height !== this.size.height) await this.configure(width, height);
      const encoder = /** @type {VideoEncoder} */ (this.encoder);
      if (this.socket.bufferedAmount > BUFFERED_LIMIT || encoder.encodeQueueSize > 2) {
        this.wantKey = true; // the frames dropped are missed: start again at a key frame
        return;
      }
      const now = performance.now();
      const keyFrame = this.wantKey || now - this.lastKeyAt >= KEY_EVERY_MS;
      if (keyFrame) {
        this.wantKey = false;
        this.lastKeyAt = now;
      }
      this.lastSentAt = now;
      encoder.encode(frame, { keyFrame });
    } finally {
      frame.close();
    }
  }

  /**
   * A new encoder for pictures of `width` x `height`; the host is told their size.
   * @param {number} width
   * @param {number} height
   */
  async configure(width, height) {
    if (this.encoder && this.encoder.state !== "closed") this.encoder.close();
    this.configuring = true;
    let config;
    try {
      config = await supportedConfig(width, height, this.fps);
    } finally {
      this.configuring = false;
    }
    this.encoder = new VideoEncoder({
      output: (chunk) => this.output(chunk),
      error: (e) => this.end(`The encoder failed: ${e.message}`),
    });
    this.encoder.configure(config);
    this.size = { width, height, bitrate: config.bitrate || 0 };
    this.wantKey = true;
    if (this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ type: "config", codedWidth: width, codedHeight: height }));
    }
  }

  /** @param {EncodedVideoChunk} chunk */
  output(chunk) {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(message(chunk));
    this.frames += 1;
    if (this.frames % 30 === 1) this.onStats({ ...this.size, frames: this.frames });
  }

  /** Stop sharing (the page's Stop button, or anything that ended it). */
  stop() {
    this.end("You stopped sharing.");
  }

  /** @param {string} reason */
  end(reason) {
    if (this.ended) return;
    this.ended = true;
    for (const track of this.stream.getTracks()) track.stop();
    if (this.encoder && this.encoder.state !== "closed") this.encoder.close();
    if (this.last) this.last.close();
    this.last = null;
    if (this.socket.readyState <= WebSocket.OPEN) this.socket.close(1000, "stopped");
    this.onEnd(reason);
  }
}

/**
 * What a closed ingest connection means, in words.
 * @param {CloseEvent} event
 */
function closeReason(event) {
  if (event.code === 4000) return "The share was ended on the host.";
  if (event.code === 4404) return "The host no longer waits for this share: start it again.";
  if (event.code === 4400) return `The host could not show the picture: ${event.reason}`;
  return "The connection to the host was lost.";
}
