"""Print profiles over HTTP: both names of each value, upsert, read, delete, errors."""

from typing import Any

from tests.support.app import SharedApp, reopened_settings
from tests.support.http import error, ok
from tests.support.mixins import CrudMixin, NamesInPathsMixin, SortedByNameMixin

#: the names every profile carries, global or not
ALWAYS = {
    "isGlobal",
    "global",
    "queueName",
    "print_dialog",
    "showDialog",
    "release_jobs",
    "autoReleaseJob",
    "show_text_entry",
    "showTextEntry",
}
#: (snake_case, camelCase) of every value but queueName
PAIRS = [
    ("isGlobal", "global"),
    ("print_dialog", "showDialog"),
    ("cost_per_page", "costPerPage"),
    ("free_pages_per_session", "freePages"),
    ("session_page_limit", "pageLimit"),
    ("release_jobs", "autoReleaseJob"),
    ("show_text_entry", "showTextEntry"),
    ("text_entry_label", "textEntryLabel"),
    ("max_entry_chars", "maxEntryChars"),
    ("min_entry_chars", "minEntryChars"),
    ("printer_invoice_procedures", "printInvoiceProcedure"),
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
]
ALL = {name for pair in PAIRS for name in pair} | {"queueName"}


def post(api: Any, *profiles: dict[str, Any]) -> Any:
    return api.post("/printprofiles", json={"printProfiles": list(profiles)})


def one(api: Any, queue: str) -> dict[str, Any]:
    body = ok(api.get(f"/printprofiles/{queue}"))
    assert len(body["printProfiles"]) == 1
    profile: dict[str, Any] = body["printProfiles"][0]
    return profile


class TestPrintProfileCrud(SharedApp, CrudMixin, NamesInPathsMixin, SortedByNameMixin):
    """Profiles are known by their queue names; posting a known queue updates it."""

    collection = "/printprofiles"
    list_key = "printProfiles"
    id_field = name_field = "queueName"
    taken_name = "replaces"
    not_found = ("queue", "does not exist")

    def valid_body(self, api, name):
        return {"printProfiles": [{"queueName": name, "freePages": 1}]}

    def nameless_bodies(self, api):
        return [
            (self.valid_body(api, ""), ("queueName",)),
            (self.valid_body(api, "  "), ("queueName",)),
            ({"printProfiles": [{"print_dialog": True}]}, ("queueName",)),
        ]

    def invalid_bodies(self, api):
        return [({"printProfiles": [profile]}, 400, (field,)) for profile, field in INVALID] + [
            ({}, 400, ("printProfiles",)),
            ({"printProfiles": {"queueName": "q"}}, 400, ()),
            ({"printProfiles": ["q"]}, 400, ()),
            (
                {"printProfiles": [{"queueName": "q"}, {"queueName": "q", "freePages": 2}]},
                400,
                ("twice",),
            ),
        ]

    def answer(self, response):
        [profile] = ok(response)["printProfiles"]
        return profile

    def read_answer(self, response):
        [profile] = ok(response)["printProfiles"]
        return profile

    def test_queue_names_with_spaces_and_accents(self, api):
        ok(post(api, {"queueName": "Floor 2 ä"}))
        assert one(api, "Floor 2 ä")["queueName"] == "Floor 2 ä"
        ok(api.delete("/printprofiles/Floor 2 ä"))
        assert "Floor 2 ä" not in {
            p["queueName"] for p in ok(api.get("/printprofiles"))["printProfiles"]
        }


def test_empty(api):
    assert ok(api.get("/printprofiles")) == {"printProfiles": []}


def test_not_global_carries_only_its_values(api):
    body = ok(post(api, {"queueName": "lab", "print_dialog": False, "cost_per_page": 0.25}))
    assert set(body["printProfiles"][0]) == ALWAYS
    profile = one(api, "lab")
    assert set(profile) == ALWAYS
    assert profile["isGlobal"] is profile["global"] is False
    assert profile["print_dialog"] is profile["showDialog"] is False
    assert ok(api.get("/printprofiles")) == {"printProfiles": [profile]}


def test_global_carries_every_value_under_both_names(api):
    ok(
        post(
            api,
            {
                "queueName": "office",
                "global": True,
                "costPerPage": 0.1,
                "freePages": 5,
                "pageLimit": 100,
                "textEntryLabel": "Cost centre",
                "maxEntryChars": 12,
                "minEntryChars": 3,
                "pageCostMessage": "Costs {price} for {number} pages",
            },
        )
    )
    profile = one(api, "office")
    assert set(profile) == ALL
    for snake, camel in PAIRS:
        assert profile[snake] == profile[camel], (snake, camel)
    assert profile["isGlobal"] is True
    assert profile["cost_per_page"] == 0.1
    assert profile["free_pages_per_session"] == 5
    assert profile["session_page_limit"] == 100
    assert profile["text_entry_label"] == "Cost centre"
    assert (profile["min_entry_chars"], profile["max_entry_chars"]) == (3, 12)
    assert profile["page_cost_message"] == "Costs {price} for {number} pages"


def test_both_names_that_agree_are_accepted(api):
    ok(
        post(
            api,
            {
                "queueName": "q",
                "isGlobal": True,
                "global": True,
                "session_page_limit": 7,
                "pageLimit": 7,
            },
        )
    )
    assert one(api, "q")["pageLimit"] == 7


