"""Serial commands to the display of a seat; the record of commands and the seat's
serial port are tilewall extensions."""

from __future__ import annotations

import base64

from tilewall.client.base import Items, Json, Resource, seg


class Serial(Resource):
    def send(
        self,
        seat_id: str,
        data: bytes,
        *,
        baud_rate: int = 9600,
        data_bits: int = 8,
        parity: str = "NONE",
        stop_bits: float = 1,
    ) -> Json:
        """Write ``data`` to the seat's serial port; the answer is the command's record
        (``delivered``, and ``error`` when it was not)."""
        body = {
            "serialSettings": {
                "baudRate": baud_rate,
                "dataBits": data_bits,
                "parity": parity,
                "stopBits": int(stop_bits) if float(stop_bits).is_integer() else stop_bits,
            },
            "transmit": {"base64_data": base64.b64encode(data).decode("ascii")},
        }
        return self._t.json("POST", "/serial" + seg(seat_id), json=body)

    def history(self, seat_id: str) -> Items:
        """The commands recorded for the seat, oldest first."""
        return self._t.array("GET", "/serial" + seg(seat_id), "serialCommands")

    def port(self, seat_id: str) -> Json:
        """``{port}``: the seat's serial port ('' when it has none)."""
        return self._t.json("GET", f"/serial{seg(seat_id)}/port")

    def set_port(self, seat_id: str, port: str) -> Json:
        """Give the seat a port: ``/dev/ttyUSB0``, ``socket://host:port``,
        ``rfc2217://...``, ``loop://``; '' removes it."""
        return self._t.json("PUT", f"/serial{seg(seat_id)}/port", json={"port": port})
