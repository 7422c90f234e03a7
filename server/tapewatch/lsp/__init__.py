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


_GC_THRESHOLDS = (10_000, 20, 20)  # Python's defaults are (700, 10, 10)


def serve() -> int:
    """Serve LSP over stdio until the client says ``exit`` (or goes away); the exit status.

    Runs live in process groups of their own: on ``shutdown``, on ``exit``,
    on end of input and on SIGTERM/SIGHUP the server cancels them (killing
    their process trees) before it leaves.  Messages are framed by
    ``framing`` (oversized, truncated or mislabelled input never makes the
    server deaf); ``exit`` without ``shutdown`` leaves with status 1, at once.
    """
    import asyncio  # noqa: PLC0415
    import gc  # noqa: PLC0415
    import os  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import threading  # noqa: PLC0415

    from . import framing  # noqa: PLC0415
    from .server import create_server  # noqa: PLC0415 (pygls only when serving)

    server = create_server()
    server._stop_event = threading.Event()
    # What start-up built (pygls, lsprotocol's types and converters) lives as long as the server:
    # out of the collector's way, so a full collection during an edit does not walk it all again.
    # Each open file's parsed chunks are long-lived too; collections are made rarer for them.
    gc.freeze()
    gc.set_threshold(*_GC_THRESHOLDS)
    status = 0
    try:
        asyncio.run(framing.serve(server, sys.stdin.buffer, sys.stdout.buffer))
    except framing.Exit as exc:
        # Leave now: end the runs' process trees ourselves rather than wait on tasks and threads.
        from ..processes import end_all_runs  # noqa: PLC0415

        end_all_runs()
        sys.stdout.flush()
        os._exit(exc.status)
    except BrokenPipeError:
        status = 1
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
    except KeyboardInterrupt:
        status = 130
    finally:
        try:
            server.shutdown()
        except Exception:  # noqa: BLE001  # pragma: no cover - leaving anyway
            pass
    # The thread reading stdin may still be blocked in a read: leave without joining it
    # (a normal interpreter exit would abort on its buffer lock).
    import logging  # noqa: PLC0415

    from ..processes import end_all_runs  # noqa: PLC0415

    end_all_runs()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


__all__ = ["serve"]
