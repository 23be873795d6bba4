"""How a host is set up: whether it may change the machine, and whose licences it trusts.

Host management is off unless ``--host-management`` is given or the environment has
``TILEWALL_HOST_MANAGEMENT=1``: without it, host name, time zone, network, power,
packages and remote control are simulated (kept in the host's settings), so a host
started on a laptop or in tests never reboots or reconfigures the machine.

Trusted licence keys are Ed25519 public keys, each in PEM or as the raw 32 bytes in
base64url (what ``tilewall license keygen`` writes), read from
``DATA_DIR/trusted-keys/*.pub`` and from ``TILEWALL_LICENCE_KEYS`` (raw keys separated
by commas or white space). A key that cannot be read stops the host from starting:
a typo there would otherwise show up only as refused licences.

The host keeps its state in SQLite in the data directory unless ``--database`` or
``TILEWALL_DATABASE`` names a PostgreSQL database
(``postgresql://USER:PASSWORD@HOST:PORT/DATABASE``), the one a group of hosts shares;
the data directory still holds logs, media and local files.

``TILEWALL_START_LEAD_MS`` (0..5000, default ``timeline.START_LEAD_MS``) is how long
after a switch, resume or seek every receiver starts, all at that one host instant
(docs/protocol.md, "Playing to the timeline").

``TILEWALL_LIVE_DELAY_MS`` (0..5000, or ``auto``, the default) is how long after a live
frame reaches the host every receiver presents it (docs/live.md): room for the network
and decoding, the same on every tile. ``auto`` starts each stream at 50 ms and follows
what its receivers report they need; a number fixes it.

``TILEWALL_GROUP_LEASE_MS`` (3000..60000, default 5000) is the lease time of a group's
active member (docs/architecture.md, "The lease"): an active host that has not renewed
its lease for this long is replaced. Shorter takes over sooner after a freeze; longer
tolerates longer pauses of a loaded machine without a takeover.

Media live in ``DATA_DIR/media`` unless ``--media-dir`` or ``TILEWALL_MEDIA_DIR`` names
another directory: the members of a group share one (a network file system, say), so
that the media every source names are there on whichever member is active.
``--advertise`` (``TILEWALL_ADVERTISE``), ``http://HOST:PORT``, is where the other
members of a group and the receivers reach this host; by default the address it binds
(or, bound to every address, the machine's primary IPv4) and its port.
"""

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tilewall.host.playback.timeline import START_LEAD_MS

HOST_MANAGEMENT_ENV = "TILEWALL_HOST_MANAGEMENT"
LICENCE_KEYS_ENV = "TILEWALL_LICENCE_KEYS"
DATABASE_ENV = "TILEWALL_DATABASE"
MEDIA_DIR_ENV = "TILEWALL_MEDIA_DIR"
ADVERTISE_ENV = "TILEWALL_ADVERTISE"
START_LEAD_ENV = "TILEWALL_START_LEAD_MS"
LIVE_DELAY_ENV = "TILEWALL_LIVE_DELAY_MS"
GROUP_LEASE_ENV = "TILEWALL_GROUP_LEASE_MS"
GROUP_LEASE_MS = 5000
_ADVERTISE = re.compile(r"https?://[^\s/?#]+")
_DATABASE_URL = re.compile(r"(postgres|postgresql)(\+asyncpg)?://\S*|sqlite(\+aiosqlite)?:///\S+")
TRUSTED_KEYS_DIR = "trusted-keys"
_TRUE = {"1", "true", "yes", "on"}


class ConfigError(ValueError):
    """The configuration cannot be used; the message names what and where."""


