// A screen, window or tab captured with getDisplayMedia, encoded with WebCodecs and sent
// to the host's ingest WebSocket (docs/share.md, "On the wire"): a config message with the
// picture's size, then one binary message a frame (codecs.js). Which frames are encoded,
// and which as key frames, is pacing.js's: a frame is encoded at once or dropped, never
// queued behind others, so what the host gets is the screen of now.

import { encodedSize, message, supportedConfig } from "./codecs.js";
import { pacer } from "./pacing.js";

/** A picture that did not change is sent again after this long (receivers mark a tile
 * "no signal" after a second without frames; a screen sends frames only as it changes). */
const REPEAT_MS = 400;

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
    /** which frames are encoded, which as key frames; its counts are read by tests */
    this.pace = pacer();
    /** @type {VideoEncoder | null} */
    this.encoder = null;
    this.size = { width: 0, height: 0, bitrate: 0 };
    /** the codec string the encoder was configured with */
    this.codec = "";
    /** the picture size and codec the host was last told */
    this.announced = "";
    /** @type {VideoFrame | null} the last picture, sent again when nothing changes */
    this.last = null;
    this.lastSentAt = 0;
    /** an encoder is being configured (frames meanwhile are dropped) */
    this.configuring = false;
    this.socket = new WebSocket(ingestUrl);
    this.socket.binaryType = "arraybuffer";
    this.socket.onmessage = (event) => {
      if (typeof event.data === "string" && JSON.parse(event.data).type === "key") this.pace.askKey();
    };
    this.socket.onclose = (event) => this.end(closeReason(event));
    this.track.addEventListener("ended", () => this.end("You stopped sharing."));
  }

  /** Run until the share ends: wait for the connection, then encode every frame. */
  async run() {
    const opened = new Promise((resolve, reject) => {
      this.socket.addEventListener("open", resolve, { once: true });
      this.socket.addEventListener("close", () => reject(new Error("the host refused the connection")), { once: true });
    });
    // the encoder is made while the connection opens, so the first frame need not wait
    const { width = 0, height = 0 } = this.track.getSettings();
    const preparing = width && height ? this.configure(encodedSize(width, height)) : Promise.resolve();
    await Promise.all([opened, preparing]);
    // only the newest frame waits to be read: one the page was too busy for is dropped
    const reader = new MediaStreamTrackProcessor({ track: this.track, maxBufferSize: 1 }).readable.getReader();
    const repeat = setInterval(() => this.repeat(), REPEAT_MS / 2);
    try {
      while (!this.ended) {
        const { value: frame, done } = await reader.read();
        if (done || !frame) break;
        if (this.last) this.last.close();
        this.last = frame.clone();
        await this.encode(frame);
      }
    } finally {
      clearInterval(repeat);
      reader.releaseLock();
    }
    this.end("The shared screen ended.");
  }

  /** The last picture again, when the screen sent nothing new for a while. */
  repeat() {
    if (this.ended || !this.last || this.configuring || performance.now() - this.lastSentAt < REPEAT_MS) return;
    this.encode(this.last.clone()).catch((e) => this.end(String(e)));
  }

  /**
   * Encode `frame` now, or drop it (pacing.js). It is stamped with the instant it is
   * given the encoder (captured frames carry timestamps of their own clock; repeats must
   * follow them in order), after any new encoder is set up, so that the host's offset
   * from the first frame holds no setting up.
   * @param {VideoFrame} frame
   */
  async encode(frame) {
    try {
      const size = encodedSize(frame.displayWidth, frame.displayHeight);
      if (!this.encoder || size.width !== this.size.width || size.height !== this.size.height) await this.configure(size);
      const encoder = this.encoder;
      if (this.ended || !encoder || encoder.state !== "configured") return;
      this.announce();
      const now = performance.now();
      const backlog = { queued: encoder.encodeQueueSize, buffered: this.socket.bufferedAmount, bitrate: this.size.bitrate };
      const decision = this.pace.decide(now, backlog);
      if (!decision) return;
      this.lastSentAt = now;
      const stamped = new VideoFrame(frame, { timestamp: Math.round(now * 1000) });
      try {
        encoder.encode(stamped, decision);
      } finally {
        stamped.close();
      }
    } finally {
      frame.close();
    }
  }

  /**
   * A new encoder for pictures of `width` x `height`; it starts with a key frame.
   * @param {{width: number, height: number}} size
   */
  async configure({ width, height }) {
    if (this.encoder && this.encoder.state !== "closed") this.encoder.close();
    this.encoder = null;
    this.configuring = true;
    let config;
    try {
      config = await supportedConfig(width, height, this.fps);
    } finally {
      this.configuring = false;
    }
    if (this.ended) return;
    this.encoder = new VideoEncoder({
      output: (chunk) => this.output(chunk),
      error: (e) => this.end(`The encoder failed: ${e.message}`),
    });
    this.encoder.configure(config);
    this.size = { width, height, bitrate: config.bitrate || 0 };
    this.codec = config.codec;
    this.pace.askKey();
  }

  /** Tell the host the picture's size and codec before the first frame of them. */
  announce() {
    const { width, height } = this.size;
    const said = `${width}x${height} ${this.codec}`;
    if (this.announced === said || this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(JSON.stringify({ type: "config", codedWidth: width, codedHeight: height, codec: this.codec }));
    this.announced = said;
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
