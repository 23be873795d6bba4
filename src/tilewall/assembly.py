"""Builds a :class:`Host` from configuration: its store (SQLite, or PostgreSQL as a
member of that database's group of hosts), its media folder, its machine adapters and
its data directory. This is the one place that does; the served app
(``tilewall.server``) and the operators' tools open their host here."""

import logging
from pathlib import Path

from tilewall.config import Config
from tilewall.host.host import Host, MachineFactory
from tilewall.host.machine.ports import SettingsStore
from tilewall.host.playback import timeline
from tilewall.host.ports import Clock, GroupCoordination, Persistence, PlayLogStore
from tilewall.platform import Platform, platform_for
from tilewall.platform.data_files import DataDirectory
from tilewall.platform.media_files import FolderMediaFiles
from tilewall.store import database_line, is_postgres, open_store
from tilewall.store.plays import PlayRecords
from tilewall.store.sqlite import FILE_NAME

log = logging.getLogger(__name__)


def machine_for(config: Config) -> MachineFactory:
    """The machine adapters the configuration asks for: real with host management,
    simulated (kept in the host's settings) without."""

    def build(settings: SettingsStore) -> Platform:
        return platform_for(
            config.host_management,
            settings,
            network_apply_seconds=config.network_apply_seconds,
        )

    return build


def build_host(
    store: Persistence | None,
    data_dir: Path,
    config: Config | None = None,
    *,
    clock: Clock | None = None,
    idle_timeout_s: float = 1800.0,
    machine: MachineFactory | None = None,
    plays: PlayLogStore | None = None,
    member_store: Persistence | None = None,
    coordination: GroupCoordination | None = None,
) -> Host:
    """A host over ``store`` (and ``plays``, its play log) with its media and logs in
    ``data_dir``; not yet loaded.

    A member of a group also has its own ``member_store`` and the group's
    ``coordination``."""
    config = config or Config()
    timeline.set_start_lead_ms(config.start_lead_ms)
    return Host(
        store,
        FolderMediaFiles(config.media_dir or data_dir / "media"),
        machine or machine_for(config),
        clock=clock,
        idle_timeout_s=idle_timeout_s,
        trusted_keys=config.trusted_keys,
        configuration={
            "network_apply_seconds": config.network_apply_seconds,
            # key ids and where they came from; the keys are public anyway
            "trusted_licence_keys": dict(config.key_sources),
        },
        files=DataDirectory(data_dir),
        plays=plays,
        member_store=member_store,
        coordination=coordination,
    )


async def open_host(
    data_dir: Path,
    config: Config | None = None,
    *,
    clock: Clock | None = None,
    idle_timeout_s: float = 1800.0,
    database: str | None = None,
) -> Host:
    """The host with its media and logs in ``data_dir``, loaded and ready; its state is
    in the database ``database`` (else the configuration's), or SQLite in ``data_dir``.

    This host takes no part in a group (operators' tools open it so); a served host on
    PostgreSQL is a member of its database's group (:func:`open_member_host`)."""
    config = config or Config.load(data_dir)
    store = await open_store(data_dir, database or config.database)
    host = build_host(
        store,
        data_dir,
        config,
        clock=clock,
        idle_timeout_s=idle_timeout_s,
        plays=PlayRecords(store.engine),
    )
    await host.load()
    return host


async def open_member_host(
    data_dir: Path,
    config: Config,
    *,
    address: str,
    idle_timeout_s: float = 1800.0,
    database: str | None = None,
) -> Host:
    """The host a server runs: on SQLite, on its own; on PostgreSQL, a member of the group
    of hosts on that database, reached at ``address`` (not yet started: see
    :meth:`~tilewall.host.host.Host.start`)."""
    store = await open_store(data_dir, database or config.database)
    log.info("database: %s", database_line(store))
    if not is_postgres(store):
        host = build_host(
            store, data_dir, config, idle_timeout_s=idle_timeout_s, plays=PlayRecords(store.engine)
        )
        await host.load()
        return host
    from tilewall.store.member import open_member
    from tilewall.store.postgres import PostgresStore

    assert isinstance(store, PostgresStore)
    member = await open_member(store, data_dir, address, config.group_lease_ms / 1000)
    host = build_host(
        store,
        data_dir,
        config,
        idle_timeout_s=idle_timeout_s,
        plays=PlayRecords(store.engine),
        member_store=member.store,
        coordination=member.group,
    )
    await host.load()
    member.group.identify(
        await member.system_id(host.failover.system_id, host.failover.replace_system_id),
        lambda: host.platform.facts.host_name(),
    )
    return host


def has_local_database(data_dir: Path) -> bool:
    """Whether ``data_dir`` holds a host's embedded (SQLite) database."""
    return (data_dir / FILE_NAME).is_file()


async def first_bad_audit_entry(data_dir: Path, database: str | None) -> int | None:
    """The id of the first entry of the audit trail that breaks its chain, or None when
    the chain holds; reads the host's database directly (the host need not run)."""
    store = await open_store(data_dir, database or None)
    try:
        return await store.verify_audit()
    finally:
        await store.close()
