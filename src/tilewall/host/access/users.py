"""What may change about users: names and passwords accepted, the last administrator
kept, scopes only for operators."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from tilewall.host.access.roles import Account, Role
from tilewall.host.errors import Conflict, Forbidden, Invalid


def check_name(user: str) -> None:
    if not user or len(user) > 64 or not user.isprintable():
        raise Invalid("user names are 1 to 64 printable characters")


def check_password(password: str) -> None:
    if len(password) < 8:
        raise Invalid("passwords are at least 8 characters")
    if len(password) > 1024:
        raise Invalid("passwords are at most 1024 characters")


def check_account(account: Account) -> None:
    if account.role is not Role.OPERATOR and (account.scope is not None or account.scoped_reads):
        raise Invalid(f"a scope limits an operator; a {account.role} has none")


def _administers(account: Account | None) -> bool:
    return account is not None and account.role is Role.ADMINISTRATOR and not account.disabled


def check_change(users: Mapping[str, Account], user: str, new: Account | None) -> None:
    """``user`` may become ``new`` (None: be removed): not when it is the last enabled
    administrator and would no longer be one."""
    if new is not None:
        check_account(new)
    if not _administers(users.get(user)) or _administers(new):
        return
    if not any(_administers(a) for name, a in users.items() if name != user):
        what = "removed" if new is None else ("disabled" if new.disabled else "demoted")
        raise Conflict(f"{user!r} is the last administrator and cannot be {what}")


def resets_password(by: str, by_account: Account | None, user: str) -> bool:
    """Whether ``by`` setting ``user``'s password is an administrator's reset (False:
    users changing their own, which needs the old one); :class:`Forbidden` when it is
    neither."""
    if by == user:
        return False
    if not _administers(by_account):
        raise Forbidden(
            f"only an administrator sets the password of another user than {by!r}; "
            "nothing was changed"
        )
    return True


def changed(account: Account, **fields: Any) -> Account:
    """``account`` with ``fields`` replaced."""
    return dataclasses.replace(account, **fields)
