"""The playback commands displays, zones and mirror groups share: switch, play,
play-videolist, pause, resume, stop, rewind, forward, seek, mediainfo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from tilewall.client import Json
from tilewall.commands.base import by_option, client, show

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def _call(attr: str, method: str, target: str, opts: dict[str, Any], *args: Any, **kw: Any) -> Json:
    """``client().<attr>.<method>(target, ...)``, with ``by`` where the group has names."""
    if "by" in opts:
        kw["by"] = opts["by"]
    resource = getattr(client(), attr)
    answer: Json = getattr(resource, method)(target, *args, **kw)
    return answer


def add_playback(
    group: click.Group, attr: str, metavar: str, *, named: bool, switch: bool, stop: bool
) -> None:
    """Add the playback commands to ``group``, driving ``client().<attr>``; ``named``:
    the target is a name or an id (``--by``)."""

    def target(f: Callable[..., Any]) -> Callable[..., Any]:
        f = click.argument("target", metavar=metavar)(f)
        return by_option(f) if named else f

    def simple(name: str, method: str, help_text: str) -> None:
        @group.command(name, help=help_text)
        @target
        def command(target: str, **opts: Any) -> None:
            show(_call(attr, method, target, opts))

    def timed(name: str, help_text: str) -> None:
        @group.command(name, help=help_text)
        @target
        @click.argument("milliseconds", type=click.IntRange(min=0))
        def command(target: str, milliseconds: int, **opts: Any) -> None:
            show(_call(attr, name, target, opts, milliseconds))

    if switch:

        @group.command("switch")
        @target
        @click.option("--source", help="The source to play, by name.")
        @click.option("--source-id", help="The source to play, by id.")
        @click.option("--welcome", is_flag=True, help="Show the welcome screen instead.")
        def switch_command(
            target: str, source: str | None, source_id: str | None, welcome: bool, **opts: Any
        ) -> None:
            """Play a source at once."""
            show(_call(attr, "switch", target, opts, source, source_id=source_id, welcome=welcome))

    @group.command("play")
    @target
    @click.option("--source", help="The source to play, by name.")
    @click.option("--source-id", help="The source to play, by id.")
    def play(target: str, source: str | None, source_id: str | None, **opts: Any) -> None:
        """Play a source, or without one the assigned source."""
        show(_call(attr, "play", target, opts, source, source_id=source_id))

    @group.command("play-videolist")
    @target
    @click.argument("files", nargs=-1, required=True)
    @click.option("--queue", is_flag=True, help="Queue after what plays.")
    @click.option("--repeat", is_flag=True, help="Play the list again and again.")
    @click.option("--interval", type=int, default=10, show_default=True, help="Seconds per image.")
    def play_video_list(
        target: str,
        files: tuple[str, ...],
        queue: bool,
        repeat: bool,
        interval: int,
        **opts: Any,
    ) -> None:
        """Play FILES of the media library."""
        answer = _call(
            attr,
            "play_video_list",
            target,
            opts,
            list(files),
            queue=queue,
            repeat=repeat,
            interval=interval,
        )
        show(answer)

    simple("pause", "pause", "Pause.")
    simple("resume", "resume", "Resume.")
    if stop:
        simple("stop", "stop", "Stop.")
    timed("rewind", "Move back by MILLISECONDS.")
    timed("forward", "Move ahead by MILLISECONDS.")
    timed("seek", "Go to MILLISECONDS from the start.")
    simple("mediainfo", "media_info", "What plays, and where in it.")
