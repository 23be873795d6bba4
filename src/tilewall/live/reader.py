"""The pull of one live input, in a thread of its own: open, read packets, turn them into
receivers' access units, and when the input fails, say why and try again with backoff
(0.25 s, doubling, at most 1 s between tries; 5 s after a failure that waiting will not
mend soon, such as a wrong password) until told to stop."""

import logging
import threading
from collections.abc import Callable
from typing import Any

from tilewall.host.content import screens
from tilewall.host.content.live import LiveInput, redact, redact_text, scheme_of
from tilewall.host.ports import Clock
from tilewall.live import coding
from tilewall.live.failure import InputFailed
from tilewall.live.latency import Latency
from tilewall.live.opening import failure, open_input
from tilewall.live.timing import Presenter
from tilewall.live.units import Picture, Sink

log = logging.getLogger(__name__)

FIRST_RETRY_S = 0.25
MAX_RETRY_S = 1.0
LASTING_RETRY_S = 5.0


class Reader:
    """Pulls ``input_of()`` (read afresh at each try: the source may have changed) until
    :meth:`stop`; ``on_encoder`` is told of each transcoder it makes."""

    def __init__(
        self,
        name: str,
        input_of: Callable[[], LiveInput | None],
        sink: Sink,
        clock: Clock,
        latency: Latency,
        on_encoder: Callable[[], None] = lambda: None,
    ) -> None:
        self._input_of = input_of
        self._sink = sink
        self._clock = clock
        self._latency = latency
        self._on_encoder = on_encoder
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"live {name}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop at the next packet (or read timeout); returns at once."""
        self._stopped.set()

    def joined(self) -> None:
        """A pulled input cannot be asked for a key frame: joiners start on the frames
        kept since the last one."""

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def alive(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        wait = FIRST_RETRY_S
        while not self._stopped.is_set():
            source = self._input_of()
            if source is None:
                return
            self._sink.connecting()
            try:
                if self._pull(source):
                    wait = FIRST_RETRY_S  # it ran: the next failure starts the backoff anew
                if self._stopped.is_set():
                    return
                raise InputFailed("the stream ended")
            except InputFailed as reason:
                self._sink.failed(reason)
                pause = LASTING_RETRY_S if reason.lasting else wait
                wait = min(wait * 2, MAX_RETRY_S)
            except Exception as error:  # a bug of ours must not end the relay for good
                # no traceback: FFmpeg's messages may carry the URL and its password
                text = redact_text(f"{type(error).__name__}: {error}", source.url)
                log.error("live input %s failed: %s", redact(source.url), text)
                self._sink.failed(failure(error, source))
                pause = MAX_RETRY_S
            self._stopped.wait(pause)

    def _pull(self, source: LiveInput) -> bool:
        """Read ``source`` until it ends or this reader stops; whether any frame came.
        Raises :class:`InputFailed`."""
        if scheme_of(source.url) == screens.VNC_SCHEME:
            # the RFB client (vncdotool, through Twisted and cryptography) costs ~18 MiB
            # and a start-up delay: loaded when a desktop is first shown, not to serve
            from tilewall.live import vnc

            return vnc.pull(
                source, self._sink, self._clock, self._latency, self._stopped, self._on_encoder
            )
        container = open_input(source)
        ran = False
        try:
            video = next((s for s in container.streams if s.type == "video"), None)
            if video is None:
                raise InputFailed("the stream has no video", lasting=True)
            # a capture device's frames are raw: a hardware encoder first, where one opens
            hardware = scheme_of(source.url) == screens.CAPTURE_SCHEME
            how = coding.coding_for(video, self._on_encoder, hardware)
            timing = Presenter(self._latency)
            shown: Picture | None = None
            for packet in container.demux(video):
                if self._stopped.is_set():
                    return ran
                if packet.size == 0:
                    continue
                arrival = self._clock.exact_ms()
                at = timing.at(packet.pts, packet.time_base, arrival)
                for unit in how.feed(packet, at):
                    if unit.key:
                        picture = how.picture()
                        if picture is not None and picture != shown:
                            shown = picture
                            self._sink.picture(picture, video.codec_context.name, how.transcoded)
                    if shown is None:
                        continue  # nothing a receiver could start on yet
                    ran = True
                    self._sink.unit(unit, packet.size)
            return ran
        except InputFailed:
            raise
        except Exception as error:
            raise failure(error, source) from None
        finally:
            _close(container)


def _close(container: Any) -> None:
    try:
        container.close()
    except Exception:
        log.debug("closing a live input failed", exc_info=True)
