"""tilewall schedule ...: scheduled events."""

from __future__ import annotations

from typing import Any

import click

from tilewall.client.base import Json
from tilewall.commands.base import (
    Column,
    client,
    done,
    interface_group,
    show,
    show_list,
)

schedule = interface_group(
    "schedule", "Scheduled events: switch, recall a preset, broadcast or power at a time."
)

TARGETS = {"display": "displayId", "zone": "zoneName", "mirrorgroup": "mirrorgroupName"}


def _does(event: Json) -> str:
    a = event.get("action", {})
    kind = a.get("kind")
    if kind == "recallPreset":
        return f"recall preset {a.get('presetName')}"
    if kind == "broadcast":
        return f"broadcast {a.get('message')!r}"
    if kind == "power":
        which = f"display {a['displayId']}" if a.get("displayId") is not None else "every display"
        return f"power {a.get('state')} {which}"
    for label, key in (("zone", "zoneName"), ("mirror group", "mirrorgroupName")):
        if a.get(key):
            return f"switch {label} {a[key]} to {a.get('sourceName')}"
    return f"switch display {a.get('displayId')} to {a.get('sourceName')}"


def _when(event: Json) -> str:
    text = f"{event['start']} {event['timeZone']}"
    if event.get("end"):
        text += f" until {event['end']}"
    elif event.get("durationSeconds"):
        text += f" for {event['durationSeconds']} s"
    return text + (f", {event['recurrence']}" if event.get("recurrence") else ", once")


@schedule.command("list")
@click.option("--from", "start", metavar="WHEN", help="List occurrences from WHEN (ISO 8601).")
@click.option("--to", "end", metavar="WHEN", help="... until WHEN (default: a week later).")
def list_events(start: str | None, end: str | None) -> None:
    """List the events, or with --from the occurrences in a window."""
    if start is None:
        columns: list[Column] = [
            ("Event", "name"),
            ("Id", "id"),
            ("When", _when),
            ("Does", _does),
            ("Priority", "priority"),
            ("Enabled", "enabled"),
            ("Next", "next"),
            ("Last run", lambda e: (e.get("lastRun") or {}).get("result", "")),
        ]
        show_list(client().schedule.list(), columns, "events")
        return
    occurrences: list[Column] = [
        ("Start", "start"),
        ("End", "end"),
        ("Local start", lambda o: f"{o['localStart']} {o['timeZone']}"),
        ("Event", "name"),
        ("Target", lambda o: f"{o['target']['kind']} {o['target'].get('name', '')}".strip()),
        ("Priority", "priority"),
    ]
    show_list(client().schedule.occurrences(start, end), occurrences, "occurrences")


def _action(
    preset: str | None,
    switch: str | None,
    source: str | None,
    broadcast: str | None,
    level: str,
    length: int | None,
    power: str | None,
    display: int | None,
) -> dict[str, Any]:
    given = [x for x in (preset, switch, broadcast, power) if x is not None]
    if len(given) != 1:
        raise click.UsageError("give one action: --preset, --switch, --broadcast or --power")
    if preset is not None:
        return {"kind": "recallPreset", "presetName": preset}
    if switch is not None:
        kind, sep, key = switch.partition(":")
        if not sep or kind not in TARGETS or not key:
            raise click.BadParameter(
                "give display:ID, zone:NAME or mirrorgroup:NAME", param_hint="--switch"
            )
        if source is None:
            raise click.UsageError("--switch needs --source NAME")
        target: Any = int(key) if kind == "display" and key.isdigit() else key
        return {"kind": "switch", TARGETS[kind]: target, "sourceName": source}
    if broadcast is not None:
        action: dict[str, Any] = {"kind": "broadcast", "message": broadcast, "alertLevel": level}
        if length is not None:
            action["lengthMillisec"] = length * 1000
        return action
    action = {"kind": "power", "state": power}
    if display is not None:
        action["displayId"] = display
    return action


@schedule.command("add")
@click.argument("name")
@click.option("--start", required=True, metavar="LOCAL", help="YYYY-MM-DDTHH:MM:SS, local time.")
@click.option("--time-zone", metavar="ZONE", help="IANA zone (default: the host's).")
@click.option("--end", metavar="LOCAL", help="When the first occurrence ends (local time).")
@click.option("--duration", type=int, metavar="SECONDS", help="How long each occurrence lasts.")
@click.option("--repeat", metavar="RRULE", help="RFC 5545 rule, e.g. FREQ=WEEKLY;BYDAY=MO,FR.")
@click.option(
    "--except", "exdates", multiple=True, metavar="DATE", help="A date or date-time to skip."
)
@click.option("--priority", type=int, default=0, show_default=True)
@click.option("--disabled", is_flag=True, help="Create it disabled.")
@click.option("--preset", metavar="NAME", help="Action: recall this preset.")
@click.option(
    "--switch",
    metavar="TARGET",
    help="Action: switch display:ID, zone:NAME or mirrorgroup:NAME ...",
)
@click.option("--source", metavar="NAME", help="... to this source.")
@click.option("--broadcast", metavar="MESSAGE", help="Action: broadcast an alert.")
@click.option("--level", default="ORANGE_LEVEL", show_default=True, help="The alert's level.")
@click.option("--length", type=int, metavar="SECONDS", help="How long the alert shows.")
@click.option("--power", type=click.Choice(["on", "off"]), help="Action: power displays on or off.")
@click.option("--display", type=int, metavar="ID", help="With --power: only this display.")
def add_event(
    name: str,
    start: str,
    time_zone: str | None,
    end: str | None,
    duration: int | None,
    repeat: str | None,
    exdates: tuple[str, ...],
    priority: int,
    disabled: bool,
    preset: str | None,
    switch: str | None,
    source: str | None,
    broadcast: str | None,
    level: str,
    length: int | None,
    power: str | None,
    display: int | None,
) -> None:
    """Schedule an event NAME that does one action."""
    event: dict[str, Any] = {
        "name": name,
        "start": start,
        "priority": priority,
        "enabled": not disabled,
        "exdates": list(exdates),
        "action": _action(preset, switch, source, broadcast, level, length, power, display),
    }
    optional = {
        "timeZone": time_zone,
        "end": end,
        "durationSeconds": duration,
        "recurrence": repeat,
    }
    event.update({k: v for k, v in optional.items() if v is not None})
    made = client().schedule.create(event)
    done(made, f"event {made['name']!r} scheduled (id {made['id']}; next {made.get('next')})")


@schedule.command("show")
@click.argument("event")
def show_event(event: str) -> None:
    """Show one event (by id or name)."""
    show(client().schedule.get(_event_id(event)))


@schedule.command("remove")
@click.argument("event")
def remove_event(event: str) -> None:
    """Delete an event (by id or name); a running occurrence ends."""
    done(client().schedule.delete(_event_id(event)), f"event {event!r} deleted")


def _event_id(key: str) -> str:
    events = client().schedule.list()
    if any(e["id"] == key for e in events):
        return key
    named = [e["id"] for e in events if e["name"] == key]
    if len(named) > 1:
        raise click.UsageError(f"{len(named)} events are named {key!r}: give the id")
    return named[0] if named else key
