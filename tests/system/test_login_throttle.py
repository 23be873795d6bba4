"""Password guessing: failed logins counted per address and per address and user name;
past the threshold the host answers 429 at once with Retry-After, for a window that
grows; a correct password from another address is not slowed; nothing is held open."""

import time

import httpx
import pytest

from tests.support.serving import ADMIN, PASSWORD, Served
from tilewall.host.access.throttle import LoginThrottle, Policy


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_a_user_is_locked_after_five_failures_and_the_lock_doubles() -> None:
    clock = Clock()
    throttle = LoginThrottle(now=clock)
    for _ in range(4):
        assert throttle.record("192.0.2.1", "admin", ok=False) == 0
        assert throttle.retry_after("192.0.2.1", "admin") == 0
    assert throttle.record("192.0.2.1", "admin", ok=False) == 30
    assert throttle.retry_after("192.0.2.1", "admin") == 30
    # only that user from that address
    assert throttle.retry_after("192.0.2.1", "operator") == 0
    assert throttle.retry_after("192.0.2.2", "admin") == 0
    clock.t += 30
    assert throttle.retry_after("192.0.2.1", "admin") == 0
    # persistence: each lock twice as long, up to the ceiling
    locks = []
    for _ in range(8):
        locks.append(throttle.record("192.0.2.1", "admin", ok=False))
        clock.t += locks[-1]
    assert locks == [60, 120, 240, 480, 900, 900, 900, 900]


def test_a_correct_password_clears_the_users_count_but_not_the_addresses() -> None:
    clock = Clock()
    throttle = LoginThrottle(now=clock)
    for _ in range(4):
        throttle.record("192.0.2.1", "admin", ok=False)
    throttle.record("192.0.2.1", "admin", ok=True)
    for _ in range(4):
        assert throttle.record("192.0.2.1", "admin", ok=False) == 0
    # twenty failures across user names lock the address for every name
    for n in range(12):
        throttle.record("192.0.2.1", f"user{n}", ok=False)
    assert throttle.retry_after("192.0.2.1", "someone-else") == 30
    assert throttle.retry_after("192.0.2.9", "admin") == 0


def test_counts_are_forgotten_after_an_hour_and_memory_is_bounded() -> None:
    clock = Clock()
    throttle = LoginThrottle(Policy(max_keys=100), now=clock)
    for _ in range(5):
        throttle.record("192.0.2.1", "admin", ok=False)
    clock.t += 3601
    assert throttle.retry_after("192.0.2.1", "admin") == 0
    assert throttle.record("192.0.2.1", "admin", ok=False) == 0
    for n in range(5000):
        throttle.record(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", f"u{n}", ok=False)
    assert throttle.tracked <= 200


def _login(client: httpx.Client, password: str, user: str = ADMIN) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = client.post("/session", json={"user": user, "password": password})
    return response, time.monotonic() - started


@pytest.mark.timeout(120)
def test_guessing_over_http_is_refused_at_once_and_other_addresses_are_not_slowed(
    tmp_path,
) -> None:
    with Served(tmp_path / "data") as served:
        guesser = httpx.Client(base_url=served.base, timeout=20)
        other = httpx.Client(
            base_url=served.base,
            timeout=20,
            transport=httpx.HTTPTransport(local_address="127.0.0.2"),
        )
        third = httpx.Client(
            base_url=served.base,
            timeout=20,
            transport=httpx.HTTPTransport(local_address="127.0.0.3"),
        )
        wrong = []
        for n in range(5):
            response, took = _login(guesser, f"guess {n} wrong")
            assert response.status_code == 401, response.text
            wrong.append(took)
        refused = []
        for n in range(10):
            response, took = _login(guesser, f"guess {n + 5} wrong")
            refused.append(took)
            assert response.status_code == 429, response.text
            body = response.json()
            assert body["status"] == 429 and "too many failed logins" in body["message"]
            assert 1 <= int(response.headers["retry-after"]) <= 30
        # the right password from the guessing address is refused too, as fast
        response, took_right_locked = _login(guesser, PASSWORD)
        assert response.status_code == 429
        # from another address it gets in, not slowed
        response, took_other = _login(other, PASSWORD)
        assert response.status_code == 200, response.text
        # twenty failures across user names from one address lock the address
        for n in range(20):
            response, _ = _login(third, "nope nope", user=f"user{n}")
            assert response.status_code == 401, (n, response.text)
        response, _ = _login(third, PASSWORD)
        assert response.status_code == 429
        print(
            f"wrong password answered in {max(wrong):.3f} s at most; 429 in "
            f"{max(refused):.3f} s at most; right password while locked {took_right_locked:.3f} s; "
            f"right password from 127.0.0.2 {took_other:.3f} s"
        )
        assert max(refused) < 1.0 and took_right_locked < 1.0
        assert took_other < 3.0
        for client in (guesser, other, third):
            client.close()
    logged = served.output()
    assert "address 127.0.0.3 locked for 30 s after 20 failures" in logged
    assert "user 'admin' from 127.0.0.1 locked for 30 s after 5 failures" in logged
