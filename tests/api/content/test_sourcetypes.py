"""GET /api/sourcetypes: the catalogue the console builds its source forms from."""

from tests.support.http import error, ok


def test_every_source_type_with_its_param_schema(api):
    types = {t["sourceType"]: t for t in ok(api.get("/sourcetypes"))["sourceTypes"]}
    assert set(types) == {
        "Signage Player",
        "Web Browser",
        "Network Streamer",
        "RTSP Streamer",
        "Desktop Streamer (VNC)",
        "Capture",
        "Command and Control",
        "Screen share",
    }
    assert [t for t in types if types[t]["madeByHost"]] == ["Screen share"]
    signage = types["Signage Player"]
    assert signage["signage"] is True and signage["allowed"] is True
    params = {p["paramName"]: p for p in signage["params"]}
    assert params["Media"]["type"] == "FILE_DIR_SELECT"
    assert params["Slide Interval"]["minimum"] == 1
    assert params["Scaling"]["options"] == ["fit", "fill", "stretch"]
    url = next(p for p in types["Web Browser"]["params"] if p["paramName"] == "URL")
    assert url["required"] is True and url["type"] == "URL"
    assert url["secret"] is False
    vnc = {p["paramName"]: p for p in types["Desktop Streamer (VNC)"]["params"]}
    assert vnc["Password"]["secret"] is True and vnc["Host"]["required"] is True
    assert vnc["Port"]["default"] == "5900" and vnc["Port"]["maximum"] == 65535
    capture = {p["paramName"]: p for p in types["Capture"]["params"]}
    assert capture["Device"]["default"] == "/dev/video0"


def test_it_needs_a_session_and_is_marked_an_extension(sessionless):
    error(sessionless.get("/sourcetypes"), 401)
    operation = ok(sessionless.get("/openapi.json"))["paths"]["/api/sourcetypes"]["get"]
    assert operation["x-tilewall-extension"] is True
