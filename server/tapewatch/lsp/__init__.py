"""The language server: ``tapewatch lsp`` / ``python -m tapewatch``.

A small core (``server.py``) plus one module per feature, each registering
itself through one ``setup(server)`` function:

- ``settings``     per-folder settings from initializationOptions,
                   didChangeConfiguration and workspace/configuration;
- ``diagnostics``  the diagnostic layers (runs, lints), publishing, and
                   moving diagnostics with the user's edits;
- ``runs``         ``tapewatch.runVerification`` / ``tapewatch.listDevices``,
                   progress, cancellation, script output, run-on-save;
- ``lints``        static lints (TW3xx) on open/change, debounced;
- ``code_actions`` code actions on Tapewatch diagnostics (extensible);
- ``tape_graph``   the ``tapewatch/tapeGraph`` request;
- ``harness``      ``tapewatch.generateHarness`` and its code action.

A feature's exception is logged and answered with an error; it never takes
the server down.  Data flows one way: runner/lint → findings → diagnostics.
"""

from __future__ import annotations


def serve() -> None:
    """Serve LSP over stdio until the client says ``exit`` (or goes away).

    Runs live in process groups of their own: on ``shutdown``, on end of
    input and on SIGTERM/SIGHUP the server cancels them (killing their
    process trees) before it leaves.
    """
    from .server import create_server  # noqa: PLC0415 (pygls only when serving)

    create_server().start_io()


__all__ = ["serve"]
