"""The web tests' shared browser: one headless Chromium for the session's engine tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    """One headless Chromium for the session's engine tests (tests/web/test_browser.py's driver)."""
    from test_browser import CHROMIUM, Chromium

    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    try:
        b = Chromium(tmp_path_factory.mktemp("chromium"))
    except (OSError, RuntimeError, TimeoutError) as exc:
        pytest.skip(f"Chromium would not start headless here: {exc}")
    yield b
    b.close()


@pytest.fixture(scope="session")
def bundled_site(tmp_path_factory) -> dict:
    """`flamer site` of the bundled data (no engine), built once a session in a folder with a Korean name,
    with its --json summary: {"dir", "summary"}. test_site.py reads its pages, test_browser.py shows two of
    them in Chromium, and test_site.py's rebuild test starts from a copy of it (the same bytes a first
    build writes: its file list holds paths relative to the folder). Tests only read it."""
    from test_site import build

    out = tmp_path_factory.mktemp("site") / "사이트"
    return {"dir": out, "summary": build(out)}
