"""The interface log, written off the request path.

One line per HTTP request (client address, method, path, status, milliseconds) goes to
the ``tilewall.access`` logger, whose handlers the server sets (``DATA_DIR/logs/api.log``,
rotated; and, propagated, the server's console). A request only puts the line's fields
on a queue; one thread makes the log records and hands them to the logger's handlers
in batches (what queued up within :data:`GATHER_S` of a first line: one write and one
flush per file or stream, rotation checked by size as ``RotatingFileHandler`` does), so
formatting, rotation checks and writes cost a request nothing, and the thread wakes a
few times a second under load rather than once a request. Readers of the log (``GET /system/apilog``, troubleshooting reports) call
:func:`flush` first, so they see every request answered before them.
"""

import logging
import logging.handlers
import queue
import threading
import time
from typing import Any

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

LOG = logging.getLogger("tilewall.access")
FORMAT = '%s "%s %s" %s %.1fms'
#: how long :func:`flush` waits for the lines logged before it at most
FLUSH_TIMEOUT_S = 5.0
#: how long the writer lets lines gather after the first of a batch
GATHER_S = 0.1

#: (time, client, method, path, status, ms); an Event to set once what came before it
#: is written
_Item = tuple[float, str, str, str, int, float] | threading.Event


class _Writer:
    def __init__(self, logger: logging.Logger) -> None:
        self._logger = logger
        self._queue: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        #: set by a flush: write what gathered now
        self._wake = threading.Event()

    def put(self, item: _Item) -> None:
        if self._thread is None:
            self._start()
        self._queue.put(item)

    def _start(self) -> None:
        with self._start_lock:
            if self._thread is None:
                thread = threading.Thread(target=self._run, name="tilewall-access-log", daemon=True)
                thread.start()
                self._thread = thread

    def flush(self, timeout_s: float = FLUSH_TIMEOUT_S) -> bool:
        """Wait until every line put before is handed to the handlers; False on timeout."""
        if self._thread is None:
            return True
        done = threading.Event()
        self._queue.put(done)
        self._wake.set()
        return done.wait(timeout_s)

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            if not isinstance(batch[0], threading.Event):
                self._wake.wait(GATHER_S)
            self._wake.clear()
            while True:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            lines = [item for item in batch if not isinstance(item, threading.Event)]
            try:
                if lines:
                    self._write(lines)
            except Exception:  # a handler that fails must not stop the log
                logging.getLogger(__name__).exception("could not write the interface log")
            for item in batch:
                if isinstance(item, threading.Event):
                    item.set()

    def _write(self, lines: list[tuple[float, str, str, str, int, float]]) -> None:
        logger = self._logger
        if logger.disabled or not logger.isEnabledFor(logging.INFO):
            return
        # one record made, the others copied from it (``LogRecord()`` is the larger part
        # of a line's cost); each has its message made once, not once per handler
        template = logger.makeRecord(logger.name, logging.INFO, __file__, 0, "", (), None)
        fields = template.__dict__
        records = []
        for created, *args in lines:
            record = logging.LogRecord.__new__(logging.LogRecord)
            record.__dict__.update(fields)
            record.msg = FORMAT % tuple(args)
            # the time of the request, not of the writing
            record.created = created
            record.msecs = (created - int(created)) * 1000
            if logger.filter(record):
                records.append(record)
        # the handlers Logger.callHandlers would call: the logger's, then its ancestors'
        current: logging.Logger | None = logger
        while current is not None:
            for handler in current.handlers:
                _emit(handler, records)
            current = current.parent if current.propagate else None


def _emit(handler: logging.Handler, records: list[logging.LogRecord]) -> None:
    """Hand ``records`` to ``handler``: files and streams in one write."""
    records = [r for r in records if r.levelno >= handler.level and handler.filter(r)]
    if not records:
        return
    if isinstance(handler, logging.handlers.RotatingFileHandler):
        _emit_rotating(handler, records)
    elif isinstance(handler, logging.StreamHandler) and not isinstance(
        handler, logging.handlers.BaseRotatingHandler
    ):
        _emit_stream(handler, records)
    else:
        for record in records:
            handler.handle(record)


def _emit_stream(handler: logging.StreamHandler[Any], records: list[logging.LogRecord]) -> None:
    handler.acquire()
    try:
        if getattr(handler, "stream", None) is None:  # a FileHandler not yet open
            for record in records:
                handler.emit(record)
            return
        text = "".join(handler.format(r) + handler.terminator for r in records)
        handler.stream.write(text)
        handler.flush()
    except Exception:
        handler.handleError(records[-1])
    finally:
        handler.release()


def _emit_rotating(
    handler: logging.handlers.RotatingFileHandler, records: list[logging.LogRecord]
) -> None:
    """Write the lines, rolling the file over before a line that would reach
    ``maxBytes`` (as ``RotatingFileHandler`` does line by line)."""
    handler.acquire()
    try:
        if handler.stream is None:
            handler.stream = handler._open()
        position = handler.stream.tell()
        chunk: list[str] = []
        for record in records:
            line = handler.format(record) + handler.terminator
            if handler.maxBytes > 0 and position > 0 and position + len(line) >= handler.maxBytes:
                handler.stream.write("".join(chunk))
                chunk = []
                handler.doRollover()
                if handler.stream is None:
                    handler.stream = handler._open()
                position = 0
            chunk.append(line)
            position += len(line)
        handler.stream.write("".join(chunk))
        handler.flush()
    except Exception:
        handler.handleError(records[-1])
    finally:
        handler.release()


_WRITER = _Writer(LOG)


def record(scope: Scope, status: int, started: float) -> None:
    """The line of an answered request (``started``: its ``time.perf_counter()``)."""
    client: Any = scope.get("client") or ("-", 0)
    _WRITER.put(
        (
            time.time(),
            client[0],
            str(scope.get("method", "-")),
            scope["path"],
            status,
            (time.perf_counter() - started) * 1000,
        )
    )


class LineFormatter(logging.Formatter):
    """``%(asctime)s %(message)s`` for the interface log file, its date and time made
    once a second (the log's writer formats thousands of lines a second under load)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(message)s")
        self._second = -1
        self._text = ""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        second = int(record.created)
        if second != self._second:
            self._text = time.strftime(self.default_time_format, self.converter(record.created))
            self._second = second
        return f"{self._text},{int(record.msecs):03d}"  # logging's default_msec_format


def flush(timeout_s: float = FLUSH_TIMEOUT_S) -> bool:
    """Wait until every request answered so far is in the log's handlers."""
    return _WRITER.flush(timeout_s)


def access_log(app: ASGIApp) -> ASGIApp:
    """Middleware: one line per HTTP request in the interface log, off the request path."""
    perf_counter = time.perf_counter

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        started = perf_counter()
        status = 0

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await app(scope, receive, send_wrapper)
        finally:
            record(scope, status, started)

    return middleware
