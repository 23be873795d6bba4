"""Print profiles: upsert several at once, list, read and delete by queue name.

Each value is carried under its snake_case and its camelCase name; a profile that is
not global carries only the values such profiles have.
"""

from typing import Any

import msgspec
from litestar import delete, get, post
from msgspec import UNSET, UnsetType

from tilewall.api.common import Done, errors
from tilewall.host.host import Host
from tilewall.host.system.printprofiles import PrintProfile, to_wire

TAGS = ["Print profiles"]


class PrintProfileBody(msgspec.Struct):
    """A print profile; in requests every field but queueName may be left out."""

    isGlobal: bool | UnsetType = UNSET
    global_: bool | UnsetType = msgspec.field(default=UNSET, name="global")
    queueName: str | UnsetType = UNSET
    print_dialog: bool | UnsetType = UNSET
    showDialog: bool | UnsetType = UNSET
    cost_per_page: float | UnsetType = UNSET
    costPerPage: float | UnsetType = UNSET
    free_pages_per_session: int | UnsetType = UNSET
    freePages: int | UnsetType = UNSET
    session_page_limit: int | UnsetType = UNSET
    pageLimit: int | UnsetType = UNSET
    release_jobs: bool | UnsetType = UNSET
    autoReleaseJob: bool | UnsetType = UNSET
    show_text_entry: bool | UnsetType = UNSET
    showTextEntry: bool | UnsetType = UNSET
    text_entry_label: str | UnsetType = UNSET
    textEntryLabel: str | UnsetType = UNSET
    max_entry_chars: int | UnsetType = UNSET
    maxEntryChars: int | UnsetType = UNSET
    min_entry_chars: int | UnsetType = UNSET
    minEntryChars: int | UnsetType = UNSET
    printer_invoice_procedures: str | UnsetType = UNSET
    printInvoiceProcedure: str | UnsetType = UNSET
    color_page_count_plural_message: str | UnsetType = UNSET
    colorPageCountPluralMessage: str | UnsetType = UNSET
    color_page_count_singular_message: str | UnsetType = UNSET
    colorPageCountSingularMessage: str | UnsetType = UNSET
    dialog_title: str | UnsetType = UNSET
    dialogTitle: str | UnsetType = UNSET
    exceed_total_page_count_message: str | UnsetType = UNSET
    exceedTotalPageCountMessage: str | UnsetType = UNSET
    failed_page_count_accounting_message: str | UnsetType = UNSET
    failedPageCountAccountingMessage: str | UnsetType = UNSET
    failed_page_count_message: str | UnsetType = UNSET
    failedPageCountMessage: str | UnsetType = UNSET
    free_page_count_plural_message: str | UnsetType = UNSET
    freePageCountPluralMessage: str | UnsetType = UNSET
    free_page_count_singular_message: str | UnsetType = UNSET
    freePageCountSingularMessage: str | UnsetType = UNSET
    other_dialog_title: str | UnsetType = UNSET
    otherDialogTitle: str | UnsetType = UNSET
    page_cost_message: str | UnsetType = UNSET
    pageCostMessage: str | UnsetType = UNSET
    page_count_plural_message: str | UnsetType = UNSET
    pageCountPluralMessage: str | UnsetType = UNSET
    page_count_singular_message: str | UnsetType = UNSET
    pageCountSingularMessage: str | UnsetType = UNSET
    print_receipt_checkbox_label: str | UnsetType = UNSET
    printReceiptCheckboxLabel: str | UnsetType = UNSET
    total_page_count_plural_message: str | UnsetType = UNSET
    totalPageCountPluralMessage: str | UnsetType = UNSET


class PrintProfiles(msgspec.Struct):
    printProfiles: list[PrintProfileBody]


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
