"""Configuration, the CLI for licence keys and codes, and the durable settings store."""

from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from tilewall.cli import main
from tilewall.config import Config, ConfigError
from tilewall.host.clock import SystemClock
from tilewall.host.licence import codes
from tilewall.host.state import Core, CoreSettings
from tilewall.platform.hostname import SimulatedHostName
from tilewall.platform.timezone import LinuxTimeZones


def test_host_management_is_off_unless_asked(tmp_path: Path):
    assert Config.load(tmp_path, env={}).host_management is False
    assert Config.load(tmp_path, env={"TILEWALL_HOST_MANAGEMENT": "0"}).host_management is False
    assert Config.load(tmp_path, env={"TILEWALL_HOST_MANAGEMENT": "1"}).host_management is True
    assert Config.load(tmp_path, True, env={}).host_management is True


def test_trusted_keys_from_folder_and_environment(tmp_path: Path):
    a, b = codes.generate_signing_key(), codes.generate_signing_key()
    folder = tmp_path / "trusted-keys"
    folder.mkdir()
    # PEM works as well as the raw text
    from cryptography.hazmat.primitives import serialization

    pem = a.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    (folder / "a.pub").write_bytes(pem)
    (folder / "ignored.txt").write_text("not a key")
    env = {"TILEWALL_LICENCE_KEYS": f" {codes.public_key_text(b)}, {codes.public_key_text(a)} "}
    config = Config.load(tmp_path, env=env)
    assert set(config.trusted_keys) == {codes.public_key_text(a), codes.public_key_text(b)}
    assert config.key_sources[codes.key_id(a)] == "trusted-keys/a.pub"
    assert config.key_sources[codes.key_id(b)] == "TILEWALL_LICENCE_KEYS"


def test_a_bad_key_stops_the_host(tmp_path: Path):
    (tmp_path / "trusted-keys").mkdir()
    (tmp_path / "trusted-keys" / "typo.pub").write_text("AAAA-not-a-key")
    with pytest.raises(ConfigError, match=r"typo\.pub"):
        Config.load(tmp_path, env={})
    with pytest.raises(ConfigError, match="TILEWALL_LICENCE_KEYS"):
        Config.load(tmp_path / "nowhere", env={"TILEWALL_LICENCE_KEYS": "???"})


def test_keygen_then_issue_makes_a_code_the_host_accepts(tmp_path: Path):
    runner = CliRunner()
    out = tmp_path / "keys"
    made = runner.invoke(main, ["license", "keygen", "--out", str(out)])
    assert made.exit_code == 0, made.output
    private, public = out / "licence-signing.key", out / "licence-signing.pub"
    assert private.stat().st_mode & 0o077 == 0
    assert "PRIVATE KEY" in private.read_text()
    again = runner.invoke(main, ["license", "keygen", "--out", str(out)])
    assert again.exit_code == 1  # never overwrites a key
    issued = runner.invoke(
        main,
        [
            "license",
            "issue",
            "--key",
            str(private),
            "--stations",
            "6",
            "--expires",
            "2099-01-31",
            "--support-expires",
            "2098-01-01",
            "--reseller",
            "Screens Ltd",
            "--source-type",
            "Web Browser",
            "--source-type",
            "Signage Player",
            "--system-id",
            "sys-42",
        ],
    )
    assert issued.exit_code == 0, issued.output
    text = issued.stdout.strip()
    verified = codes.verify(text, [public.read_text()], date.today(), "sys-42")
    terms = verified.terms
    assert terms.number_of_stations == 6 and terms.reseller_name == "Screens Ltd"
    assert terms.expires == "2099-01-31" and terms.support_expires == "2098-01-01"
    assert terms.source_types == ["Web Browser", "Signage Player"]
    assert terms.issued == date.today().isoformat()
    unlimited = runner.invoke(
        main,
        ["license", "issue", "--key", str(private), "--stations", "0", "--expires", "2099-01-01"],
    )
    assert (
        codes.verify(
            unlimited.stdout.strip(), [public.read_text()], date.today()
        ).terms.number_of_stations
        is None
    )


