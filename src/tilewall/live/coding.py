"""From a demuxed video packet to the H.264 Annex B access units receivers decode: H.264
passed through as it came (``avcC`` turned Annex B, parameter sets in band), any other
codec decoded and encoded once with libx264 for every viewer of the stream."""

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import av
import av.bitstream

from tilewall.live import nal
from tilewall.live.encoding import open_encoder
from tilewall.live.failure import InputFailed
from tilewall.live.units import Picture, Unit

#: what receivers decode: H.264 passes through, anything else is transcoded to it
PASSED = "h264"


def frame_rate(stream: Any) -> float:
    for rate in (stream.average_rate, stream.guessed_rate, stream.base_rate):
        if rate and 1 <= float(rate) <= 240:
            return round(float(rate), 3)
    return 30.0


class Passthrough:
    """H.264 as it came: no decoding, no encoding."""

    transcoded = False

    def __init__(self, stream: Any) -> None:
        extradata = stream.codec_context.extradata
        self._stream = stream
        # RTMP (FLV) and MP4 carry H.264 as length-prefixed units with an avcC header
        self._bsf = (
            av.bitstream.BitStreamFilterContext("h264_mp4toannexb", in_stream=stream)
            if extradata and extradata[:1] == b"\x01"
            else None
        )
        self._sets = nal.ParameterSets(extradata)
        ctx = stream.codec_context
        self._size: tuple[int, int] | None = (ctx.width, ctx.height) if ctx.width else None

    def feed(self, packet: Any, at: float) -> list[Unit]:
        packets = self._bsf.filter(packet) if self._bsf is not None else [packet]
        out = []
        for p in packets:
            data, key = self._sets.complete(bytes(p), bool(p.is_keyframe))
            if key and self._size is None:
                self._size = _size_of(data)
            out.append(Unit(key, at, data))
        return out

    def picture(self) -> Picture | None:
        if self._sets.sps is None or self._size is None:
            return None
        width, height = self._size
        return Picture(nal.codec_string(self._sets.sps), width, height, frame_rate(self._stream))


def _size_of(key_frame: bytes) -> tuple[int, int] | None:
    """The picture size of an Annex B key frame, decoded once (for an input whose probe
    gave none: the demuxer gave up before the first key frame came)."""
    decoder = av.CodecContext.create("h264", "r")
    try:
        for frame in decoder.decode(av.Packet(key_frame)):
            return int(frame.width), int(frame.height)
        for frame in decoder.decode(None):
            return int(frame.width), int(frame.height)
    except av.error.FFmpegError:
        return None
    return None


class Transcoder:
    """Decoded and encoded once to H.264 (``tilewall.live.encoding``: libx264,
    ultrafast, zero latency; a key frame every second, parameter sets repeated before
    each). ``hardware``: a hardware encoder first, where one opens (capture devices)."""

    transcoded = True

    def __init__(self, stream: Any, hardware: bool = False) -> None:
        self._stream = stream
        self._decoder = stream.codec_context
        self._fps = frame_rate(stream)
        self._hardware = hardware
        self._encoder: Any = None
        self._count = 0
        self._ats: dict[int, float] = {}
        self._sets = nal.ParameterSets()

    def _encoder_for(self, frame: Any) -> Any:
        rate = Fraction(self._fps).limit_denominator(1001)
        # 4:2:0 needs even sizes
        size = (frame.width & ~1, frame.height & ~1)
        return open_encoder(size, self._fps, 1 / rate, max(1, round(self._fps)), self._hardware)

    def feed(self, packet: Any, at: float) -> list[Unit]:
        out: list[Unit] = []
        try:
            frames = self._decoder.decode(packet)
        except av.error.InvalidDataError:
            return out  # a damaged packet: the decoder picks up at the next
        for frame in frames:
            if self._encoder is None:
                self._encoder = self._encoder_for(frame)
            fmt = self._encoder.pix_fmt
            if (frame.format.name, frame.width, frame.height) != (
                fmt,
                self._encoder.width,
                self._encoder.height,
            ):
                frame = frame.reformat(self._encoder.width, self._encoder.height, fmt)
            frame.pts = self._count
            frame.time_base = self._encoder.time_base
            self._ats[self._count] = at
            self._count += 1
            for p in self._encoder.encode(frame):
                data, key = self._sets.complete(bytes(p), bool(p.is_keyframe))
                out.append(Unit(key, self._ats.pop(p.pts, at), data))
        return out

    def picture(self) -> Picture | None:
        if self._encoder is None or self._sets.sps is None:
            return None
        return Picture(
            nal.codec_string(self._sets.sps), self._encoder.width, self._encoder.height, self._fps
        )


Coding = Passthrough | Transcoder


def coding_for(
    stream: Any, on_encoder: Callable[[], None] = lambda: None, hardware: bool = False
) -> Coding:
    """How ``stream``'s packets become receivers' access units; :class:`InputFailed`
    (lasting) when its codec cannot be decoded here. ``on_encoder`` is told of each
    transcoder made (the count of encoders is what a test of "once per stream" reads);
    ``hardware``: a transcoder tries a hardware encoder first."""
    name = stream.codec_context.name
    if name == PASSED:
        return Passthrough(stream)
    if name not in av.codecs_available:
        raise InputFailed(f"unsupported codec: {name}", lasting=True)
    on_encoder()
    return Transcoder(stream, hardware)
