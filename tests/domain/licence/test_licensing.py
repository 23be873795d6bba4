import base64
import json
from dataclasses import replace
from datetime import date

import pytest

from tilewall.host.errors import Invalid
from tilewall.host.licence.codes import (
    ExpiredCode,
    ForeignCode,
    LicenceTerms,
    MalformedCode,
    StationLimitExceeded,
    UntrustedCode,
    activate,
    generate_signing_key,
    issue,
    key_id,
    load_private_key,
    load_public_key,
    private_key_pem,
    public_key_text,
    to_licence,
    verify,
)
from tilewall.host.model import Licence

TODAY = date(2025, 6, 1)
KEY = generate_signing_key()
TRUSTED = [public_key_text(KEY)]
TERMS = LicenceTerms(
    reseller_name="AV Partners",
    number_of_stations=10,
    issued="2025-01-01",
    expires="2026-01-01",
    support_expires="2025-12-31",
    system_id="sys-1",
    video_wall_module="enabled",
    fast_video_feature=True,
    session_management=False,
    source_types=["Web Browser", "Signage Player"],
)


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def test_issued_code_verifies_to_its_terms() -> None:
    code = issue(KEY, TERMS)
    assert code.startswith("TW1.") and code.count(".") == 2
    verified = verify(code, TRUSTED, TODAY, system_id="sys-1")
    assert verified.terms == TERMS
    assert verified.key_id == key_id(KEY)
    licence = to_licence(verified)
    assert licence == Licence(
        reseller_name="AV Partners",
        number_of_stations=10,
        system_id="sys-1",
        issued="2025-01-01",
        expires="2026-01-01",
        support_expires="2025-12-31",
        video_wall_module="enabled",
        fast_video_feature=True,
        session_management=False,
        source_types=["Web Browser", "Signage Player"],
        code=code,
    )


def test_unlimited_unbound_licence() -> None:
    terms = LicenceTerms("R", None, "2025-01-01")
    verified = verify(issue(KEY, terms), TRUSTED, date(2099, 1, 1), system_id="any")
    licence = to_licence(verified)
    assert licence.number_of_stations is None
    assert licence.source_types is None
    assert licence.expires == "" and licence.support_expires == ""


def test_keys_round_trip_through_pem_and_raw_text() -> None:
    again = load_private_key(private_key_pem(KEY))
    assert public_key_text(again) == public_key_text(KEY)
    assert load_private_key(b64(KEY.private_bytes_raw())).sign(b"x") == KEY.sign(b"x")
    public = load_public_key(TRUSTED[0])
    pem = public.public_bytes_raw()
    assert load_public_key(public_key_text(public)).public_bytes_raw() == pem
    code = issue(KEY, TERMS)
    assert verify(code, [public], TODAY).terms == TERMS


def test_two_issues_of_the_same_terms_differ_by_serial() -> None:
    a = LicenceTerms("R", 2, "2025-01-01")
    b = LicenceTerms("R", 2, "2025-01-01")
    assert issue(KEY, a) != issue(KEY, b)


# --- refusals


def test_unknown_key_is_untrusted() -> None:
    other = generate_signing_key()
    with pytest.raises(UntrustedCode, match="does not trust"):
        verify(issue(other, TERMS), TRUSTED, TODAY)
    with pytest.raises(UntrustedCode):
        verify(issue(KEY, TERMS), [], TODAY)


def test_changed_payload_is_forged() -> None:
    code = issue(KEY, TERMS)
    prefix, payload, signature = code.split(".")
    body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    body["number_of_stations"] = 1000
    forged = f"{prefix}.{b64(json.dumps(body).encode())}.{signature}"
    with pytest.raises(UntrustedCode, match="signature is not valid"):
        verify(forged, TRUSTED, TODAY)


def test_signature_from_another_key_under_our_key_id_is_forged() -> None:
    code = issue(KEY, TERMS)
    prefix, payload, _ = code.split(".")
    other = generate_signing_key()
    forged = f"{prefix}.{payload}.{b64(other.sign(f'{prefix}.{payload}'.encode()))}"
    with pytest.raises(UntrustedCode):
        verify(forged, TRUSTED, TODAY)
    with pytest.raises(UntrustedCode):
        verify(f"{prefix}.{payload}.AAAA", TRUSTED, TODAY)


