"""Print profiles: upsert several at once, list, read and delete by queue name.

Each value is carried under its snake_case and its camelCase name; a profile that is
not global carries only the values such profiles have.
"""

from typing import Annotated, Any

import msgspec
from litestar import delete, get, post
from msgspec import UNSET, UnsetType

from tilewall.api.common import Done, errors
from tilewall.host.host import Host
from tilewall.host.peripherals.printprofiles import PrintProfile, to_wire

TAGS = ["Print profiles"]


#: (the framework drops a minimum of 0 from optional fields: it is stated again)
_NOT_NEGATIVE = {"extra": {"minimum": 0}}
#: counts of pages and characters
Count = Annotated[int, msgspec.Meta(ge=0, le=1_000_000, extra_json_schema=_NOT_NEGATIVE)]
Cost = Annotated[float, msgspec.Meta(ge=0, le=1_000_000, extra_json_schema=_NOT_NEGATIVE)]
Label = Annotated[str, msgspec.Meta(max_length=1000)]
QueueName = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        pattern=r"^[^/\x00-\x1f]*[^/\s\x00-\x1f][^/\x00-\x1f]*$",
        description="The key of the profile: not blank, without '/' or control characters.",
    ),
]


class PrintProfileBody(msgspec.Struct, kw_only=True):
    """A print profile; in requests every field but queueName may be left out. A value
    given under both its names must be the same under both, and min_entry_chars may not
    exceed max_entry_chars."""

    isGlobal: bool | UnsetType = UNSET
    global_: bool | UnsetType = msgspec.field(default=UNSET, name="global")
    queueName: QueueName
    print_dialog: bool | UnsetType = UNSET
    showDialog: bool | UnsetType = UNSET
    cost_per_page: Cost | UnsetType = UNSET
    costPerPage: Cost | UnsetType = UNSET
    free_pages_per_session: Count | UnsetType = UNSET
    freePages: Count | UnsetType = UNSET
    session_page_limit: Count | UnsetType = UNSET
    pageLimit: Count | UnsetType = UNSET
    release_jobs: bool | UnsetType = UNSET
    autoReleaseJob: bool | UnsetType = UNSET
    show_text_entry: bool | UnsetType = UNSET
    showTextEntry: bool | UnsetType = UNSET
    text_entry_label: Label | UnsetType = UNSET
    textEntryLabel: Label | UnsetType = UNSET
    max_entry_chars: Count | UnsetType = UNSET
    maxEntryChars: Count | UnsetType = UNSET
    min_entry_chars: Count | UnsetType = UNSET
    minEntryChars: Count | UnsetType = UNSET
    printer_invoice_procedures: Label | UnsetType = UNSET
    printInvoiceProcedure: Label | UnsetType = UNSET
    color_page_count_plural_message: Label | UnsetType = UNSET
    colorPageCountPluralMessage: Label | UnsetType = UNSET
    color_page_count_singular_message: Label | UnsetType = UNSET
    colorPageCountSingularMessage: Label | UnsetType = UNSET
    dialog_title: Label | UnsetType = UNSET
    dialogTitle: Label | UnsetType = UNSET
    exceed_total_page_count_message: Label | UnsetType = UNSET
    exceedTotalPageCountMessage: Label | UnsetType = UNSET
    failed_page_count_accounting_message: Label | UnsetType = UNSET
    failedPageCountAccountingMessage: Label | UnsetType = UNSET
    failed_page_count_message: Label | UnsetType = UNSET
    failedPageCountMessage: Label | UnsetType = UNSET
    free_page_count_plural_message: Label | UnsetType = UNSET
    freePageCountPluralMessage: Label | UnsetType = UNSET
    free_page_count_singular_message: Label | UnsetType = UNSET
    freePageCountSingularMessage: Label | UnsetType = UNSET
    other_dialog_title: Label | UnsetType = UNSET
    otherDialogTitle: Label | UnsetType = UNSET
    page_cost_message: Label | UnsetType = UNSET
    pageCostMessage: Label | UnsetType = UNSET
    page_count_plural_message: Label | UnsetType = UNSET
    pageCountPluralMessage: Label | UnsetType = UNSET
    page_count_singular_message: Label | UnsetType = UNSET
    pageCountSingularMessage: Label | UnsetType = UNSET
    print_receipt_checkbox_label: Label | UnsetType = UNSET
    printReceiptCheckboxLabel: Label | UnsetType = UNSET
    total_page_count_plural_message: Label | UnsetType = UNSET
    totalPageCountPluralMessage: Label | UnsetType = UNSET


class PrintProfiles(msgspec.Struct):
    printProfiles: Annotated[
        list[PrintProfileBody],
        msgspec.Meta(
            description="One item per queueName. A value given under both its names must be "
            "the same under both; min_entry_chars may not exceed max_entry_chars."
        ),
    ]


def shape(profile: PrintProfile) -> PrintProfileBody:
    return msgspec.convert(to_wire(profile), PrintProfileBody)


def _raw(body: PrintProfileBody) -> dict[str, Any]:
    raw: dict[str, Any] = msgspec.to_builtins(body)
    return raw


@post(
    "/printprofiles",
    status_code=200,
    tags=TAGS,
    summary="Create print profiles, or update those of the same queueName (all or none)",
    description="A value given under both its names must be the same under both; min_entry_chars "
    "may not exceed max_entry_chars; a queue has one profile in a request. 400 otherwise.",
    responses=errors(),
)
async def upsert_profiles(host: Host, data: PrintProfiles) -> PrintProfiles:
    changed = await host.printprofiles.upsert([_raw(p) for p in data.printProfiles])
    return PrintProfiles([shape(p) for p in changed])


@get("/printprofiles", tags=TAGS, summary="List print profiles", responses=errors())
async def list_profiles(host: Host) -> PrintProfiles:
    return PrintProfiles([shape(p) for p in host.printprofiles.all()])


@get(
    "/printprofiles/{queuename:str}",
    tags=TAGS,
    summary="Read the print profile of a queue",
    responses=errors(404),
)
async def get_profile(host: Host, queuename: str) -> PrintProfiles:
    return PrintProfiles([shape(host.printprofiles.get(queuename))])


@delete(
    "/printprofiles/{queuename:str}",
    status_code=200,
    tags=TAGS,
    summary="Delete the print profile of a queue",
    responses=errors(404),
)
async def delete_profile(host: Host, queuename: str) -> Done:
    profile = await host.printprofiles.delete(queuename)
    return Done(f"print profile of queue {profile.queue_name!r} deleted")


ROUTES = [upsert_profiles, list_profiles, get_profile, delete_profile]
