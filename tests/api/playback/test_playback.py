"""Playback on every target (a display, a zone and a mirror group, by id and by name):
switch, play, playVideoList, pause, resume, stop, rewind, forward, seek, mediainfo."""

from tests.support.app import SharedApp
from tests.support.playback import PlaybackMixin


class TestPlayback(SharedApp, PlaybackMixin):
    """Each test makes its own target; one app serves them all."""
