"""Managing users: creating them, their roles, scopes and passwords, disabling and
removing them (what may change is ruled in :mod:`.users`). Each change is written with
its entry in the audit trail (never a password or its hash)."""

import asyncio
import time
from typing import TYPE_CHECKING, Any

from tilewall.host import audit
from tilewall.host.access import passwords
from tilewall.host.access import users as rules
from tilewall.host.access.roles import Account, Role
from tilewall.host.errors import Conflict, Invalid, NotFound
from tilewall.host.ports import AccountStore


def _now_ms() -> int:
    return int(time.time() * 1000)


def _shown(account: Account | None) -> dict[str, Any] | None:
    """What the audit trail records of a user: its role, scope and state."""
    if account is None:
        return None
    scope = account.scope
    return {
        "role": str(account.role),
        "scope": None
        if scope is None
        else {
            "walls": sorted(scope.walls),
            "zones": sorted(scope.zones),
            "mirrorGroups": sorted(scope.mirror_groups),
            "displays": sorted(scope.displays),
            "sources": sorted(scope.sources),
        },
        "scopedReads": account.scoped_reads,
        "disabled": account.disabled,
    }


def _record(name: str, before: Account | None, after: Account | None) -> audit.AuditRecord:
    """The entry of a change of a user, as the trail records changed documents: each
    changed field's before and after (a new password only as such)."""
    old, new = _shown(before) or {}, _shown(after) or {}
    fields = {
        k: {"before": old.get(k), "after": new.get(k)}
        for k in sorted(old.keys() | new.keys())
        if old.get(k) != new.get(k)
    }
    if before is not None and after is not None and before.password_hash != after.password_hash:
        fields["password"] = {"before": audit.REDACTED, "after": audit.REDACTED}
    action = "created" if before is None else "deleted" if after is None else "changed"
    change = {"kind": "user", "id": name, "name": name, action: fields}
    operation = audit.OPERATION.get() or "users"
    target = audit.Target("user", name, name)
    return audit.event(_now_ms(), audit.current_actor(), operation, target, [change])


class ManagedUsers:
    """The users of :class:`~tilewall.host.access.accounts.Accounts`."""

    _store: AccountStore | None
    _users: dict[str, Account]

    if TYPE_CHECKING:

        async def verify_password(self, user: str, password: str) -> bool: ...

        async def end_sessions(self, user: str) -> None: ...

        def _end_sessions_of(self, user: str) -> list[str]: ...

    def users(self) -> list[str]:
        return sorted(self._users)

    def account(self, user: str) -> Account | None:
        return self._users.get(user)

    def accounts(self) -> dict[str, Account]:
        """Every user's record, by name (a copy)."""
        return dict(self._users)

    async def set_password(self, user: str, password: str, role: Role | None = None) -> None:
        """Set ``user``'s password, creating the user (with ``role``, else as an
        administrator: the first user, and the data directory's own tool) when new."""
        rules.check_name(user)
        hashed = await self._hash(password)
        known = self._users.get(user)
        if known is None:
            account = Account(hashed, role or Role.ADMINISTRATOR, created_ms=_now_ms())
        else:
            account = rules.changed(known, password_hash=hashed)
        await self._put(user, account)

    async def add_user(self, user: str, password: str, account: Account) -> None:
        """Create ``user`` with ``account``'s role and scope (its hash is replaced)."""
        rules.check_name(user)
        rules.check_account(account)
        if user in self._users:
            raise Conflict(f"the user {user!r} exists already")
        hashed = await self._hash(password)
        await self._put(user, rules.changed(account, password_hash=hashed, created_ms=_now_ms()))

    async def change_user(self, user: str, account: Account) -> None:
        """Give ``user`` this record (role, scope, disabled); their sessions end when
        the role changes or they are disabled. The last administrator stays one."""
        known = self._known(user)
        rules.check_change(self._users, user, account)
        account = rules.changed(
            account, password_hash=known.password_hash, created_ms=known.created_ms
        )
        await self._put(user, account)
        if account.role != known.role or account.disabled:
            await self.end_sessions(user)

    async def reset_password(self, user: str, password: str) -> None:
        """An administrator sets ``user``'s password; their sessions end."""
        self._known(user)
        await self.set_password(user, password)
        await self.end_sessions(user)

    async def change_password(self, by: str, user: str, password: str, old: str | None) -> None:
        """``by`` sets ``user``'s password: their own with the ``old`` one, another's
        as an administrator (a reset)."""
        if rules.resets_password(by, self._users.get(by), user):
            await self.reset_password(user, password)
            return
        if old is None or not await self.verify_password(user, old):
            raise Invalid("the old password is not right; nothing was changed")
        await self.set_password(user, password)

    async def remove_user(self, user: str) -> None:
        known = self._known(user)
        rules.check_change(self._users, user, None)
        if self._store is not None:
            await self._store.delete_user(user, [_record(user, known, None)])
        del self._users[user]
        self._end_sessions_of(user)

    def _known(self, user: str) -> Account:
        known = self._users.get(user)
        if known is None:
            raise NotFound(f"user {user!r} not found")
        return known

    async def _hash(self, password: str) -> str:
        rules.check_password(password)
        # argon2 takes a good part of a second on purpose: off the event loop, which
        # keeps serving (and keeps a group member's link to its database alive)
        return await asyncio.to_thread(passwords.hash_password, password)

    async def _put(self, user: str, account: Account) -> None:
        if self._store is not None:
            record = _record(user, self._users.get(user), account)
            await self._store.put_user(user, account, [record])
        self._users[user] = account
