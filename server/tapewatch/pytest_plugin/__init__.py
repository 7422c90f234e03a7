"""The pytest plugin: the probe's sensors inside the test process (``pytest --tapewatch``).

Registered through the ``pytest11`` entry point, so pytest loads this module
in every project where Tapewatch is installed.  Off by default, and inert
then: this module adds the options and nothing else (no Warp import, no hook
on any test).  It turns on with

- ``--tapewatch`` (or ``--tapewatch=fail``): a gradient finding fails the
  test it was born in, with the finding's text as the failure message;
- ``--tapewatch=warn``: the same findings become pytest warnings at the
  finding's file and line, and the test passes;
- ``-p tapewatch`` (which loads the plugin when autoloading is disabled):
  fail mode unless ``--tapewatch=warn`` says otherwise.

``--tapewatch-report PATH`` writes the session's findings as JSON, or SARIF
when PATH ends in ``.sarif``.  The machinery lives in ``session`` and is
imported only once the plugin is on.
"""

from __future__ import annotations

import os

import pytest

MODES = ("fail", "warn")


class TapewatchWarning(UserWarning):
    """A gradient finding under ``--tapewatch=warn`` (filterable: ``error::tapewatch.pytest_plugin.TapewatchWarning``)."""


class TapewatchInternalError(UserWarning):
    """Something inside Tapewatch failed (TW9xx): the findings of the test may be incomplete."""


def pytest_addoption(parser) -> None:
    group = parser.getgroup("tapewatch", "Tapewatch: gradient findings in Warp tests")
    # The two spellings with a value are option strings of their own, so that
    # `pytest --tapewatch tests/` never takes `tests/` for the mode.
    group.addoption("--tapewatch", "--tapewatch=fail", dest="tapewatch", action="store_const", const="fail",
                    default=None,
                    help="run the Tapewatch probe inside the tests: a gradient finding fails its test")
    group.addoption("--tapewatch=warn", dest="tapewatch", action="store_const", const="warn",
                    help="as --tapewatch, but gradient findings are pytest warnings and the test passes")
    group.addoption("--tapewatch-report", dest="tapewatch_report", metavar="PATH", default=None,
                    help="write the session's Tapewatch findings to PATH: SARIF when it ends in .sarif, else JSON")


def mode(options) -> str:
    """'fail', 'warn', or '' (off) from parsed options (``-p tapewatch`` alone means fail)."""
    chosen = getattr(options, "tapewatch", None)
    if chosen in MODES:
        return chosen
    plugins = [p.strip() for p in (getattr(options, "plugins", None) or [])]
    if "tapewatch" in plugins:
        return "fail"
    return ""


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args) -> None:
    """On: install the probe before conftest.py files and test modules import Warp and define kernels."""
    _start(early_config, early_config.known_args_namespace)


def pytest_configure(config) -> None:
    """On, for a plugin registered too late for the hook above (``pytest_plugins`` in a conftest.py)."""
    _start(config, config.option)


def _start(config, options) -> None:
    if config.pluginmanager.has_plugin(SESSION_PLUGIN) or getattr(options, "help", False) \
            or getattr(options, "version", False):
        return
    chosen = mode(options)
    report = getattr(options, "tapewatch_report", None)
    if not chosen:
        if report:
            raise pytest.UsageError("--tapewatch-report needs --tapewatch or --tapewatch=warn")
        return
    from .session import TapewatchSession  # noqa: PLC0415 (imports Warp: only once the plugin is on)

    report_path = os.path.join(str(config.invocation_params.dir), report) if report else None
    if report_path:
        _check_report_path(report, report_path)
    session = TapewatchSession(config, chosen, report_path)
    session.start()
    config.pluginmanager.register(session, SESSION_PLUGIN)


def _check_report_path(given: str, path: str) -> None:
    """A report path that can never be written is a usage error now, not a failure after the tests."""
    if os.path.isdir(path):
        raise pytest.UsageError("--tapewatch-report %s: it is a folder; name a file in it" % given)
    folder = os.path.dirname(os.path.abspath(path))
    while folder and not os.path.exists(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent
    if not os.path.isdir(folder):
        raise pytest.UsageError("--tapewatch-report %s: %s is not a folder" % (given, os.path.relpath(folder)))


SESSION_PLUGIN = "tapewatch-session"