def test_both_names_that_disagree_are_refused(api):
    error(
        post(api, {"queueName": "q", "release_jobs": True, "autoReleaseJob": False}),
        400,
        "release_jobs",
        "autoReleaseJob",
    )
    error(
        post(api, {"queueName": "q", "maxEntryChars": 10, "max_entry_chars": 11}),
        400,
        "max_entry_chars",
        "maxEntryChars",
    )
    assert ok(api.get("/printprofiles")) == {"printProfiles": []}


def test_update_keeps_values_not_given(api):
    ok(post(api, {"queueName": "q", "global": True, "costPerPage": 0.5, "freePages": 2}))
    ok(post(api, {"queueName": "q", "pageLimit": 50}))
    profile = one(api, "q")
    assert (profile["costPerPage"], profile["freePages"], profile["pageLimit"]) == (0.5, 2, 50)
    # made not global, the profile shows fewer values but keeps the others
    ok(post(api, {"queueName": "q", "isGlobal": False}))
    assert set(one(api, "q")) == ALWAYS
    ok(post(api, {"queueName": "q", "global": True}))
    assert one(api, "q")["costPerPage"] == 0.5


def test_upsert_several_and_list_sorted(api):
    body = ok(post(api, {"queueName": "b"}, {"queueName": "a", "global": True}))
    assert [p["queueName"] for p in body["printProfiles"]] == ["b", "a"]
    ok(post(api, {"queueName": "c"}, {"queueName": "a", "freePages": 1}))
    listed = ok(api.get("/printprofiles"))["printProfiles"]
    assert [p["queueName"] for p in listed] == ["a", "b", "c"]
    assert listed[0]["freePages"] == 1


def test_defaults(api):
    ok(post(api, {"queueName": "q", "global": True}))
    profile = one(api, "q")
    assert profile["cost_per_page"] == 0
    assert profile["min_entry_chars"] <= profile["max_entry_chars"]
    assert profile["showDialog"] is True
    assert "{number}" in profile["pageCountPluralMessage"]


def test_all_or_nothing(api):
    ok(post(api, {"queueName": "kept", "freePages": 1}))
    error(
        post(api, {"queueName": "new"}, {"queueName": "kept", "freePages": -1}),
        400,
        "printProfiles[1]",
        "freePages",
    )
    assert [p["queueName"] for p in ok(api.get("/printprofiles"))["printProfiles"]] == ["kept"]
    error(api.get("/printprofiles/new"), 404)


INVALID = (
    ({"queueName": "q", "maxEntryChars": "many"}, "maxEntryChars"),
    ({"queueName": "q", "free_pages_per_session": 1.5}, "free_pages_per_session"),
    ({"queueName": "q", "costPerPage": "cheap"}, "costPerPage"),
    ({"queueName": "q", "print_dialog": "maybe"}, "print_dialog"),
    ({"queueName": "q", "textEntryLabel": ["a"]}, "textEntryLabel"),
    ({"queueName": "q", "global": {"yes": 1}}, "global"),
    ({"queueName": "q", "cost_per_page": -0.01}, "cost_per_page"),
    ({"queueName": "q", "pageLimit": -1}, "pageLimit"),
    ({"queueName": "q", "min_entry_chars": -1}, "min_entry_chars"),
    ({"queueName": "q", "minEntryChars": 10, "maxEntryChars": 5}, "min_entry_chars"),
    ({"queueName": "q", "dialogTitle": "x" * 1001}, "dialogTitle"),
    ({"queueName": ""}, "queueName"),
    ({"queueName": "  "}, "queueName"),
    ({"queueName": "a/b"}, "queueName"),
    ({"queueName": 5}, "queueName"),
    ({"print_dialog": True}, "queueName"),
)


def test_min_equal_to_max_is_fine(api):
    ok(post(api, {"queueName": "q", "global": True, "minEntryChars": 4, "maxEntryChars": 4}))
    assert one(api, "q")["minEntryChars"] == 4


def test_min_max_checked_against_stored_values(api):
    ok(post(api, {"queueName": "q", "maxEntryChars": 8}))
    error(post(api, {"queueName": "q", "minEntryChars": 9}), 400, "min_entry_chars")


def test_read_and_delete_one(api, data_dir):
    ok(post(api, {"queueName": "lab"}, {"queueName": "office"}))
    assert ok(api.get("/printprofiles/lab"))["printProfiles"][0]["queueName"] == "lab"
    error(api.get("/printprofiles/nowhere"), 404, "queue", "does not exist")
    assert ok(api.delete("/printprofiles/lab"))["message"]
    error(api.get("/printprofiles/lab"), 404, "does not exist")
    error(api.delete("/printprofiles/lab"), 404, "does not exist")
    assert [p["queueName"] for p in ok(api.get("/printprofiles"))["printProfiles"]] == ["office"]
    stored = reopened_settings(data_dir)["print_profiles"]
    assert [p["queue_name"] for p in stored] == ["office"]


def test_needs_a_session(sessionless):
    assert sessionless.get("/printprofiles").status_code == 401
    assert sessionless.post("/printprofiles", json={"printProfiles": []}).status_code == 401
    assert sessionless.delete("/printprofiles/q").status_code == 401