@dataclass(frozen=True)
class Config:
    host_management: bool = False
    #: public keys as base64url text (see :func:`tilewall.host.licence.codes.public_key_text`)
    trusted_keys: tuple[str, ...] = ()
    #: how long a simulated network update keeps reads busy
    network_apply_seconds: float = 2.0
    #: where each trusted key came from, by key id; shown in troubleshooting reports
    key_sources: Mapping[str, str] = field(default_factory=dict)
    #: the database URL of the host's store; None: SQLite in the data directory
    database: str | None = None
    #: the media library; None: ``DATA_DIR/media``
    media_dir: Path | None = None
    #: where other members and receivers reach this host (``http://HOST:PORT``)
    advertise: str | None = None
    #: receivers start a timeline just anchored this long after it, all together
    start_lead_ms: int = START_LEAD_MS
    #: receivers present a live frame this long after it reached the host
    #: a fixed delay, or None: the delay follows the receivers (``auto``)
    live_delay_ms: int | None = None
    #: a group's active member not heard from for this long is replaced
    group_lease_ms: int = GROUP_LEASE_MS

    @classmethod
    def load(
        cls,
        data_dir: Path,
        host_management: bool | None = None,
        env: Mapping[str, str] | None = None,
        database: str | None = None,
        media_dir: Path | None = None,
        advertise: str | None = None,
    ) -> "Config":
        """The configuration of a host in ``data_dir``.

        ``host_management`` True (the command-line flag) turns management on; otherwise
        the environment decides; so it does for ``database`` (``--database``) when None.
        """
        env = os.environ if env is None else env
        managed = bool(host_management) or env.get(HOST_MANAGEMENT_ENV, "").strip().lower() in _TRUE
        keys: dict[str, str] = {}
        sources: dict[str, str] = {}
        folder = data_dir / TRUSTED_KEYS_DIR
        if folder.is_dir():
            for path in sorted(folder.glob("*.pub")):
                where = f"{TRUSTED_KEYS_DIR}/{path.name}"
                text = _read_key(path.read_text(), where)
                kid = _key_id(text)
                keys.setdefault(kid, text)
                sources.setdefault(kid, where)
        for n, raw in enumerate(re.split(r"[,\s]+", env.get(LICENCE_KEYS_ENV, "").strip())):
            if raw:
                text = _read_key(raw, f"{LICENCE_KEYS_ENV} item {n + 1}")
                kid = _key_id(text)
                keys.setdefault(kid, text)
                sources.setdefault(kid, LICENCE_KEYS_ENV)
        url = (database or env.get(DATABASE_ENV, "")).strip() or None
        if url is not None and not _DATABASE_URL.fullmatch(url):
            raise ConfigError(
                f"--database/{DATABASE_ENV} is not a PostgreSQL URL: "
                "use postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
            )
        media = media_dir or (Path(env[MEDIA_DIR_ENV]) if env.get(MEDIA_DIR_ENV) else None)
        given = (advertise or env.get(ADVERTISE_ENV, "")).strip().rstrip("/")
        if given and not _ADVERTISE.fullmatch(given):
            raise ConfigError(
                f"--advertise/{ADVERTISE_ENV} must be http://HOST:PORT (or https://), not {given!r}"
            )
        lead = env.get(START_LEAD_ENV, "").strip()
        if lead and not (lead.isdigit() and int(lead) <= 5000):
            raise ConfigError(f"{START_LEAD_ENV} must be milliseconds from 0 to 5000, not {lead!r}")
        delay = env.get(LIVE_DELAY_ENV, "").strip()
        if delay == "auto":
            delay = ""
        if delay and not (delay.isdigit() and int(delay) <= 5000):
            raise ConfigError(
                f"{LIVE_DELAY_ENV} must be auto or milliseconds from 0 to 5000, not {delay!r}"
            )
        lease = env.get(GROUP_LEASE_ENV, "").strip()
        if lease and not (lease.isdigit() and 3000 <= int(lease) <= 60000):
            raise ConfigError(
                f"{GROUP_LEASE_ENV} must be milliseconds from 3000 to 60000, not {lease!r}"
            )
        return cls(
            managed,
            tuple(keys.values()),
            key_sources=sources,
            database=url,
            media_dir=media.resolve() if media else None,
            advertise=given or None,
            start_lead_ms=int(lead) if lead else START_LEAD_MS,
            live_delay_ms=int(delay) if delay else None,
            group_lease_ms=int(lease) if lease else GROUP_LEASE_MS,
        )


# the licensing module (and its cryptography) is loaded only when there are keys to read


def _key_id(text: str) -> str:
    from tilewall.host.licence.codes import key_id, load_public_key

    return key_id(load_public_key(text))


def _read_key(text: str, where: str) -> str:
    from tilewall.host.licence.codes import load_public_key, public_key_text

    try:
        return public_key_text(load_public_key(text))
    except (ValueError, TypeError) as error:
        raise ConfigError(f"{where} is not an Ed25519 public key: {error}") from None
