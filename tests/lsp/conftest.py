"""Fixtures: the real server over stdio, driven by pytest-lsp with VS Code's capabilities.

``lsp`` is a started, *uninitialized* client (for tests that choose their
own initializationOptions); ``client`` is one initialized with the
repository as its workspace folder and default settings.  Helpers live in
``lsp_helpers``.
"""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from .lsp_helpers import initialize


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tapewatch", "lsp"]))
async def lsp(lsp_client: LanguageClient):
    lsp_client.run_finished = []  # type: ignore[attr-defined]

    @lsp_client.feature("tapewatch/runFinished")
    def _run_finished(params):
        lsp_client.run_finished.append(params)  # type: ignore[attr-defined]

    yield lsp_client
    await lsp_client.shutdown_session()


@pytest.fixture
async def client(lsp: LanguageClient):
    await initialize(lsp)
    return lsp
