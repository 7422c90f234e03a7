"""``tapewatch.generateHarness``: not available yet.

The FD-harness generator lands in its own change; until then the command
exists so that clients get a clear error instead of "unknown command".
Replace ``generate`` (and add a code-action provider through
``server.get_feature("code_actions").add_provider``) when it does.
"""

from __future__ import annotations

from typing import Any

from pygls.exceptions import JsonRpcException

from .server import Feature, TapewatchServer

GENERATE_HARNESS = "tapewatch.generateHarness"


class NotAvailable(JsonRpcException):
    CODE = -32803  # LSP RequestFailed
    MESSAGE = "tapewatch.generateHarness is not available yet in this server"


class HarnessFeature(Feature):
    name = "harness"

    def generate(self, *args: Any) -> Any:
        raise NotAvailable()


def setup(server: TapewatchServer) -> HarnessFeature:
    feature = server.add_feature(HarnessFeature(server))
    server.command(feature.name, GENERATE_HARNESS)(feature.generate)  # type: ignore[attr-defined]
    return feature  # type: ignore[return-value]
