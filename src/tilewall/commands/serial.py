"""tilewall serial ...: the serial ports of the screens of seats."""

from __future__ import annotations

import base64
import binascii

import click

from tilewall.commands.base import Column, client, interface_group, show, show_list

serial = interface_group("serial", "Serial commands to the screens of seats.")


def _data(text: str, encoding: str) -> bytes:
    try:
        if encoding == "hex":
            return bytes.fromhex(text)
        if encoding == "base64":
            return base64.b64decode(text, validate=True)
        return text.encode("latin-1").decode("unicode_escape").encode("latin-1")
    except UnicodeError:
        raise click.BadParameter(
            "text must be Latin-1 with escapes; give other bytes --as hex", param_hint="DATA"
        ) from None
    except (ValueError, binascii.Error) as error:
        raise click.BadParameter(f"not {encoding}: {error}", param_hint="DATA") from None


@serial.command("send")
@click.argument("seat")
@click.argument("data")
@click.option(
    "--as",
    "encoding",
    type=click.Choice(["text", "hex", "base64"]),
    default="text",
    show_default=True,
    help="How DATA is written; text understands escapes such as \\r and \\x02.",
)
@click.option("--baud", type=int, default=9600, show_default=True)
@click.option("--data-bits", type=int, default=8, show_default=True)
@click.option("--parity", default="NONE", show_default=True, help="NONE, EVEN, ODD, MARK, SPACE.")
@click.option("--stop-bits", type=float, default=1, show_default=True, help="1, 1.5 or 2.")
def send(
    seat: str,
    data: str,
    encoding: str,
    baud: int,
    data_bits: int,
    parity: str,
    stop_bits: float,
) -> None:
    """Send DATA to the screen of SEAT."""
    answer = client().serial.send(
        seat,
        _data(data, encoding),
        baud_rate=baud,
        data_bits=data_bits,
        parity=parity,
        stop_bits=stop_bits,
    )
    show(answer)


@serial.command("history")
@click.argument("seat")
def history(seat: str) -> None:
    """The commands sent to SEAT, oldest first."""
    columns: list[Column] = [
        ("At (ms)", "atMs"),
        ("Data (base64)", lambda r: r["transmit"]["base64_data"]),
        ("Delivered", "delivered"),
        ("Error", "error"),
    ]
    show_list(client().serial.history(seat), columns, "serialCommands")


@serial.command("port")
@click.argument("seat")
@click.argument("port", required=False)
def port(seat: str, port: str | None) -> None:
    """Show the serial port of SEAT, or set it to PORT ('' removes it).

    PORT is a device such as /dev/ttyUSB0, or socket://HOST:PORT, rfc2217://..., loop://.
    """
    host = client()
    show(host.serial.port(seat) if port is None else host.serial.set_port(seat, port))
