"""The media library's files in a folder: uploads that land whole or not at all, and
nothing reached outside the folder."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tilewall.platform.media_files import FolderMediaFiles


async def _cut_off(first: bytes) -> AsyncIterator[bytes]:
    yield first
    raise ConnectionResetError("the client went away")


async def _whole(*chunks: bytes) -> AsyncIterator[bytes]:
    for chunk in chunks:
        yield chunk


async def test_an_upload_cut_off_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    files = FolderMediaFiles(tmp_path / "media")
    await files.save("clips/a.mp4", _whole(b"old ", b"bytes"))
    with pytest.raises(ConnectionResetError):
        await files.save("clips/a.mp4", _cut_off(b"half of the new"))
    assert (tmp_path / "media" / "clips" / "a.mp4").read_bytes() == b"old bytes"
    assert sorted(p.name for p in (tmp_path / "media" / "clips").iterdir()) == ["a.mp4"]
    stored = files.stat("clips/a.mp4")
    assert stored is not None and stored.size == len(b"old bytes")


async def test_a_link_out_of_the_library_is_found_nowhere(tmp_path: Path) -> None:
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"not media")
    files = FolderMediaFiles(tmp_path / "media")
    (tmp_path / "media" / "inside.png").write_bytes(b"png")
    (tmp_path / "media" / "escape.png").symlink_to(secret)
    (tmp_path / "media" / "up").symlink_to(tmp_path)
    assert files.locate("escape.png") is None and files.stat("escape.png") is None
    assert not files.is_folder("up")
    assert files.names_under("") == ["inside.png"]
    assert files.delete("escape.png") is False and secret.exists()
    assert files.delete("up") is False and secret.exists()


def test_the_library_itself_is_not_deleted(tmp_path: Path) -> None:
    files = FolderMediaFiles(tmp_path / "media")
    (tmp_path / "media" / "a.png").write_bytes(b"png")
    assert files.delete("") is False
    assert (tmp_path / "media" / "a.png").exists()
    assert files.delete("a.png") is True and files.stat("a.png") is None
