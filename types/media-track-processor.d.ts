// MediaStreamTrackProcessor (Chromium's "insertable streams" for a video track) is not in
// TypeScript's DOM library yet; the share page reads a captured screen's frames with it.
declare class MediaStreamTrackProcessor {
  constructor(init: { track: MediaStreamTrack; maxBufferSize?: number });
  readonly readable: ReadableStream<VideoFrame>;
}
