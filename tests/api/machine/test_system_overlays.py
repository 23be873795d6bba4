"""Overlays over HTTP: the broadcast alert, displays powered off (DPMS), display ids shown."""


def test_broadcast_lifecycle(api):
    assert api.get("/system/broadcast").json()["isDisplayed"] is False
    r = api.put(
        "/system/broadcast/start",
        json={"message": "Fire drill", "alertLevel": "RED_LEVEL", "lengthMillisec": 60000},
    )
    assert r.status_code == 200, r.text
    status = api.get("/system/broadcast").json()
    assert status["isDisplayed"] and status["alertLevel"] == "RED_LEVEL"
    assert 0 < status["remainingMillisec"] <= 60000
    api.put("/system/broadcast/stop")
    assert api.get("/system/broadcast").json()["isDisplayed"] is False


def test_broadcast_rejects_bad_level_and_length(api):
    for body in (
        {"message": "x", "alertLevel": "BLUE", "lengthMillisec": 10},
        {"message": "x", "alertLevel": "RED_LEVEL", "lengthMillisec": 0},
        {"message": " ", "alertLevel": "RED_LEVEL", "lengthMillisec": 10},
    ):
        r = api.put("/system/broadcast/start", json=body)
        assert r.status_code == 400 and r.json()["message"]
    assert api.get("/system/broadcast").json()["isDisplayed"] is False


def test_dpms_and_ids_for_unknown_display(api):
    assert api.put("/system/dpms/forceoff", json={"displayID": "99"}).status_code == 404
    assert api.put("/system/dpms/forceoff", json={"displayID": "abc"}).status_code == 400
    assert api.put("/system/showDisplayIds/start", params={"displayId": 99}).status_code == 404
    r = api.put("/system/dpms/forceoff")
    assert r.json() == {"allDisplaysOff": True, "displaysOff": []}
    assert api.put("/system/dpms/forceon").json()["allDisplaysOff"] is False
    assert api.put("/system/showDisplayIds/start").json()["allDisplays"] is True
