"""Encoding pictures to the H.264 access units receivers decode, once per input: a
transcoded stream's frames, a desktop's picture, a capture device's frames.

libx264 with low-latency settings (ultrafast, zerolatency: a frame out for each frame in,
no B-frames, parameter sets repeated before every key frame). Where a hardware encoder
is asked for (a capture device) one of FFmpeg's is tried first: V4L2 mem2mem (Raspberry
Pi and other SoCs), NVENC, Quick Sync, AMF; the first that opens on this machine is kept,
else libx264."""

from __future__ import annotations

import logging
from fractions import Fraction
from typing import Any

import av

from tilewall.live import nal
from tilewall.live.units import Picture, Unit

log = logging.getLogger(__name__)

SOFTWARE = "libx264"
#: hardware H.264 encoders of FFmpeg, in the order they are tried
HARDWARE = ("h264_v4l2m2m", "h264_nvenc", "h264_qsv", "h264_amf")
_HARDWARE_OPTIONS = {
    "h264_nvenc": {"preset": "p1", "tune": "ull", "zerolatency": "1", "delay": "0"},
    "h264_qsv": {"preset": "veryfast", "async_depth": "1", "low_power": "1"},
    "h264_amf": {"usage": "ultralowlatency"},
}
#: hardware encoders found not to open here (no device, no driver): not tried again
_unusable: set[str] = set()


def _open(name: str, size: tuple[int, int], fps: float, time_base: Fraction, keyint: int) -> Any:
    encoder: Any = av.CodecContext.create(name, "w")
    encoder.width, encoder.height = size
    encoder.pix_fmt = "yuv420p" if name in (SOFTWARE, "h264_amf") else "nv12"
    encoder.time_base = time_base
    encoder.framerate = Fraction(fps).limit_denominator(1001)
    encoder.gop_size = keyint
    encoder.max_b_frames = 0
    if name == SOFTWARE:
        encoder.options = {
            "preset": "ultrafast",
            "tune": "zerolatency",
            "forced-idr": "1",
            "x264-params": f"keyint={keyint}:min-keyint={keyint}:scenecut=0:repeat-headers=1",
        }
    else:
        encoder.options = dict(_HARDWARE_OPTIONS.get(name, {}))
    encoder.open()
    return encoder


def open_encoder(
    size: tuple[int, int], fps: float, time_base: Fraction, keyint: int, hardware: bool
) -> Any:
    """An opened H.264 encoder of pictures of ``size`` (even): a hardware one when
    ``hardware`` and one opens here, else libx264."""
    if hardware:
        for name in HARDWARE:
            if name in _unusable or name not in av.codecs_available:
                continue
            try:
                return _open(name, size, fps, time_base, keyint)
            except Exception as error:  # no device or driver: FFmpeg says so its own way
                log.info("hardware encoder %s not usable here: %s", name, error)
                _unusable.add(name)
    return _open(SOFTWARE, size, fps, time_base, keyint)


class H264Encoder:
    """Pictures of one size to access units, each stamped with the host instant its
    picture is to be shown. ``keyint``: a key frame every so many frames, besides those
    asked for."""

    def __init__(
        self,
        size: tuple[int, int],
        fps: float,
        time_base: Fraction,
        keyint: int = 600,
        hardware: bool = False,
    ) -> None:
        self.size = size
        self._fps = fps
        self._encoder = open_encoder(size, fps, time_base, keyint, hardware)
        self.name: str = self._encoder.name
        self._ats: dict[int, float] = {}
        self._sets = nal.ParameterSets()
        self._last_pts = -1

    def encode(self, frame: Any, pts: int, at: float, key: bool = False) -> list[Unit]:
        """``frame`` (any size and format: made the encoder's) at ``pts`` in the time
        base, to be shown at host instant ``at``."""
        width, height = self.size
        fmt = self._encoder.pix_fmt
        if (frame.format.name, frame.width, frame.height) != (fmt, width, height):
            frame = frame.reformat(width, height, fmt)
        pts = max(pts, self._last_pts + 1)  # strictly rising, as encoders want
        self._last_pts = pts
        frame.pts = pts
        frame.time_base = self._encoder.time_base
        frame.pict_type = av.video.frame.PictureType.I if key else av.video.frame.PictureType.NONE
        self._ats[pts] = at
        out = []
        for packet in self._encoder.encode(frame):
            data, is_key = self._sets.complete(bytes(packet), bool(packet.is_keyframe))
            out.append(Unit(is_key, self._ats.pop(packet.pts, at), data))
        return out

    def encode_image(self, image: Any, pts: int, at: float, key: bool = False) -> list[Unit]:
        """A Pillow image (RGB), as :meth:`encode`."""
        video_frame: Any = av.VideoFrame
        return self.encode(video_frame.from_image(image), pts, at, key)

    def picture(self) -> Picture | None:
        if self._sets.sps is None:
            return None
        width, height = self.size
        return Picture(nal.codec_string(self._sets.sps), width, height, self._fps)
