"""Licence rules: how many stations may be locked, which source types may be used; and
the licence's life: activation from a signed code, removal, backup.

A host without a licence is unrestricted; a licence, once held, limits both.
"""

from collections.abc import Sequence
from datetime import date

from tilewall.host.errors import Conflict, Forbidden, NotFound
from tilewall.host.licence import codes
from tilewall.host.memory import Transaction
from tilewall.host.model import Licence
from tilewall.host.state import Core

SETTING = "licence"
BACKUP_HEADER = "# tilewall licence backup"


class LicenceRefused(Forbidden):
    """A well-formed activation code this host will not take: unknown issuer, forged,
    expired, or bound to another system."""


def extract_code(text: str) -> tuple[str, int | None]:
    """The activation code in ``text``: a bare code, or a backup file made by
    :meth:`LicenceRules.backup` (comment lines, then the code). Also the station count
    the backup recorded, if any."""
    stations: int | None = None
    code_lines = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("#"):
            key, _, value = line.lstrip("#").partition(":")
            if key.strip().lower() == "licensed stations" and value.strip().isdigit():
                stations = int(value.strip())
        elif line:
            code_lines.append(line)
    if len(code_lines) > 1:
        raise codes.MalformedCode("more than one activation code given")
    return (code_lines[0] if code_lines else ""), stations


class LicenceRules:
    def __init__(self, core: Core, trusted_keys: Sequence[str] = ()) -> None:
        self._core = core
        #: issuer public keys (base64url text) whose codes this host accepts
        self.trusted_keys: tuple[str, ...] = tuple(trusted_keys)

    def current(self) -> Licence | None:
        raw = self._core.state.settings.get(SETTING)
        return None if raw is None else self._core.setting(SETTING, Licence, Licence())

    def require(self) -> Licence:
        licence = self.current()
        if licence is None:
            raise NotFound("license not found: this host holds no licence")
        return licence

    def set(self, tx: Transaction, licence: Licence | None) -> None:
        tx.put_setting(SETTING, licence)

    def check_source_type(self, source_type: str) -> None:
        licence = self.current()
        if licence is None or licence.source_types is None:
            return
        if source_type not in licence.source_types:
            raise Forbidden(f"the licence does not allow sources of type {source_type!r}")

    def locked_count(self) -> int:
        return sum(1 for s in self._core.state.stations.values() if s.locked)

    def check_station_capacity(self, locked_now: int) -> None:
        licence = self.current()
        if licence is None or licence.number_of_stations is None:
            return
        if locked_now >= licence.number_of_stations:
            raise Forbidden(
                f"the licence allows {licence.number_of_stations} stations and "
                f"{locked_now} are locked"
            )

    # activation

    async def activate(
        self, text: str, requested_stations: int | None, system_id: str, today: date
    ) -> codes.Activation:
        """Claim, raise or replace the licence with an activation code (or a backup).

        A code that does not parse is :class:`~codes.MalformedCode` (Invalid); one
        from an untrusted or forged signer, expired, or bound to another system is
        :class:`LicenceRefused` (Forbidden); asking for more stations than the code
        allows is Invalid; a count below the stations locked now is a Conflict.
        """
        code, backed_up = extract_code(text)
        if not code:
            raise codes.MalformedCode("activationCode must not be empty")
        if requested_stations is None or requested_stations == 0:
            requested_stations = backed_up
        try:
            verified = codes.verify(code, self.trusted_keys, today, system_id)
        except (codes.UntrustedCode, codes.ExpiredCode, codes.ForeignCode) as error:
            raise LicenceRefused(str(error)) from error
        activation = codes.activate(self.current(), verified, requested_stations)
        limit = activation.licence.number_of_stations
        locked = self.locked_count()
        if limit is not None and locked > limit:
            raise Conflict(
                f"{locked} stations are locked but the licence would allow {limit}; "
                "unlock stations first or ask for more"
            )
        async with self._core.change() as tx:
            self.set(tx, activation.licence)
        return activation

    async def remove(self) -> Licence:
        licence = self.require()
        async with self._core.change() as tx:
            self.set(tx, None)
        return licence

    def backup(self) -> tuple[str, str]:
        """A file name and the text of a licence backup: readable comment lines, then
        the code. PUT it back (whole, as ``activationCode``) to restore the licence."""
        licence = self.require()
        if not licence.code:
            raise NotFound("the licence has no activation code to back up")
        stations = licence.number_of_stations
        lines = [
            BACKUP_HEADER,
            f"# Reseller: {licence.reseller_name}",
            f"# System id: {licence.system_id or 'any'}",
            f"# Licensed stations: {'unlimited' if stations is None else stations}",
            f"# Issued: {licence.issued}",
            f"# Expires: {licence.expires or 'never'}",
            f"# Support expires: {licence.support_expires or 'none'}",
            f"# Source types: {', '.join(licence.source_types) if licence.source_types is not None else 'all'}",
            "# Restore: PUT /api/system/license with this whole text as activationCode",
            licence.code,
            "",
        ]
        name = f"tilewall-licence-{licence.system_id or 'unbound'}.txt"
        return name, "\n".join(lines)
