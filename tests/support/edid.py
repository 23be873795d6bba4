"""EDID blocks as monitors send them."""


def edid(name: str, serial: str, pnp: str = "SAM", product: int = 0x0F35) -> bytes:
    """A 128-byte EDID as a monitor sends it, with its checksum."""
    block = bytearray(128)
    block[0:8] = bytes([0, 255, 255, 255, 255, 255, 255, 0])
    a, b, c = (ord(x) - ord("A") + 1 for x in pnp)
    packed = (a << 10) | (b << 5) | c
    block[8], block[9] = packed >> 8, packed & 0xFF
    block[10], block[11] = product & 0xFF, product >> 8
    block[12:16] = (0x01020304).to_bytes(4, "little")
    block[18], block[19] = 1, 3
    for start, tag, text in ((72, 0xFC, name), (90, 0xFF, serial)):
        body = text.encode()[:13]
        block[start : start + 5] = bytes([0, 0, 0, tag, 0])
        block[start + 5 : start + 18] = (body + b"\n" + b" " * 13)[:13]
    block[127] = (-sum(block[:127])) % 256
    return bytes(block)
