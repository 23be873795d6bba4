"""Troubleshooting reports: submit the form, download the archive."""

import asyncio
from typing import Annotated

import msgspec
from litestar import get, post
from litestar.response import File

from tilewall.api import accesslog
from tilewall.api.common import FILE_HEADERS, errors
from tilewall.host.host import Host
from tilewall.host.machine.troubleshooting import ReportForm

TAGS = ["System"]


Field = Annotated[str, msgspec.Meta(max_length=20_000)]


class ReportIn(msgspec.Struct):
    name: Field = ""
    #: an e-mail address, or empty
    email: Annotated[
        str, msgspec.Meta(max_length=20_000, pattern=r"^(?:\s*[^@\s]+@[^@\s]+\s*)?$")
    ] = ""
    catagory: Field = ""
    whatDoing: Field = ""
    description: Field = ""
    additionalText: Field = ""


class ReportOut(msgspec.Struct):
    message: str
    download: str
    bytes: int


@post(
    "/system/submittroubleshootingreport",
    tags=TAGS,
    status_code=200,
    summary="Submit a troubleshooting report",
    description=(
        "Keeps the form and builds a tar.bz2 with it, the interface log, the redacted "
        "configuration, diagnostics and a dump of the host's state. No password hashes, "
        "session ids or activation codes go in. The field `catagory` is spelled so."
    ),
    responses=errors(503),
)
async def submit_report(host: Host, data: ReportIn) -> ReportOut:
    await asyncio.to_thread(accesslog.flush)  # the report has every request before it
    path = await host.submit_troubleshooting_report(ReportForm(**msgspec.structs.asdict(data)))
    return ReportOut(
        "troubleshooting report created",
        "/api/system/downloadtroubleshootingreport",
        path.stat().st_size,
    )


@get(
    "/system/downloadtroubleshootingreport",
    tags=TAGS,
    summary="Download the last troubleshooting report (tar.bz2)",
    description="404 until a report has been submitted.",
    responses=errors(404),
    media_type="application/x-bzip2",
    content_media_type="application/x-bzip2",
    response_headers=FILE_HEADERS,
)
async def download_report(host: Host) -> File:
    path = host.troubleshooting_report()
    return File(path, filename=path.name, media_type="application/x-bzip2")


ROUTES = [submit_report, download_report]
