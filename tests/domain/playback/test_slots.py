"""Playlist schedules: where a position falls, with and without repeat."""

import pytest

from tilewall.host.playback.slots import Item, Slot, locate, start_of, total_ms

ITEMS = [Item("a.png", 4000, True), Item("b.mp4", 3000), Item("c.png", 4000, True)]


def test_total_and_starts():
    assert total_ms(ITEMS) == 11_000
    assert [start_of(ITEMS, i) for i in range(3)] == [0, 4000, 7000]


@pytest.mark.parametrize(
    ("position", "slot"),
    [
        (0, Slot(0, 0)),
        (3999, Slot(0, 3999)),
        (4000, Slot(1, 0)),
        (6500, Slot(1, 2500)),
        (7000, Slot(2, 0)),
        (10_999, Slot(2, 3999)),
    ],
)
def test_locate_within_first_pass(position, slot):
    assert locate(ITEMS, position, repeat=True) == slot
    assert locate(ITEMS, position, repeat=False) == slot


@pytest.mark.parametrize(
    ("position", "slot"),
    [(11_000, Slot(0, 0)), (12_500, Slot(0, 1500)), (33_000 + 4100, Slot(1, 100))],
)
def test_locate_with_repeat_wraps(position, slot):
    assert locate(ITEMS, position, repeat=True) == slot


@pytest.mark.parametrize("position", [11_000, 11_001, 10**9])
def test_locate_without_repeat_holds_last_item_at_its_end(position):
    assert locate(ITEMS, position, repeat=False) == Slot(2, 4000, ended=True)


def test_negative_position_is_start():
    assert locate(ITEMS, -50, repeat=True) == Slot(0, 0)


def test_empty_and_zero_length():
    assert locate([], 100, repeat=True) is None
    zero = [Item("x.mp4", 0)]
    assert locate(zero, 100, repeat=True) == Slot(0, 0, ended=False)
    assert locate(zero, 100, repeat=False) == Slot(0, 0, ended=True)


def test_zero_length_items_are_skipped():
    items = [Item("broken.mp4", 0), Item("ok.png", 1000, True)]
    assert locate(items, 500, repeat=True) == Slot(1, 500)


def test_same_position_same_item_everywhere():
    """Every tile computes the same slot from the same items and position."""
    copies = [list(ITEMS) for _ in range(4)]
    assert len({locate(c, 8123, True) for c in copies}) == 1
