"""The connected monitor, from its EDID under ``/sys/class/drm``.

Each DRM connector (``card1-HDMI-A-1``) has ``status`` (``connected``) and ``edid``, the
monitor's 128-byte (or longer) description: bytes 8-9 its manufacturer's PNP id (three
letters of five bits each), 10-11 its product code, 12-15 its serial number, and four
18-byte descriptors from byte 54, of which tag 0xFC is the model name and 0xFF the serial
as text.
"""

import logging
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

HEADER = bytes([0, 255, 255, 255, 255, 255, 255, 0])
DESCRIPTORS = (54, 72, 90, 108)
NAME_TAG = 0xFC
SERIAL_TAG = 0xFF

#: a few manufacturers by PNP id; any other is shown by its id
MANUFACTURERS = {
    "ACI": "ASUS",
    "ACR": "Acer",
    "AOC": "AOC",
    "APP": "Apple",
    "BNQ": "BenQ",
    "DEL": "Dell",
    "ENC": "EIZO",
    "GSM": "LG Electronics",
    "HWP": "HP",
    "IVM": "iiyama",
    "LEN": "Lenovo",
    "NEC": "NEC",
    "PHL": "Philips",
    "SAM": "Samsung",
    "SHP": "Sharp",
    "SNY": "Sony",
    "VSC": "ViewSonic",
}


@dataclass(frozen=True)
class Monitor:
    connector: str
    pnp_id: str
    product_code: int
    serial_number: int
    name: str
    serial_text: str

    @property
    def manufacturer(self) -> str:
        return MANUFACTURERS.get(self.pnp_id, self.pnp_id)

    @property
    def model(self) -> str:
        return self.name or f"{self.pnp_id}{self.product_code:04X}"

    @property
    def serial(self) -> str:
        if self.serial_text:
            return self.serial_text
        return str(self.serial_number) if self.serial_number else ""


class EdidError(ValueError):
    """Bytes that are not an EDID."""


def parse(connector: str, edid: bytes) -> Monitor:
    if len(edid) < 128 or edid[:8] != HEADER:
        raise EdidError(f"{connector}: not an EDID ({len(edid)} bytes)")
    if sum(edid[:128]) % 256:
        raise EdidError(f"{connector}: EDID checksum does not add up")
    packed = (edid[8] << 8) | edid[9]
    letters = [(packed >> shift) & 0x1F for shift in (10, 5, 0)]
    pnp_id = "".join(chr(ord("A") + n - 1) if 1 <= n <= 26 else "?" for n in letters)
    product = edid[10] | (edid[11] << 8)
    serial_number = int.from_bytes(edid[12:16], "little")
    texts: dict[int, str] = {}
    for start in DESCRIPTORS:
        block = edid[start : start + 18]
        if block[0:3] == b"\x00\x00\x00" and block[3] in (NAME_TAG, SERIAL_TAG):
            text = block[5:18].split(b"\x0a", 1)[0].decode("ascii", "replace").strip()
            texts[block[3]] = text
    return Monitor(
        connector,
        pnp_id,
        product,
        serial_number,
        texts.get(NAME_TAG, ""),
        texts.get(SERIAL_TAG, ""),
    )


def connected_monitors(sysfs: Path) -> list[Monitor]:
    """The monitors connected now, by connector name."""
    found = []
    drm = sysfs / "class" / "drm"
    if not drm.is_dir():
        return []
    for connector in sorted(drm.iterdir()):
        status, edid = connector / "status", connector / "edid"
        try:
            if status.read_text().strip() != "connected":
                continue
            blob = edid.read_bytes()
        except OSError:
            continue
        if not blob:
            continue
        try:
            found.append(parse(connector.name, blob))
        except EdidError as error:
            log.warning("%s", error)
    return found
