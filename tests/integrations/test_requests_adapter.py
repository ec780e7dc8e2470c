"""requests against the raw local server: decode_response, the Session hook, and requests' own traps."""

from __future__ import annotations

import pytest
import requests
from integrations_http import CASES_BY_NAME, PNG_BYTES, HttpCase, RawHttpServer

from mojifix.integrations import requests as mreq

#: Seconds any test request may take before failing (the server is local; this only bounds a hang).
TIMEOUT = 10


def test_decode_response_gives_the_browser_text(http_server: RawHttpServer, http_case: HttpCase) -> None:
    resp = requests.get(http_server.url(http_case.name), timeout=TIMEOUT)
    decoded = mreq.decode_response(resp)
    assert decoded.text == http_case.text
    assert decoded.encoding == http_case.encoding


def test_plain_requests_text_is_wrong_on_these_cases(http_server: RawHttpServer, http_case: HttpCase) -> None:
    """The traps are real: without mojifix, requests' .text differs from the browser's text."""
    resp = requests.get(http_server.url(http_case.name), timeout=TIMEOUT)
    assert (resp.text != http_case.text) == http_case.requests_default_wrong


def test_session_hook_makes_resp_text_exact(http_server: RawHttpServer, http_case: HttpCase) -> None:
    with requests.Session() as session:
        mreq.install(session)
        resp = session.get(http_server.url(http_case.name), timeout=TIMEOUT)
    assert resp.text == http_case.text
    decision = getattr(resp, mreq.ATTRIBUTE)
    assert decision.encoding == http_case.encoding
    assert decision.text == http_case.text
    # code that decodes resp.content with resp.encoding itself gets the same text
    assert str(resp.content, resp.encoding, "replace") == http_case.text


def test_hooks_argument_form(http_server: RawHttpServer) -> None:
    case = CASES_BY_NAME["latin1-euro"]
    resp = requests.get(http_server.url(case.name), hooks={"response": mreq.hook}, timeout=TIMEOUT)
    assert "€" in resp.text and resp.text == case.text
    assert resp.encoding == "whatwg-windows-1252"  # CPython's cp1252 is not exact (0x81, 0x8D, ...)


def test_duplicate_content_type_values_are_kept_apart(http_server: RawHttpServer) -> None:
    resp = requests.get(http_server.url("duplicate-content-type"), timeout=TIMEOUT)
    assert mreq.content_type_values(resp) == ["text/html; charset=gbk", "text/html"]


def test_non_text_and_streamed_responses_are_left_alone(http_server: RawHttpServer) -> None:
    with requests.Session() as session:
        mreq.install(session)
        image = session.get(http_server.url("image.png"), timeout=TIMEOUT)
        streamed = session.get(http_server.url("meta-utf8"), stream=True, timeout=TIMEOUT)
        streamed_body = streamed.content
    assert image.content == PNG_BYTES and not hasattr(image, mreq.ATTRIBUTE)
    assert not hasattr(streamed, mreq.ATTRIBUTE)
    assert mreq.decode_response(streamed).text == CASES_BY_NAME["meta-utf8"].text
    assert streamed_body == CASES_BY_NAME["meta-utf8"].body


def test_install_accepts_a_single_callable_hook(http_server: RawHttpServer) -> None:
    seen: list[int] = []
    with requests.Session() as session:
        session.hooks["response"] = lambda r, *a, **k: seen.append(r.status_code)
        mreq.install(session, fallback="browser")
        resp = session.get(http_server.url("shift-jis-wave"), timeout=TIMEOUT)
    assert seen == [200]
    assert resp.text == CASES_BY_NAME["shift-jis-wave"].text


def test_repair_text_recovers_stored_requests_text(http_server: RawHttpServer) -> None:
    """The common case: a UTF-8 page without charset, stored as requests' ISO-8859-1 .text."""
    repair_module = pytest.importorskip("mojifix.repair")
    if not hasattr(repair_module, "repair"):
        pytest.skip("mojifix.repair.repair is not available in this checkout")
    case = CASES_BY_NAME["meta-utf8"]
    stored = requests.get(http_server.url(case.name), timeout=TIMEOUT).text
    assert stored != case.text  # mojibake such as 'naÃ¯ve'
    assert mreq.repair_text(stored) == case.text
    assert mreq.repair_text(case.text) == case.text  # correct text is left alone
