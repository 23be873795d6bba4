"""A play of the play log, ended: every field kept but its end (``Play.ended`` names the
fields itself, being on the path of every switch; a field added to ``Play`` must be
added there too, and this fails until it is)."""

import dataclasses
from typing import Any

from tilewall.host.ports import Play


def test_an_ended_play_keeps_every_other_field() -> None:
    # a value of its own in every field, so that no two fields can be swapped unseen
    values: dict[str, Any] = {
        field.name: f"<{field.name}>" if field.type is str else n
        for n, field in enumerate(dataclasses.fields(Play), start=1)
    }
    play = Play(**values)
    ended = play.ended(99)
    assert ended == dataclasses.replace(play, end_ms=99)
    assert ended.end_ms == 99 and play.end_ms == values["end_ms"]
