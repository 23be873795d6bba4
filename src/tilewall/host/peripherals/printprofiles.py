"""Print profiles: per print queue, how printing from a display's session is accounted.

The interface carries every value twice, under a snake_case name and under a camelCase
name (``FIELDS``). Requests may give either name or both; both must then agree. All
profiles are one setting (``print_profiles``), so a request that changes several
profiles changes all of them or none.
"""

import math
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from tilewall.host.errors import Invalid, NotFound
from tilewall.host.state import Core

SETTING = "print_profiles"
MAX_PROFILES = 1000
MAX_TEXT = 1000
MAX_COUNT = 1_000_000
MAX_COST = 1_000_000.0

Kind = Literal["bool", "int", "number", "str"]


class PrintProfile(msgspec.Struct):
    queue_name: str
    is_global: bool = False
    print_dialog: bool = True
    cost_per_page: float = 0.0
    free_pages_per_session: int = 0
    #: 0 means no limit
    session_page_limit: int = 0
    release_jobs: bool = True
    show_text_entry: bool = False
    text_entry_label: str = "Account"
    max_entry_chars: int = 64
    min_entry_chars: int = 0
    printer_invoice_procedures: str = ""
    color_page_count_plural_message: str = "{number} colour pages"
    color_page_count_singular_message: str = "{number} colour page"
    dialog_title: str = "Print"
    exceed_total_page_count_message: str = "This job exceeds your limit of {number} pages"
    failed_page_count_accounting_message: str = "The pages of this job could not be accounted"
    failed_page_count_message: str = "The pages of this job could not be counted"
    free_page_count_plural_message: str = "{number} pages are free"
    free_page_count_singular_message: str = "{number} page is free"
    other_dialog_title: str = "Print"
    page_cost_message: str = "This job costs {price}"
    page_count_plural_message: str = "{number} pages"
    page_count_singular_message: str = "{number} page"
    print_receipt_checkbox_label: str = "Print a receipt"
    total_page_count_plural_message: str = "{number} pages in total"


@dataclass(frozen=True)
class Field:
    attr: str
    snake: str
    camel: str
    kind: Kind
    #: carried by profiles that are not global too
    always: bool = False


FIELDS: tuple[Field, ...] = (
    Field("is_global", "isGlobal", "global", "bool", always=True),
    Field("queue_name", "queueName", "queueName", "str", always=True),
    Field("print_dialog", "print_dialog", "showDialog", "bool", always=True),
    Field("cost_per_page", "cost_per_page", "costPerPage", "number"),
    Field("free_pages_per_session", "free_pages_per_session", "freePages", "int"),
    Field("session_page_limit", "session_page_limit", "pageLimit", "int"),
    Field("release_jobs", "release_jobs", "autoReleaseJob", "bool", always=True),
    Field("show_text_entry", "show_text_entry", "showTextEntry", "bool", always=True),
    Field("text_entry_label", "text_entry_label", "textEntryLabel", "str"),
    Field("max_entry_chars", "max_entry_chars", "maxEntryChars", "int"),
    Field("min_entry_chars", "min_entry_chars", "minEntryChars", "int"),
    Field(
        "printer_invoice_procedures", "printer_invoice_procedures", "printInvoiceProcedure", "str"
    ),
    *(
        Field(attr, attr, camel, "str")
        for attr, camel in (
            ("color_page_count_plural_message", "colorPageCountPluralMessage"),
            ("color_page_count_singular_message", "colorPageCountSingularMessage"),
            ("dialog_title", "dialogTitle"),
            ("exceed_total_page_count_message", "exceedTotalPageCountMessage"),
            ("failed_page_count_accounting_message", "failedPageCountAccountingMessage"),
            ("failed_page_count_message", "failedPageCountMessage"),
            ("free_page_count_plural_message", "freePageCountPluralMessage"),
            ("free_page_count_singular_message", "freePageCountSingularMessage"),
            ("other_dialog_title", "otherDialogTitle"),
            ("page_cost_message", "pageCostMessage"),
            ("page_count_plural_message", "pageCountPluralMessage"),
            ("page_count_singular_message", "pageCountSingularMessage"),
            ("print_receipt_checkbox_label", "printReceiptCheckboxLabel"),
            ("total_page_count_plural_message", "totalPageCountPluralMessage"),
        )
    ),
)

_KIND_WORD = {"bool": "a boolean", "int": "an integer", "number": "a number", "str": "a string"}


def _typed(value: Any, kind: Kind, where: str) -> Any:
    """``value`` if it is of ``kind`` (an integral float counts as an integer)."""
    ok: bool
    if kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "str":
        ok = isinstance(value, str)
    elif isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        ok = False
    elif kind == "int":
        ok = isinstance(value, int) or float(value).is_integer()
        value = int(value) if ok else value
    else:
        ok = True
        value = float(value)
    if not ok:
        raise Invalid(f"{where} must be {_KIND_WORD[kind]}")
    return value


