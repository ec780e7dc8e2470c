"""Fixtures: the raw HTTP server (one per session) and the HTTP cases (integrations_http.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from integrations_http import CASES, HttpCase, RawHttpServer


@pytest.fixture(scope="session")
def http_server() -> Iterator[RawHttpServer]:
    """The raw HTTP server, on 127.0.0.1 and an ephemeral port, for the whole test session."""
    server = RawHttpServer(CASES).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=CASES, ids=lambda case: case.name)
def http_case(request: pytest.FixtureRequest) -> HttpCase:
    return request.param
