"""/system operations served so far."""

from tests.support.http import ok
from tests.support.sources import WEB, create_source
from tests.support.topology import locked_display


def test_mapping_data_version_outside_failover_group(api):
    response = api.get("/system/mappingdataversion")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert response.text == "-1"


def test_mapping_data_version_stays_minus_one_after_changes(api):
    display = locked_display(api)
    source = create_source(api, WEB)
    ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": source["sourceId"]}))
    assert api.get("/system/mappingdataversion").text == "-1"
