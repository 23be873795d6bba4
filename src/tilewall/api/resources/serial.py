"""Serial commands to the display of a seat; reading them back is a tilewall extension.

Commands are written to the seat's serial port (given with the extension
``PUT /serial/{seatID}/port``), recorded, and answered with their record.
"""

from typing import Annotated

import msgspec
from litestar import get, post, put

from tilewall.api.common import documented, errors, extension
from tilewall.host.host import Host
from tilewall.host.model import SerialRecord

TAGS = ["Serial"]
PATH = "/serial/{seatID:str}"


_PARITY = r"^\s*(?:[Nn](?:[Oo][Nn][Ee])?|[Ee](?:[Vv][Ee][Nn])?|[Oo](?:[Dd][Dd])?|[Mm](?:[Aa][Rr][Kk])?|[Ss](?:[Pp][Aa][Cc][Ee])?)\s*$"
_BASE64 = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$"


# the seat is looked up before the settings are checked (404 before 400): the host checks
# these bounds itself
class SerialSettingsBody(msgspec.Struct):
    baudRate: Annotated[int, documented(minimum=50, maximum=4_000_000)]
    dataBits: Annotated[int, documented(enum=[5, 6, 7, 8])]
    #: N, E, O, M, S or NONE, EVEN, ODD, MARK, SPACE (any case)
    parity: Annotated[str, documented(pattern=_PARITY)]
    #: 1, 1.5 or 2
    stopBits: Annotated[int | float, documented(one_of=[{"type": "number", "enum": [1, 1.5, 2]}])]


class Transmit(msgspec.Struct):
    #: 1 to 65536 bytes, in standard base64 with padding
    base64_data: Annotated[str, documented(min_length=4, max_length=87_384, pattern=_BASE64)]


class SerialCommand(msgspec.Struct):
    serialSettings: SerialSettingsBody
    transmit: Transmit


class SerialCommandRecord(msgspec.Struct):
    seatID: str
    #: host time of the command, milliseconds since the epoch
    atMs: int
    serialSettings: SerialSettingsBody
    transmit: Transmit
    delivered: bool
    #: why the command was not delivered, if it was sent and failed
    error: str


class SerialCommandList(msgspec.Struct):
    serialCommands: list[SerialCommandRecord]


def shape(record: SerialRecord) -> SerialCommandRecord:
    stop = record.stop_bits
    return SerialCommandRecord(
        record.seat_id,
        record.at_ms,
        SerialSettingsBody(
            record.baud_rate,
            record.data_bits,
            record.parity,
            int(stop) if float(stop).is_integer() else stop,
        ),
        Transmit(record.data_b64),
        record.delivered,
        record.error,
    )


@post(
    PATH,
    status_code=200,
    tags=TAGS,
    summary="Send a serial command to the display of a seat",
    responses=errors(404, 409, 503),
)
async def send_command(host: Host, seatID: str, data: SerialCommand) -> SerialCommandRecord:
    s = data.serialSettings
    record = await host.serial.command(
        seatID, s.baudRate, s.dataBits, s.parity, s.stopBits, data.transmit.base64_data
    )
    return shape(record)


@extension(
    get, PATH, TAGS, "The serial commands recorded for a seat, oldest first (the last 100)", 404
)
async def list_commands(host: Host, seatID: str) -> SerialCommandList:
    records = host.serial.records(seatID)
    return SerialCommandList([shape(r) for r in records])


class SerialPortBody(msgspec.Struct):
    port: Annotated[
        str,
        msgspec.Meta(
            pattern=r"^\s*(?:/dev(?:/[^\x00]*)?|(?:socket|rfc2217)://(?:\[[0-9A-Fa-f:.]+\]|[^\s/:@\[\]]+):[0-9]{1,5}(?:[/?#][^\s]*)?|loop://[^\s]*)?\s*$",
            description="A device under /dev (no '..'), socket://host:port, "
            "rfc2217://host:port (port up to 65535) or loop://; blank removes the port.",
        ),
    ]


@extension(get, f"{PATH}/port", TAGS, "The serial port of a seat", 404)
async def get_port(host: Host, seatID: str) -> SerialPortBody:
    return SerialPortBody(host.serial.port(seatID))


@extension(
    put,
    f"{PATH}/port",
    TAGS,
    "Give a seat a serial port: /dev/... or socket://, rfc2217://, loop:// ('' removes)",
    404,
    description="A device path has no '..'; a port number is at most 65535; a bracketed host is an "
    "IPv6 address: 400 otherwise.",
)
async def put_port(host: Host, seatID: str, data: SerialPortBody) -> SerialPortBody:
    return SerialPortBody(await host.serial.set_port(seatID, data.port))


ROUTES = [send_command, list_commands, get_port, put_port]
