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
