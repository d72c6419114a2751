"""Fixtures of the web tests: the application, and a live server on a free loopback port."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from starlette.testclient import TestClient

from zermelo.ui.web import create_app

STARTUP_SECONDS = 90.0
"""The server loads its search processes before it answers: seconds on a loaded machine."""
LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="session")
def client() -> Iterator[TestClient]:
    """One application (and one set of search processes) for the whole session: it keeps no
    state between requests."""
    with TestClient(create_app(), base_url=LOCAL, raise_server_exceptions=True) as test_client:
        yield test_client


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """``zermelo serve`` in a thread on 127.0.0.1; yields its base URL."""
    port = _free_port()
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="zermelo-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            pytest.fail(f"the test server did not start within {STARTUP_SECONDS} s")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=STARTUP_SECONDS)
