"""tilewall license ...: licence signing keys and the activation codes signed with them.
The command says ``license``, the interface's spelling; the code says ``licence``
(docs/architecture.md)."""

import os
import sys
from datetime import date
from pathlib import Path

import click

from tilewall import LazyConsole
from tilewall.cli.local import needs_server

console = LazyConsole()


@click.group("license")
def license_group() -> None:
    """Make licence signing keys and issue activation codes."""


@license_group.command("keygen")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    required=True,
    help="Folder for the key pair.",
)
@click.option(
    "--name", default="licence-signing", show_default=True, help="Base name of the key files."
)
def license_keygen(out_dir: Path, name: str) -> None:
    """Make a signing key pair: NAME.key (private, keep it safe) and NAME.pub.

    Copy NAME.pub into a host's DATA_DIR/trusted-keys/ (or put its text in
    TILEWALL_LICENCE_KEYS) so the host accepts codes signed with NAME.key.
    """
    try:
        from tilewall.host.licence import codes
    except ImportError as error:
        needs_server(error)
    private_path, public_path = out_dir / f"{name}.key", out_dir / f"{name}.pub"
    for path in (private_path, public_path):
        if path.exists():
            console.print(f"[red]{path} exists; not overwriting it[/]")
            sys.exit(1)
    out_dir.mkdir(parents=True, exist_ok=True)
    key = codes.generate_signing_key()
    # created private from the start, never readable by others even briefly
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(codes.private_key_pem(key))
    public_path.write_text(codes.public_key_text(key) + "\n")
    console.print(
        f"key id {codes.key_id(key)}: private key {private_path}, public key {public_path}"
    )


def _date(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is None or value == "":
        return value
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date YYYY-MM-DD") from None


@license_group.command("issue")
@click.option(
    "--key",
    "key_path",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    required=True,
    help="Private key file from 'tilewall license keygen'.",
)
@click.option(
    "--stations",
    type=click.IntRange(min=0),
    required=True,
    help="Number of displays licensed; 0 for unlimited.",
)
@click.option(
    "--expires",
    required=True,
    callback=_date,
    help="Expiry date YYYY-MM-DD; 'never' is not accepted, use a far date.",
)
@click.option("--support-expires", default="", callback=_date, help="Support end YYYY-MM-DD.")
@click.option("--issued", default=None, callback=_date, help="Issue date; default today.")
@click.option("--reseller", default="", help="Reseller name shown with the licence.")
@click.option(
    "--source-type",
    "source_types",
    multiple=True,
    help="A source type the licence allows; repeat it. None given: all types.",
)
@click.option(
    "--system-id",
    default="",
    help="Bind the code to one host (its licenseSystemId from GET /api/system).",
)
@click.option("--fast-video/--no-fast-video", default=False, show_default=True)
def license_issue(
    key_path: Path,
    stations: int,
    expires: str,
    support_expires: str,
    issued: str | None,
    reseller: str,
    source_types: tuple[str, ...],
    system_id: str,
    fast_video: bool,
) -> None:
    """Print an activation code signed with KEY."""
    try:
        from tilewall.host.licence import codes
    except ImportError as error:
        needs_server(error)
    text = key_path.read_text()
    # any 32 bytes are a valid raw seed, so a public key file would "load": insist on PEM
    if "PRIVATE KEY" not in text:
        console.print(
            f"[red]{key_path} is not a private key file (PEM); "
            "give the .key file made by 'tilewall license keygen'[/]"
        )
        sys.exit(1)
    try:
        key = codes.load_private_key(text)
    except ValueError as error:
        console.print(f"[red]{key_path} is not an Ed25519 private key: {error}[/]")
        sys.exit(1)
    terms = codes.LicenceTerms(
        reseller_name=reseller,
        number_of_stations=stations or None,
        issued=issued or date.today().isoformat(),
        expires=expires,
        support_expires=support_expires,
        system_id=system_id,
        fast_video_feature=fast_video,
        source_types=list(source_types) if source_types else None,
    )
    try:
        code = codes.issue(key, terms)
    except ValueError as error:
        console.print(f"[red]{error}[/]")
        sys.exit(1)
    click.echo(code)
