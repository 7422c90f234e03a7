"""docs/editors.md's Eglot setup in a real Emacs (batch mode), against the real server.

Debian 12's ``emacs-nox`` (28.2) with Eglot from the package archive
(``elpa-eglot``, 1.9), as ``scripts/setup.sh --all`` installs them. Eglot
1.9 asks for no progress, so none is checked.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import missing

from .helpers import HERE, check_cancelled_processes, doc_block, expected_outline, marker_line

EMACS = shutil.which("emacs")
INSTALL = "scripts/setup.sh --all installs Debian's emacs-nox and elpa-eglot"


def eglot_loads() -> bool:
    check = ("(progn (require 'package) (add-to-list 'package-directory-list \"/usr/share/emacs/site-lisp/elpa\")"
             " (package-initialize) (require 'eglot))")
    return subprocess.run([EMACS, "--batch", "-Q", "--eval", check], capture_output=True, timeout=60).returncode == 0


@pytest.mark.timeout(400)
def test_documented_eglot_setup(project):
    if not EMACS:
        missing("no `emacs` on PATH (%s)" % INSTALL)
    if not eglot_loads():
        missing("Emacs cannot load Eglot (%s)" % INSTALL)
    config, commands = project.root.parent / "tapewatch-config.el", project.root.parent / "tapewatch.el"
    config.write_text(doc_block("eglot-config"))
    commands.write_text(doc_block("eglot-commands"))
    project.env.update(TW_CONFIG=str(config), TW_COMMANDS=str(commands))
    result = project.run([EMACS, "--batch", "-Q", "-l", str(HERE / "eglot_driver.el")], timeout=360)
    print("Emacs %s, Eglot %s: %.1fs" % (result.get("emacs"), result.get("eglot"), result["seconds"]))
    assert not result["errors"], "%s\nsteps: %s\n--- emacs output:\n%s" % (
        "\n".join(result["errors"]), result["steps"], result["output"])

    assert result["lint_lines"] == [int(project.env["TW_LINT_LINE"])]

    # The run: TW102 on the wp.copy line, through Flymake.
    assert result["run_status"] == "findings"
    assert result["tw102_lines"] == [marker_line(project.script, "# expect: TW102")]

    # Code actions, and the page the chosen one names (Eglot 1.9: no showDocument).
    assert "Show documentation for TW102" in result["code_actions"]
    assert "TW102" in result["documentation"]

    # The tape graph through the custom request, as the documented outline.
    assert result["graph_buffer"] == expected_outline(project.script), result["graph_buffer"]

    # Cancel: the newer run replaced the first; the documented cancel stopped it.
    first, second = result["slow_runs"]
    assert first["status"] == "cancelled" and "newer run" in first["reason"]
    assert second["status"] == "cancelled", second
    assert result["cancel_seconds"] < 5
    assert not result["no_run_to_cancel"]
    check_cancelled_processes(project)
