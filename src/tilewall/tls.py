"""HTTPS for the host: an operator's certificate and key, or a self-signed certificate
made once and kept in the data directory.

The self-signed certificate names the machine (its host name, its fully qualified name,
every address of its interfaces, ``localhost``, ``127.0.0.1`` and ``::1``) and lasts ten
years; it is made again when its files are missing or it has less than 30 days left.
Clients trust it by its file (``DATA_DIR/tls/self-signed.crt``, a CA file for curl,
httpx or an OS trust store) or by its fingerprints: the SHA-256 of the certificate, as
browsers show it, and the SHA-256 of its public key (SPKI), what Chromium's
``--ignore-certificate-errors-spki-list`` takes.

``cryptography`` and ``psutil`` are imported when a certificate is read or made: a host
serving plain HTTP never loads them (megabytes of memory it would keep).
"""

from __future__ import annotations

import base64
import datetime as dt
import ipaddress
import os
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cryptography import x509

TLS_DIR = "tls"
SELF_SIGNED_CERT = "self-signed.crt"
SELF_SIGNED_KEY = "self-signed.key"
CERT_ENV = "TILEWALL_TLS_CERT"
KEY_ENV = "TILEWALL_TLS_KEY"
VALID_DAYS = 3650
RENEW_DAYS = 30


class TlsError(ValueError):
    """The certificate or key cannot be used; the message says which and why."""


@dataclass(frozen=True)
class TlsFiles:
    cert: Path
    key: Path

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.cert)

    @property
    def spki(self) -> str:
        return spki_hash(self.cert)


def _load(cert: Path) -> x509.Certificate:
    from cryptography import x509

    try:
        return x509.load_pem_x509_certificate(cert.read_bytes())
    except (OSError, ValueError) as error:
        raise TlsError(f"{cert}: not a readable PEM certificate ({error})") from None


def fingerprint(cert: Path) -> str:
    """The SHA-256 fingerprint of the certificate, as browsers show it (AA:BB:...)."""
    from cryptography.hazmat.primitives import hashes

    digest = _load(cert).fingerprint(hashes.SHA256())
    return ":".join(f"{byte:02X}" for byte in digest)


def spki_hash(cert: Path) -> str:
    """Base64 of the SHA-256 of the certificate's public key (SubjectPublicKeyInfo)."""
    from cryptography.hazmat.primitives import hashes, serialization

    spki = (
        _load(cert)
        .public_key()
        .public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    digester = hashes.Hash(hashes.SHA256())
    digester.update(spki)
    return base64.b64encode(digester.finalize()).decode()


def check(files: TlsFiles) -> TlsFiles:
    """``files`` if the certificate and key load and belong together; TlsError if not."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    for path in (files.cert, files.key):
        if not path.is_file():
            raise TlsError(f"{path}: no such file")
    try:
        context.load_cert_chain(files.cert, files.key)
    except (OSError, ssl.SSLError) as error:
        raise TlsError(f"{files.cert} and {files.key} cannot be used together: {error}") from None
    return files


def machine_names() -> tuple[list[str], list[str]]:
    """The names and addresses the self-signed certificate is made for."""
    import psutil

    names = ["localhost"]
    for name in (socket.gethostname(), socket.getfqdn()):
        if name and name not in names:
            names.append(name)
    addresses = ["127.0.0.1", "::1"]
    for entries in psutil.net_if_addrs().values():
        for entry in entries:
            if entry.family in (socket.AF_INET, socket.AF_INET6):
                address = entry.address.split("%", 1)[0]
                if address not in addresses:
                    addresses.append(address)
    return names, addresses


def _make(cert: Path, key_path: Path) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    names, addresses = machine_names()
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"tilewall {names[-1]}"[:64])])
    now = dt.datetime.now(dt.UTC)
    alternative: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    alternative += [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert.parent.mkdir(parents=True, exist_ok=True)
    cert.parent.chmod(0o700)
    # the key is private from its first byte
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))


def self_signed(data_dir: Path) -> tuple[TlsFiles, bool]:
    """The data directory's self-signed certificate and key, made if missing or about to
    expire; and whether they were made now."""
    folder = data_dir / TLS_DIR
    files = TlsFiles(folder / SELF_SIGNED_CERT, folder / SELF_SIGNED_KEY)
    if files.cert.is_file() and files.key.is_file():
        left = _load(files.cert).not_valid_after_utc - dt.datetime.now(dt.UTC)
        if left > dt.timedelta(days=RENEW_DAYS):
            return check(files), False
    _make(files.cert, files.key)
    return check(files), True


def files_for(
    data_dir: Path, cert: Path | None, key: Path | None, mode: str | None
) -> tuple[TlsFiles | None, list[str]]:
    """What ``serve`` was asked for (``--tls self-signed``, or ``--tls-cert`` with
    ``--tls-key``), checked; None for plain HTTP; and the lines to tell the operator."""
    if mode is not None and (cert or key):
        raise TlsError("give --tls self-signed or --tls-cert/--tls-key, not both")
    if (cert is None) != (key is None):
        raise TlsError("--tls-cert and --tls-key go together")
    notes = []
    if mode == "self-signed":
        data_dir.mkdir(parents=True, exist_ok=True)
        files, made = self_signed(data_dir)
        notes.append(f"self-signed certificate {files.cert} ({'made' if made else 'kept'})")
    elif cert is not None and key is not None:
        files = check(TlsFiles(cert.resolve(), key.resolve()))
    else:
        return None, []
    notes.append(f"TLS certificate SHA-256 fingerprint: {files.fingerprint}")
    notes.append(f"TLS public key SHA-256 (SPKI, base64): {files.spki}")
    return files, notes
