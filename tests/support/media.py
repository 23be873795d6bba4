"""Media files in the host's library: small images (Pillow) and short videos (made once
with ffmpeg, kept in ``videos/``)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

#: the media the demo ships with (images of known colours, a short clip)
DEMO_MEDIA = Path(__file__).resolve().parents[2] / "src" / "tilewall" / "demo_media"


def png_bytes(
    color: tuple[int, int, int] = (200, 30, 30), size: tuple[int, int] = (32, 18)
) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="PNG")
    return out.getvalue()


#: short H.264 test pictures, made with (S = the seconds)
#: ``ffmpeg -f lavfi -i testsrc=size=160x90:rate=10 -t S -pix_fmt yuv420p
#: -movflags +faststart testsrc-Ss.mp4``
VIDEOS = Path(__file__).resolve().parent / "videos"


def mp4_bytes(seconds: int = 3) -> bytes:
    """A short H.264 MP4 of ``seconds`` seconds (2 or 3: the files in ``VIDEOS``)."""
    return (VIDEOS / f"testsrc-{seconds}s.mp4").read_bytes()


def _write(root: Path, name: str, data: bytes) -> str:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return name


def write_png(root: Path, name: str, color: tuple[int, int, int] = (200, 30, 30)) -> str:
    """An image in the library at ``root`` (as if copied there); its name."""
    return _write(root, name, png_bytes(color))


def write_mp4(root: Path, name: str, seconds: int = 3) -> str:
    return _write(root, name, mp4_bytes(seconds))


def media_root(api: Any) -> Path:
    """The library folder of the host in this process behind ``api``."""
    from tests.support.app import host_of

    return Path(host_of(api).media.root)
