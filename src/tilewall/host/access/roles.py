"""Who may do what: the roles of users, the permissions each grants, an operator's scope
(the walls, zones, mirror groups, displays and sources it may act on), and the stored
record of a user."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum


class Permission(StrEnum):
    #: every read, logging out, changing one's own password
    READ = "read"
    #: playback: switch, play, stop, pause, resume, seek, presets, alerts, display ids,
    #: control-room layouts, schedule events, serial commands to displays
    OPERATE = "operate"
    #: everything else: configuration, the machine, users
    ADMINISTER = "administer"


class Role(StrEnum):
    VIEWER = "viewer"
    OPERATOR = "operator"
    ADMINISTRATOR = "administrator"


GRANTS: dict[Role, frozenset[Permission]] = {
    Role.VIEWER: frozenset({Permission.READ}),
    Role.OPERATOR: frozenset({Permission.READ, Permission.OPERATE}),
    Role.ADMINISTRATOR: frozenset(Permission),
}


def roles_with(permission: Permission) -> list[Role]:
    return [role for role in Role if permission in GRANTS[role]]


@dataclass(frozen=True, slots=True)
class Scope:
    """What an operator may act on, by id; a kind left empty allows none of it."""

    walls: frozenset[str] = frozenset()
    zones: frozenset[str] = frozenset()
    mirror_groups: frozenset[str] = frozenset()
    displays: frozenset[int] = frozenset()
    sources: frozenset[str] = frozenset()

    @staticmethod
    def of(
        walls: Iterable[str] = (),
        zones: Iterable[str] = (),
        mirror_groups: Iterable[str] = (),
        displays: Iterable[int] = (),
        sources: Iterable[str] = (),
    ) -> "Scope":
        return Scope(
            frozenset(walls),
            frozenset(zones),
            frozenset(mirror_groups),
            frozenset(displays),
            frozenset(sources),
        )


@dataclass(frozen=True, slots=True)
class Account:
    """A user as stored: the password's hash, the role, and for an operator the scope
    (None: unlimited) and whether lists show it only its scope."""

    password_hash: str
    role: Role = Role.ADMINISTRATOR
    scope: Scope | None = None
    scoped_reads: bool = False
    disabled: bool = False
    #: when it was created (ms since the epoch); kept across changes
    created_ms: int = field(default=0, compare=False)


def limits_reads(account: Account | None) -> bool:
    """Whether lists show ``account`` only its scope."""
    return account is not None and account.scoped_reads and account.scope is not None


def refusal(user: str, account: Account | None, permission: Permission) -> str | None:
    """Why ``user`` may not do what needs ``permission`` (None: it may)."""
    if account is None or account.disabled:
        return f"the user {user!r} no longer exists or is disabled"
    if permission in GRANTS[account.role]:
        return None
    needed = " or ".join(roles_with(permission))
    return (
        f"not allowed for the role {account.role} of {user!r}: this operation needs "
        f"the {permission} permission (role {needed}); nothing was changed"
    )