def test_issue_rejects_bad_input(tmp_path: Path):
    runner = CliRunner()
    runner.invoke(main, ["license", "keygen", "--out", str(tmp_path)])
    key = str(tmp_path / "licence-signing.key")
    bad_date = runner.invoke(
        main, ["license", "issue", "--key", key, "--stations", "1", "--expires", "31.12.2099"]
    )
    assert bad_date.exit_code == 2 and "YYYY-MM-DD" in bad_date.output
    negative = runner.invoke(
        main, ["license", "issue", "--key", key, "--stations", "-1", "--expires", "2099-01-01"]
    )
    assert negative.exit_code == 2
    not_a_key = tmp_path / "licence-signing.pub"
    wrong = runner.invoke(
        main,
        ["license", "issue", "--key", str(not_a_key), "--stations", "1", "--expires", "2099-01-01"],
    )
    assert wrong.exit_code == 1


async def test_core_settings_are_durable_and_refuse_reentry():
    core = Core(None, SystemClock())
    store = CoreSettings(core)
    names = SimulatedHostName(store)
    await names.set("wall-host")
    assert core.state.settings["platform.hostname"] == "wall-host"
    assert store.get("platform.hostname") == "wall-host"
    value = store.get("platform.hostname")
    await store.put("list", [1, 2])
    got = store.get("list")
    assert got is not None
    got.append(3)
    assert store.get("list") == [1, 2] and value == "wall-host"
    await store.put("list", None)
    assert store.get("list") is None
    async with core.change():
        with pytest.raises(RuntimeError, match="deadlock"):
            await store.put("x", 1)


def test_host_management_gives_the_real_adapters(tmp_path: Path):
    from tilewall.assembly import build_host

    managed = build_host(None, tmp_path, Config(host_management=True))
    assert managed.platform.host_management is True
    assert isinstance(managed.platform.timezones, LinuxTimeZones)
    simulated = build_host(None, tmp_path)
    assert simulated.platform.host_management is False
    assert isinstance(simulated.platform.hostname, SimulatedHostName)


def test_swapped_platform_reaches_every_service(tmp_path: Path):
    import dataclasses

    from tilewall.assembly import build_host
    from tilewall.platform.bundle import Platform
    from tilewall.platform.serialports import RecordingSerialPorts

    host = build_host(None, tmp_path)
    assert isinstance(host.platform, Platform)
    swapped = dataclasses.replace(host.platform, serial=RecordingSerialPorts())
    host.platform = swapped
    assert host.platform is swapped and host.machine.platform is swapped


def test_start_lead_from_the_environment(tmp_path: Path):
    from tilewall.host.playback.timeline import START_LEAD_MS

    assert Config.load(tmp_path, env={}).start_lead_ms == START_LEAD_MS
    assert Config.load(tmp_path, env={"TILEWALL_START_LEAD_MS": "120"}).start_lead_ms == 120
    for wrong in ("-5", "soon", "9000"):
        with pytest.raises(ConfigError, match="TILEWALL_START_LEAD_MS"):
            Config.load(tmp_path, env={"TILEWALL_START_LEAD_MS": wrong})


def test_group_lease_from_the_environment(tmp_path: Path):
    assert Config.load(tmp_path, env={}).group_lease_ms == 5000
    assert Config.load(tmp_path, env={"TILEWALL_GROUP_LEASE_MS": "8000"}).group_lease_ms == 8000
    for bad in ("2999", "60001", "5s", "-1"):
        with pytest.raises(ConfigError, match="TILEWALL_GROUP_LEASE_MS"):
            Config.load(tmp_path, env={"TILEWALL_GROUP_LEASE_MS": bad})


def test_live_delay_follows_the_receivers_unless_fixed(tmp_path: Path):
    assert Config.load(tmp_path, env={}).live_delay_ms is None
    assert Config.load(tmp_path, env={"TILEWALL_LIVE_DELAY_MS": "auto"}).live_delay_ms is None
    assert Config.load(tmp_path, env={"TILEWALL_LIVE_DELAY_MS": "30"}).live_delay_ms == 30
    for bad in ("-1", "5001", "fast", "30ms"):
        with pytest.raises(ConfigError, match="TILEWALL_LIVE_DELAY_MS must be auto or"):
            Config.load(tmp_path, env={"TILEWALL_LIVE_DELAY_MS": bad})
