"""The editor's settings default to the same values as the CLI and the runner (tapewatch.defaults)."""

import json
from pathlib import Path

from tapewatch import defaults
from tapewatch.cli import build_parser
from tapewatch.lsp.settings import Settings
from tapewatch.runner import RunRequest

ROOT = Path(__file__).resolve().parents[1]


def test_package_json_declares_the_python_defaults():
    props = json.loads((ROOT / "package.json").read_text())["contributes"]["configuration"]["properties"]
    for name, value in defaults.EDITOR.items():
        assert props["tapewatch." + name]["default"] == value, name


def test_server_runner_and_cli_share_the_defaults():
    s, r = Settings(), RunRequest(script="x.py")
    ns = build_parser().parse_args(["check", "x.py"])
    assert s.device == r.device == ns.device == defaults.DEVICE
    assert s.timeout == r.timeout == ns.timeout == defaults.TIMEOUT_S
    assert s.check_launches == r.check_launches == ns.check_launches == defaults.CHECK_LAUNCHES
    assert s.lint == r.lint == (not ns.no_lint) == defaults.LINT
    assert s.run_on_save == defaults.RUN_ON_SAVE