def _bounded(field: Field, value: Any, where: str) -> Any:
    if field.kind == "int" and not 0 <= value <= MAX_COUNT:
        raise Invalid(f"{where} must be between 0 and {MAX_COUNT}")
    if field.kind == "number" and not 0 <= value <= MAX_COST:
        raise Invalid(f"{where} must be between 0 and {MAX_COST:g}")
    if field.kind == "str" and len(value) > MAX_TEXT:
        raise Invalid(f"{where} must be at most {MAX_TEXT} characters")
    return value


def queue_name_of(raw: dict[str, Any], where: str) -> str:
    """The queue a request item addresses, checked: a non-empty string without '/'."""
    value = _value(raw, FIELDS[1], where)
    if value is None or not value.strip():
        raise Invalid(f"{where}queueName is required and must not be empty")
    if "/" in value or any(ord(c) < 32 for c in value):
        raise Invalid(f"{where}queueName must not contain '/' or control characters")
    return str(value)


def _value(raw: dict[str, Any], field: Field, where: str) -> Any:
    """The value a request gives for ``field`` under either name, or None if neither."""
    given: list[tuple[str, Any]] = []
    for name in dict.fromkeys((field.snake, field.camel)):
        if name in raw and raw[name] is not None:
            value = _typed(raw[name], field.kind, f"{where}{name}")
            given.append((name, _bounded(field, value, f"{where}{name}")))
    if len(given) == 2 and given[0][1] != given[1][1]:
        raise Invalid(
            f"{where}{field.snake} and {where}{field.camel} disagree "
            f"({given[0][1]!r} and {given[1][1]!r})"
        )
    return given[0][1] if given else None


def merge(raw: dict[str, Any], base: PrintProfile | None, where: str = "") -> PrintProfile:
    """The profile ``raw`` describes: given values over ``base`` (or the defaults)."""
    if not isinstance(raw, dict):
        raise Invalid(f"{where.rstrip('.') or 'a print profile'} must be an object")
    queue = queue_name_of(raw, where)
    values = msgspec.structs.asdict(base) if base is not None else {}
    for field in FIELDS[2:]:
        value = _value(raw, field, where)
        if value is not None:
            values[field.attr] = value
    values["queue_name"] = queue
    is_global = _value(raw, FIELDS[0], where)
    if is_global is not None:
        values["is_global"] = is_global
    profile = PrintProfile(**values)
    if profile.min_entry_chars > profile.max_entry_chars:
        raise Invalid(
            f"{where}min_entry_chars ({profile.min_entry_chars}) must not exceed "
            f"max_entry_chars ({profile.max_entry_chars})"
        )
    return profile


def to_wire(profile: PrintProfile) -> dict[str, Any]:
    """The profile under both names of each value; a profile that is not global carries
    only the values the interface gives such profiles."""
    out: dict[str, Any] = {}
    for field in FIELDS:
        if profile.is_global or field.always:
            value = getattr(profile, field.attr)
            out[field.snake] = value
            out[field.camel] = value
    return out


class PrintProfiles:
    def __init__(self, core: Core) -> None:
        self._core = core

    def _stored(self) -> dict[str, PrintProfile]:
        profiles = self._core.setting(SETTING, list[PrintProfile], [])
        return {p.queue_name: p for p in profiles}

    def all(self) -> list[PrintProfile]:
        return sorted(self._stored().values(), key=lambda p: p.queue_name)

    def get(self, queue_name: str) -> PrintProfile:
        found = self._stored().get(queue_name)
        if found is None:
            raise NotFound(f"queue {queue_name!r} does not exist")
        return found

    async def upsert(self, items: list[dict[str, Any]]) -> list[PrintProfile]:
        """Update the profile of each item's queue, or create it; all or nothing."""
        if not isinstance(items, list):
            raise Invalid("printProfiles must be a list of print profiles")
        async with self._core.change() as tx:
            stored = self._stored()
            changed: dict[str, PrintProfile] = {}
            for i, raw in enumerate(items):
                where = f"printProfiles[{i}]."
                if not isinstance(raw, dict):
                    raise Invalid(f"printProfiles[{i}] must be an object")
                queue = queue_name_of(raw, where)
                if queue in changed:
                    raise Invalid(f"{where}queueName {queue!r} is given twice")
                changed[queue] = merge(raw, stored.get(queue), where)
            stored.update(changed)
            if len(stored) > MAX_PROFILES:
                raise Invalid(f"at most {MAX_PROFILES} print profiles can be kept")
            if changed:
                tx.put_setting(SETTING, sorted(stored.values(), key=lambda p: p.queue_name))
        return list(changed.values())

    async def delete(self, queue_name: str) -> PrintProfile:
        async with self._core.change() as tx:
            stored = self._stored()
            found = stored.pop(queue_name, None)
            if found is None:
                raise NotFound(f"queue {queue_name!r} does not exist")
            tx.put_setting(SETTING, sorted(stored.values(), key=lambda p: p.queue_name))
        return found
