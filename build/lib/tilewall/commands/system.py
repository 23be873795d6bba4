"""tilewall system ...: the host, its licence, power, software, logs, reports and
remote control. Machine settings and alerts are added by ``settings``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tilewall.commands.base import (
    Column,
    client,
    done,
    interface_group,
    show,
    show_list,
    show_text,
)

system = interface_group("system", "The host: facts, licence, power, settings, alerts, logs.")

OUT = click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Save it here.")


@system.command("info")
def info() -> None:
    """What the host is."""
    show(client().system.info())


@system.command("mapping-version")
def mapping_version() -> None:
    """The mapping data version (-1 outside a failover group)."""
    show_text(client().system.mapping_data_version())


@system.command("license")
def license_show() -> None:
    """The licence."""
    show(client().system.license())


@system.command("license-set")
@click.argument("activation_code")
@click.option("--stations", type=click.IntRange(min=0), help="Displays to license.")
def license_set(activation_code: str, stations: int | None) -> None:
    """Claim, raise or replace the licence with ACTIVATION_CODE ('-' reads it from stdin)."""
    code = sys.stdin.read().strip() if activation_code == "-" else activation_code
    show(client().system.set_license(code, stations))


@system.command("license-delete")
@click.confirmation_option(prompt="Remove the licence?")
def license_delete() -> None:
    """Remove the licence."""
    done(client().system.delete_license(), "licence removed")


@system.command("license-download")
@OUT
def license_download(out: Path | None) -> None:
    """The licence backup (printed, or saved with --out)."""
    text = client().system.download_license()
    if out is None:
        show_text(text)
    else:
        out.write_text(text)
        click.echo(f"saved {out}")


@system.command("reboot")
@click.confirmation_option(prompt="Reboot the host's machine?")
def reboot() -> None:
    """Reboot the machine."""
    show(client().system.reboot())


@system.command("shutdown")
@click.confirmation_option(prompt="Shut the host's machine down?")
def shutdown() -> None:
    """Shut the machine down."""
    show(client().system.shutdown())


@system.command("manifest")
def manifest() -> None:
    """The installed packages."""
    columns: list[Column] = [("Package", "name"), ("Version", "version")]
    show_list(client().system.manifest(), columns, "installedPackages")


@system.command("diag")
def diag() -> None:
    """Run the host's self-check."""
    columns: list[Column] = [
        ("Check", "id"),
        ("OK", "success"),
        ("Details", lambda r: "; ".join(r.get("params") or [])),
    ]
    show_list(client().system.diagnostics(), columns, "results")


@system.command("apilog")
def apilog() -> None:
    """The interface log."""
    show_text(client().system.api_log())


@system.command("packages")
def packages() -> None:
    """Optional third-party packages."""
    columns: list[Column] = [
        ("Package", "name"),
        ("Group", "groupName"),
        ("Installed", "installed"),
    ]
    show_list(client().system.packages(), columns, "packages")


@system.command("install-packages")
@click.argument("names", nargs=-1, required=True)
def install_packages(names: tuple[str, ...]) -> None:
    """Install third-party packages by name."""
    columns: list[Column] = [
        ("Package", "name"),
        ("Group", "groupName"),
        ("Installed", "installed"),
    ]
    show_list(client().system.install_packages(names), columns, "packages")


@system.command("report-submit")
@click.option("--name", default="")
@click.option("--email", default="")
@click.option("--category", default="")
@click.option("--what-doing", default="", help="What you were doing.")
@click.option("--description", default="")
@click.option("--text", "additional_text", default="", help="Anything else.")
def report_submit(
    name: str, email: str, category: str, what_doing: str, description: str, additional_text: str
) -> None:
    """Build a troubleshooting report."""
    answer = client().system.submit_report(
        name=name,
        email=email,
        category=category,
        what_doing=what_doing,
        description=description,
        additional_text=additional_text,
    )
    done(answer, "troubleshooting report created")


@system.command("report-download")
@OUT
def report_download(out: Path | None) -> None:
    """Save the last troubleshooting report (tar.bz2)."""
    data = client().system.download_report()
    target = out or Path("troubleshooting-report.tar.bz2")
    target.write_bytes(data)
    click.echo(f"saved {target} ({len(data)} bytes)")


@system.command("vpn")
@click.argument("action", type=click.Choice(["status", "start", "stop"]), default="status")
def vpn(action: str) -> None:
    """Remote control by a support partner: status, start or stop."""
    host = client().system
    if action == "start":
        show(host.start_vpn())
    elif action == "stop":
        show(host.stop_vpn())
    else:
        show(host.vpn())
