"""A bounded schemathesis stateful run against a real host with the demo topology:
operations chained through the links schemathesis infers between them (an id a POST
answers fed to the GET, PUT and DELETE that take it), and never a 5xx."""

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import FlakyStrategyDefinition
from litestar.testing import TestClient
from schemathesis.checks import not_a_server_error

from tests.support.serving import Served, logged_in
from tilewall.app import create_app

STATUSES: Counter[tuple[str, int]] = Counter()


def _document() -> dict[str, Any]:
    with TestClient(create_app(None)) as client:
        document: dict[str, Any] = client.get("/api/openapi.json").json()
        return document


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory):
    data_dir: Path = tmp_path_factory.mktemp("stateful") / "data"
    with Served(data_dir, "--demo") as served:
        client = logged_in(served.base)
        yield served, client.cookies["JSESSIONID"]
        client.close()


@pytest.mark.timeout(300)
def test_stateful_run_follows_links_and_never_answers_5xx(host) -> None:
    served, token = host
    schema = (
        schemathesis.openapi.from_dict(_document())
        .exclude(method="POST", path="/api/session")
        .exclude(method="DELETE", path="/api/session")
    )
    machine = schema.as_state_machine()
    links = sum(
        len(response.get("links", {}))
        for path in schema.raw_schema["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict)
        for response in operation.get("responses", {}).values()
    )
    assert links >= 20, f"schemathesis inferred only {links} links"

    class Workflow(machine):  # type: ignore[misc,valid-type]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {
                "base_url": served.origin,
                "cookies": {"JSESSIONID": token},
                "timeout": 20,
            }

        def after_call(self, response: Any, case: Any) -> None:
            STATUSES[(case.operation.label, response.status_code)] += 1

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=[not_a_server_error])

    # a scenario draws from answers of the live host, so hypothesis, comparing the
    # scenarios of a run, may call its data generation flaky: such a run is counted and
    # the next one goes on; a 5xx fails its run, and is seen in STATUSES in any case
    flaky = 0
    for _ in range(8):
        try:
            Workflow.run(
                settings=settings(
                    max_examples=5,
                    stateful_step_count=6,
                    deadline=None,
                    phases=[Phase.generate],
                    database=None,
                    suppress_health_check=list(HealthCheck),
                )
            )
        except FlakyStrategyDefinition:
            flaky += 1
    assert flaky < 4, f"{flaky} of 8 runs ended as flaky data generation"
    steps = sum(STATUSES.values())
    print(f"stateful run: {steps} calls, statuses {Counter(s for _, s in STATUSES.elements())}")
    assert not [k for k in STATUSES if k[1] >= 500]
    # it reached real objects through ids earlier answers gave it
    reached = {label for (label, status) in STATUSES if 200 <= status < 300 and "{" in label}
    assert len(reached) >= 3, sorted(STATUSES)