def test_expired_code_is_refused() -> None:
    code = issue(KEY, TERMS)
    assert verify(code, TRUSTED, date(2026, 1, 1)).terms.expires == "2026-01-01"
    with pytest.raises(ExpiredCode, match="2026-01-01"):
        verify(code, TRUSTED, date(2026, 1, 2))


def test_code_of_another_system_is_refused() -> None:
    with pytest.raises(ForeignCode):
        verify(issue(KEY, TERMS), TRUSTED, TODAY, system_id="sys-2")


@pytest.mark.parametrize(
    "code",
    [
        "",
        "hello",
        "TW1",
        "TW1..",
        "TW2.e30.AAAA",
        "TW1.e30",
        "TW1.e30.AA.AA",
        "TW1.!!!.AAAA",
        "TW1.e30.A",
        "TW1.bm90IGpzb24.AAAA",
        "TW1.W10.AAAA",
    ],
)
def test_malformed_codes(code: str) -> None:
    with pytest.raises(MalformedCode):
        verify(code, TRUSTED, TODAY)


def test_signed_but_invalid_terms_are_malformed() -> None:
    body = {
        "kid": key_id(KEY),
        "reseller_name": "R",
        "number_of_stations": -3,
        "issued": "2025-01-01",
    }
    signed = f"TW1.{b64(json.dumps(body).encode())}"
    code = f"{signed}.{b64(KEY.sign(signed.encode()))}"
    with pytest.raises(MalformedCode, match="number_of_stations"):
        verify(code, TRUSTED, TODAY)


def test_issue_refuses_bad_terms() -> None:
    with pytest.raises(ValueError, match="issued"):
        issue(KEY, replace(TERMS, issued="1/1/2025"))
    with pytest.raises(ValueError, match="expires"):
        issue(KEY, replace(TERMS, expires="2025-02-30"))
    with pytest.raises(ValueError, match="number_of_stations"):
        issue(KEY, replace(TERMS, number_of_stations=0))


def test_all_refusals_are_invalid_requests() -> None:
    for error in (MalformedCode, UntrustedCode, ExpiredCode, ForeignCode, StationLimitExceeded):
        assert issubclass(error, Invalid)


# --- claim, raise, replace


def test_claim_takes_what_is_asked_up_to_the_code() -> None:
    verified = verify(issue(KEY, TERMS), TRUSTED, TODAY)
    claimed = activate(None, verified, 4)
    assert claimed.kind == "claimed"
    assert claimed.licence.number_of_stations == 4
    assert activate(None, verified, None).licence.number_of_stations == 10
    assert activate(None, verified, 0).licence.number_of_stations == 10
    # a licence without a code (none claimed yet) is claimed, not replaced
    assert activate(Licence(), verified, 2).kind == "claimed"


def test_raise_with_the_same_code() -> None:
    code = issue(KEY, TERMS)
    verified = verify(code, TRUSTED, TODAY)
    current = activate(None, verified, 4).licence
    raised = activate(current, verified, 8)
    assert raised.kind == "raised"
    assert raised.licence.number_of_stations == 8
    assert raised.licence.code == code
    with pytest.raises(StationLimitExceeded, match="allows 10 stations, not 11"):
        activate(current, verified, 11)


def test_replace_with_a_different_code() -> None:
    current = activate(None, verify(issue(KEY, TERMS), TRUSTED, TODAY), 4).licence
    bigger = replace(TERMS, number_of_stations=50, reseller_name="New Reseller")
    new_code = issue(KEY, bigger)
    replaced = activate(current, verify(new_code, TRUSTED, TODAY), 20)
    assert replaced.kind == "replaced"
    assert replaced.licence.code == new_code
    assert replaced.licence.reseller_name == "New Reseller"
    assert replaced.licence.number_of_stations == 20


def test_unlimited_code_allows_any_count() -> None:
    verified = verify(issue(KEY, replace(TERMS, number_of_stations=None)), TRUSTED, TODAY)
    assert activate(None, verified, 500).licence.number_of_stations == 500


def test_negative_station_count_is_refused() -> None:
    verified = verify(issue(KEY, TERMS), TRUSTED, TODAY)
    with pytest.raises(Invalid):
        activate(None, verified, -1)
