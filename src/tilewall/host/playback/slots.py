"""A playlist as a deterministic schedule over a timeline position.

Every tile of a wall and every member of a mirror group computes the same item at the
same position, because the schedule depends only on the items and the position.
"""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Item:
    """One playlist entry: a media file name and how long it shows, in milliseconds."""

    name: str
    duration_ms: int
    is_image: bool = False


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a position falls: the item index, the offset into it, and whether the list
    has ended (only without repeat; then the last item is held at its end)."""

    index: int
    offset_ms: int
    ended: bool = False


def total_ms(items: list[Item]) -> int:
    return sum(max(item.duration_ms, 0) for item in items)


def locate(items: list[Item], position_ms: int, repeat: bool) -> Slot | None:
    """The slot at ``position_ms``; None for an empty list."""
    if not items:
        return None
    total = total_ms(items)
    if total <= 0:
        return Slot(0, 0, ended=not repeat)
    position = max(position_ms, 0)
    if position >= total:
        if not repeat:
            return Slot(len(items) - 1, max(items[-1].duration_ms, 0), ended=True)
        position %= total
    for index, item in enumerate(items):
        duration = max(item.duration_ms, 0)
        if position < duration:
            return Slot(index, position)
        position -= duration
    return Slot(len(items) - 1, max(items[-1].duration_ms, 0), ended=True)


def start_of(items: list[Item], index: int) -> int:
    """The position at which item ``index`` starts (in the first pass)."""
    return sum(max(item.duration_ms, 0) for item in items[:index])
