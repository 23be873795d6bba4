"""H.264 in Annex B, as receivers decode it: access units whose key frames carry their
SPS and PPS in band, and the WebCodecs codec string (``avc1.PPCCLL``) of a stream."""

import re

_START = re.compile(b"\x00\x00\x01")
SPS, PPS, IDR, AUD = 7, 8, 5, 9


def units(access_unit: bytes) -> list[bytes]:
    """The NAL units of an Annex B access unit, without their start codes."""
    out: list[bytes] = []
    starts = [m.end() for m in _START.finditer(access_unit)]
    for n, start in enumerate(starts):
        end = starts[n + 1] - 3 if n + 1 < len(starts) else len(access_unit)
        unit = access_unit[start:end]
        # a four-byte start code leaves its first zero on the unit before
        if n + 1 < len(starts) and unit.endswith(b"\x00"):
            unit = unit[:-1]
        if unit:
            out.append(unit)
    return out


def kind(unit: bytes) -> int:
    return unit[0] & 0x1F


def join(nal_units: list[bytes]) -> bytes:
    return b"".join(b"\x00\x00\x00\x01" + u for u in nal_units)


def codec_string(sps: bytes) -> str:
    """``avc1.PPCCLL`` from an SPS NAL unit (profile, constraint flags, level)."""
    if len(sps) < 4:
        return "avc1.42e01f"
    return f"avc1.{sps[1]:02x}{sps[2]:02x}{sps[3]:02x}"


class ParameterSets:
    """The stream's latest SPS and PPS, put in front of every key frame lacking them (a
    camera that sends them only in its SDP, an RTMP stream's ``avcC`` turned Annex B
    once), so that a receiver may start at any key frame."""

    def __init__(self, extradata: bytes | None = None) -> None:
        self.sps: bytes | None = None
        self.pps: bytes | None = None
        if extradata and not extradata.startswith(b"\x01"):
            self._learn(units(extradata))

    def _learn(self, nal_units: list[bytes]) -> None:
        for unit in nal_units:
            if kind(unit) == SPS:
                self.sps = unit
            elif kind(unit) == PPS:
                self.pps = unit

    def complete(self, access_unit: bytes, key: bool) -> tuple[bytes, bool]:
        """``access_unit`` with the parameter sets in front when it is a key frame (said
        so, or holding an IDR slice) that lacks them, and whether it is one; access unit
        delimiters dropped (WebCodecs needs none)."""
        found = units(access_unit)
        self._learn(found)
        kinds = {kind(u) for u in found}
        key = key or IDR in kinds
        if not key and AUD not in kinds:
            return access_unit, False
        found = [u for u in found if kind(u) != AUD]
        if key and SPS not in kinds and self.sps is not None and self.pps is not None:
            found = [self.sps, self.pps, *found]
        return join(found), key
