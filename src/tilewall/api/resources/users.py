"""/api/users: the users who may log in, their roles and scopes (administrators; a user
changes their own password with the old one). Extensions."""

from typing import Annotated, Literal

import msgspec
from litestar import delete, get, post, put
from msgspec import UNSET, UnsetType

from tilewall.api.common import Done, extension
from tilewall.host.access import scopes
from tilewall.host.access.roles import Account, Role, Scope
from tilewall.host.errors import NotFound
from tilewall.host.host import Host

TAGS = ["Users"]
PATH = "/users/{userName:str}"

RoleName = Literal["viewer", "operator", "administrator"]
UserName = Annotated[
    str, msgspec.Meta(min_length=1, max_length=64, description="1 to 64 printable characters.")
]
Password = Annotated[
    str, msgspec.Meta(min_length=8, max_length=1024, description="At least 8 characters.")
]
Ids = Annotated[list[str], msgspec.Meta(max_length=10_000)]


class ScopeBody(msgspec.Struct, forbid_unknown_fields=True):
    """What an operator may act on. In requests each entry is an id or a name (the id
    is tried first) and is kept by id; answers give ids. A kind left out allows none."""

    walls: Ids = []
    zones: Ids = []
    mirrorGroups: Ids = []
    displays: Annotated[list[int], msgspec.Meta(max_length=10_000)] = []
    sources: Ids = []


class UserBody(msgspec.Struct):
    userName: str
    role: RoleName
    #: null: unlimited
    scope: ScopeBody | None
    scopedReads: bool
    disabled: bool


class UserList(msgspec.Struct):
    users: list[UserBody]


class UserIn(msgspec.Struct, forbid_unknown_fields=True):
    userName: UserName
    password: Password
    role: RoleName
    scope: ScopeBody | None = None
    scopedReads: Annotated[
        bool, msgspec.Meta(description="Lists show the operator only its scope.")
    ] = False


class UserUpdate(msgspec.Struct, forbid_unknown_fields=True):
    """What to change; a field left out is kept (``scope``: null makes it unlimited)."""

    role: RoleName | UnsetType = UNSET
    scope: ScopeBody | UnsetType | None = UNSET
    scopedReads: bool | UnsetType = UNSET
    disabled: bool | UnsetType = UNSET


class PasswordIn(msgspec.Struct, forbid_unknown_fields=True):
    """A new password; ``oldPassword`` is required when users change their own."""

    password: Password
    oldPassword: str | None = None


def body(name: str, account: Account) -> UserBody:
    scope = account.scope
    return UserBody(
        name,
        account.role.value,
        None
        if scope is None
        else ScopeBody(
            sorted(scope.walls),
            sorted(scope.zones),
            sorted(scope.mirror_groups),
            sorted(scope.displays),
            sorted(scope.sources),
        ),
        account.scoped_reads,
        account.disabled,
    )


def _scope(host: Host, given: ScopeBody | None) -> Scope | None:
    if given is None:
        return None
    return scopes.resolve(
        host.state, given.walls, given.zones, given.mirrorGroups, given.displays, given.sources
    )


def _account(host: Host, name: str) -> Account:
    account = host.accounts.account(name)
    if account is None:
        raise NotFound(f"user {name!r} not found")
    return account


@extension(get, "/users", TAGS, "List users", 403)
async def list_users(host: Host) -> UserList:
    return UserList([body(n, a) for n, a in sorted(host.accounts.accounts().items())])


@extension(
    post,
    "/users",
    TAGS,
    "Create a user",
    403,
    409,
    description="409 when the name is taken; a scope, and scopedReads, are for operators "
    "only, and what a scope names must exist, by id or name (400 otherwise).",
)
async def create_user(host: Host, data: UserIn) -> UserBody:
    account = Account("", Role(data.role), _scope(host, data.scope), data.scopedReads)
    await host.accounts.add_user(data.userName, data.password, account)
    return body(data.userName, _account(host, data.userName))


@extension(get, PATH, TAGS, "Read a user", 403, 404)
async def read_user(host: Host, userName: str) -> UserBody:
    return body(userName, _account(host, userName))


@extension(
    put,
    PATH,
    TAGS,
    "Change a user's role, scope or whether it is disabled",
    403,
    404,
    409,
    description="The user's sessions end when the role changes or it is disabled. The "
    "last enabled administrator cannot be demoted or disabled (409). A scope, and "
    "scopedReads, are for operators only, and what a scope names must exist, by id or "
    "name (400 otherwise).",
)
async def update_user(host: Host, userName: str, data: UserUpdate) -> UserBody:
    known = _account(host, userName)
    changed = Account(
        known.password_hash,
        known.role if isinstance(data.role, UnsetType) else Role(data.role),
        known.scope if isinstance(data.scope, UnsetType) else _scope(host, data.scope),
        known.scoped_reads if isinstance(data.scopedReads, UnsetType) else data.scopedReads,
        known.disabled if isinstance(data.disabled, UnsetType) else data.disabled,
        known.created_ms,
    )
    await host.accounts.change_user(userName, changed)
    return body(userName, _account(host, userName))


@extension(
    put,
    f"{PATH}/password",
    TAGS,
    "Set a user's password",
    403,
    404,
    description="Any user sets their own with ``oldPassword``; an administrator resets "
    "another's (their sessions end). 403 for another user's password otherwise.",
)
async def set_password(host: Host, userName: str, data: PasswordIn) -> Done:
    acting = scopes.actor()
    by = "" if acting is None else acting.user
    await host.accounts.change_password(by, userName, data.password, data.oldPassword)
    return Done(f"password of {userName!r} changed")


@extension(
    delete,
    PATH,
    TAGS,
    "Delete a user",
    403,
    404,
    409,
    description="Their sessions end. The last enabled administrator stays (409).",
)
async def delete_user(host: Host, userName: str) -> Done:
    await host.accounts.remove_user(userName)
    return Done(f"user {userName!r} deleted")


ROUTES = [list_users, create_user, read_user, update_user, set_password, delete_user]
