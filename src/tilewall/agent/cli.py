"""``tilewall agent``: the command. It imports the agent only (no server, no database),
so a kiosk installs ``tilewall[agent]`` and nothing of the host."""

import asyncio
import logging
import re
import sys
from pathlib import Path

import click

SEAT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def _seat(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    if not SEAT.match(value):
        raise click.BadParameter(
            "1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
    return value


@click.command("agent")
@click.option(
    "--host",
    "host_url",
    envvar="TILEWALL_HOST",
    required=True,
    help="The host, http://NAME:9000 (also TILEWALL_HOST).",
)
@click.option(
    "--seat",
    envvar="TILEWALL_SEAT",
    required=True,
    callback=_seat,
    help="This screen's station id, the page's ?seat= (also TILEWALL_SEAT).",
)
@click.option(
    "--name",
    envvar="TILEWALL_STATION_NAME",
    default=None,
    help="The station's name until an operator names it (also TILEWALL_STATION_NAME).",
)
@click.option("--no-browser", is_flag=True, help="Do not start a kiosk browser.")
@click.option(
    "--browser",
    "browser_path",
    envvar="TILEWALL_BROWSER",
    default=None,
    help="The browser to run in kiosk mode (default: chromium, chromium-browser, ...).",
)
@click.option(
    "--browser-arg",
    "browser_args",
    multiple=True,
    help="One more argument for the browser; repeat it.",
)
@click.option(
    "--power",
    envvar="TILEWALL_POWER",
    type=click.Choice(["cec", "ddc", "dpms", "command", "none"]),
    default=None,
    help="How to switch the screen on and off: HDMI-CEC, DDC/CI, the display server's "
    "DPMS, --power-command, or not at all (the page still blanks). Default: command "
    "with --power-command, else none.",
)
@click.option(
    "--power-command",
    envvar="TILEWALL_POWER_COMMAND",
    default="",
    help="A shell command switching the screen; {state} is replaced by on or off.",
)
@click.option(
    "--serial-port",
    envvar="TILEWALL_SERIAL_PORT",
    default="",
    help="The local serial port the host's serial commands for this seat go to.",
)
@click.option(
    "--state-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Where the station key and the browser profile are kept "
    "(default: $STATE_DIRECTORY, else ~/.local/state/tilewall-agent).",
)
@click.option("--sysfs", type=click.Path(path_type=Path), default="/sys", hidden=True)
@click.option("-v", "--verbose", is_flag=True, help="Log more.")
def agent(
    host_url: str,
    seat: str,
    name: str | None,
    no_browser: bool,
    browser_path: str | None,
    browser_args: tuple[str, ...],
    power: str | None,
    power_command: str,
    serial_port: str,
    state_dir: Path | None,
    sysfs: Path,
    verbose: bool,
) -> None:
    """Run beside a receiver page on a kiosk device: keep the kiosk browser on the page,
    report the device's devices, switch the screen, write serial commands."""
    try:
        from tilewall.agent.browser import find_browser
        from tilewall.agent.keystore import default_state_dir
        from tilewall.agent.service import Agent, AgentConfig, endpoints, run_until_signalled
    except ImportError as error:
        raise click.ClickException(
            f"the agent needs {error.name}: install tilewall[agent]"
        ) from None

    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    try:
        endpoints(host_url)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--host") from None
    method = power or ("command" if power_command else "none")
    if method == "command" and not power_command.strip():
        raise click.BadParameter("--power command needs --power-command", param_hint="--power")
    browser = None
    if not no_browser:
        browser = find_browser(browser_path)
        if browser is None:
            raise click.ClickException(
                "no browser found (chromium); give --browser PATH, or --no-browser"
            )
    config = AgentConfig(
        host=host_url,
        seat=seat,
        state_dir=state_dir or default_state_dir(),
        name=name,
        browser=browser,
        browser_args=list(browser_args),
        power=method,
        power_command=power_command,
        serial_port=serial_port,
        sysfs=sysfs,
    )
    asyncio.run(run_until_signalled(Agent(config)))
    sys.exit(0)
