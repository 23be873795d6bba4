"""Licences as signed activation codes.

A code is ``TW1.<payload>.<signature>``: the payload is compact JSON of the licence
terms, the signature is Ed25519 over the ASCII bytes of ``TW1.<payload>``, and both
are unpadded base64url. The payload names the signing key by its id, so a host can
tell a code from an unknown issuer from a forged one.

``cryptography`` (some megabytes of code and library) is imported when a key is first
used, not with this module: a host with no trusted keys never loads it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import secrets
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from tilewall.host.errors import Invalid
from tilewall.host.model import Licence

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (
        Ed25519PrivateKey,
        Ed25519PublicKey,
    )

PREFIX = "TW1"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_B64URL = re.compile(r"^[A-Za-z0-9_-]+$")


class LicenceError(Invalid):
    """An activation code this host does not accept; the message says why."""


class MalformedCode(LicenceError):
    """The text is not an activation code at all."""


class UntrustedCode(LicenceError):
    """Signed by a key this host does not trust, or not validly signed."""


class ExpiredCode(LicenceError):
    pass


class ForeignCode(LicenceError):
    """Bound to another system id."""


class StationLimitExceeded(LicenceError):
    pass


@dataclass(frozen=True)
class LicenceTerms:
    """What a licence grants. ``None`` stations means unlimited; ``None`` source types
    means all; an empty ``system_id`` binds to no system; an empty ``expires`` never
    expires. Dates are ``YYYY-MM-DD``."""

    reseller_name: str
    number_of_stations: int | None
    issued: str
    expires: str = ""
    support_expires: str = ""
    system_id: str = ""
    video_wall_module: str = "enabled"
    fast_video_feature: bool = False
    session_management: bool = True
    source_types: list[str] | None = None
    #: makes two otherwise equal licences distinct codes
    serial: str = field(default_factory=lambda: secrets.token_hex(8))


@dataclass(frozen=True)
class VerifiedLicence:
    terms: LicenceTerms
    code: str
    key_id: str


# --- keys -----------------------------------------------------------------------------


def _b64e(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _b64d(text: str) -> bytes:
    if not _B64URL.match(text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def generate_signing_key() -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.generate()


def private_key_pem(key: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")


def public_key_text(key: Ed25519PublicKey | Ed25519PrivateKey) -> str:
    """The raw 32-byte public key as base64url: short enough for a config file."""
    return _b64e(_raw_public(key))


def load_private_key(text: str) -> Ed25519PrivateKey:
    """A private key from PEM (PKCS#8) or the raw 32-byte seed in base64url."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    text = text.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(text.encode("ascii"), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError("not an Ed25519 private key")
        return key
    return Ed25519PrivateKey.from_private_bytes(_b64d(text))


def load_public_key(text: str) -> Ed25519PublicKey:
    """A public key from PEM or the raw 32 bytes in base64url."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    text = text.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_public_key(text.encode("ascii"))
        if not isinstance(key, Ed25519PublicKey):
            raise ValueError("not an Ed25519 public key")
        return key
    return Ed25519PublicKey.from_public_bytes(_b64d(text))


def key_id(key: Ed25519PublicKey | Ed25519PrivateKey) -> str:
    """First 8 bytes of the SHA-256 of the raw public key, hex."""
    return hashlib.sha256(_raw_public(key)).hexdigest()[:16]


def _raw_public(key: Ed25519PublicKey | Ed25519PrivateKey) -> bytes:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


# --- codes ----------------------------------------------------------------------------


def _check_terms(terms: LicenceTerms) -> None:
    """Raise ValueError for terms no code should carry."""
    for name in ("issued", "expires", "support_expires"):
        value = getattr(terms, name)
        if value or name == "issued":
            if not isinstance(value, str) or not _DATE.match(value):
                raise ValueError(f"{name} must be a date YYYY-MM-DD, not {value!r}")
            try:
                date.fromisoformat(value)
            except ValueError:
                raise ValueError(f"{name} {value!r} is not a calendar date") from None
    stations = terms.number_of_stations
    if stations is not None and (
        not isinstance(stations, int) or isinstance(stations, bool) or stations < 1
    ):
        raise ValueError(f"number_of_stations must be a positive integer or None, not {stations!r}")
    if terms.source_types is not None and not all(isinstance(t, str) for t in terms.source_types):
        raise ValueError("source_types must be a list of strings or None")
    for name in ("reseller_name", "system_id", "video_wall_module", "serial"):
        if not isinstance(getattr(terms, name), str):
            raise ValueError(f"{name} must be a string")
    for name in ("fast_video_feature", "session_management"):
        if not isinstance(getattr(terms, name), bool):
            raise ValueError(f"{name} must be true or false")


def issue(private_key: Ed25519PrivateKey, terms: LicenceTerms) -> str:
    """Sign ``terms`` into an activation code."""
    _check_terms(terms)
    body = {"kid": key_id(private_key), **asdict(terms)}
    payload = _b64e(json.dumps(body, separators=(",", ":"), sort_keys=True).encode())
    signed = f"{PREFIX}.{payload}"
    return f"{signed}.{_b64e(private_key.sign(signed.encode('ascii')))}"


def _parse(code: str) -> tuple[str, dict[str, Any], bytes]:
    parts = code.strip().split(".")
    if len(parts) != 3 or parts[0] != PREFIX:
        raise MalformedCode(f"activation code must look like {PREFIX}.<payload>.<signature>")
    try:
        body = json.loads(_b64d(parts[1]))
        signature = _b64d(parts[2])
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise MalformedCode("activation code is damaged: it does not decode") from None
    if not isinstance(body, dict):
        raise MalformedCode("activation code is damaged: no licence inside")
    return f"{parts[0]}.{parts[1]}", body, signature


def _terms(body: dict[str, Any]) -> LicenceTerms:
    names = set(LicenceTerms.__dataclass_fields__)
    try:
        terms = LicenceTerms(**{k: v for k, v in body.items() if k in names})
        _check_terms(terms)
    except (TypeError, ValueError) as error:
        raise MalformedCode(f"activation code carries an invalid licence: {error}") from None
    return terms


def verify(
    code: str,
    trusted: Iterable[Ed25519PublicKey | str],
    today: date,
    system_id: str | None = None,
) -> VerifiedLicence:
    """Check a code's signature, dates and system binding; return what it grants.

    ``trusted`` holds keys or their :func:`public_key_text`. ``system_id``, when given,
    must match a code bound to a system.
    """
    from cryptography.exceptions import InvalidSignature

    signed, body, signature = _parse(code)
    kid = body.get("kid")
    keys = [load_public_key(k) if isinstance(k, str) else k for k in trusted]
    key = next((k for k in keys if key_id(k) == kid), None)
    if key is None:
        raise UntrustedCode("activation code was issued by a key this host does not trust")
    try:
        key.verify(signature, signed.encode("ascii"))
    except InvalidSignature:
        raise UntrustedCode("activation code signature is not valid") from None
    # only signed content is interpreted, so damage found now was put there by the issuer
    terms = _terms(body)
    if terms.expires and terms.expires < today.isoformat():
        raise ExpiredCode(f"activation code expired on {terms.expires}")
    if system_id is not None and terms.system_id and terms.system_id != system_id:
        raise ForeignCode(f"activation code is for system {terms.system_id}, not this host")
    return VerifiedLicence(terms, code.strip(), str(kid))


def to_licence(verified: VerifiedLicence, number_of_stations: int | None = None) -> Licence:
    """The host's licence struct; stations default to what the code allows."""
    t = verified.terms
    return Licence(
        reseller_name=t.reseller_name,
        number_of_stations=(
            number_of_stations if number_of_stations is not None else t.number_of_stations
        ),
        system_id=t.system_id,
        issued=t.issued,
        expires=t.expires,
        support_expires=t.support_expires,
        video_wall_module=t.video_wall_module,
        fast_video_feature=t.fast_video_feature,
        session_management=t.session_management,
        source_types=list(t.source_types) if t.source_types is not None else None,
        code=verified.code,
    )


@dataclass(frozen=True)
class Activation:
    kind: Literal["claimed", "raised", "replaced"]
    licence: Licence


def activate(
    current: Licence | None, new: VerifiedLicence, requested_stations: int | None
) -> Activation:
    """Claim a first licence, change the station count of the same code, or replace.

    ``requested_stations`` of ``None`` or 0 asks for all the code allows; more than it
    allows is refused. With the code already held, any count up to the code's is taken
    ("raised" also covers lowering, which frees seats and harms nothing).
    """
    if requested_stations is not None and (
        isinstance(requested_stations, bool) or requested_stations < 0
    ):
        raise LicenceError(f"numberOfStations {requested_stations!r} is not a count of displays")
    allowed = new.terms.number_of_stations
    wanted = requested_stations or None
    if wanted is not None and allowed is not None and wanted > allowed:
        raise StationLimitExceeded(f"the activation code allows {allowed} stations, not {wanted}")
    licence = to_licence(new, wanted if wanted is not None else allowed)
    if current is None or not current.code:
        return Activation("claimed", licence)
    if current.code == new.code:
        return Activation("raised", licence)
    return Activation("replaced", licence)
