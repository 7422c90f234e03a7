"""Static lints through the server: on open and on change (debounced), the
``lint`` setting, a true positive next to a look-alike, and the lint layer
merged with a run's diagnostics."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .lsp_helpers import EXAMPLES, change, diagnostics, initialize, open_doc, run, wait_for, write


KERNELS = """\
import warp as wp


@wp.kernel
def scale(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    s = x[i]
    s *= x[i]
    y[i] = s
    y[i] *= x[i]
"""
BAD_LINE = 10  # y[i] *= x[i] : an array element, not differentiable
LOOK_ALIKE = 8  # s *= x[i] : a local, fine


def lint_lines(client, uri, code=None):
    return sorted((d.code, d.range.start.line + 1) for d in diagnostics(client, uri)
                  if (d.data or {}).get("kind") == "lint" and (code is None or d.code == code))


@pytest.mark.timeout(30)
async def test_true_positive_and_look_alike_on_open_and_change(client, tmp_path):
    path = write(tmp_path / "kernels.py", KERNELS)
    uri = open_doc(client, path)
    await wait_for(lambda: lint_lines(client, uri) == [("TW301", BAD_LINE)])
    diag = [d for d in diagnostics(client, uri) if d.code == "TW301"][0]
    assert diag.source == "tapewatch" and diag.severity == types.DiagnosticSeverity.Warning
    line = KERNELS.splitlines()[BAD_LINE - 1]
    assert diag.range.start.character == line.index("y[i]")

    # Turn the bad line into an accumulation: the finding goes (after the debounce).
    start = line.index("*=")
    change(client, uri, 2, (BAD_LINE - 1, start), (BAD_LINE - 1, start + 1), "+")
    await wait_for(lambda: lint_lines(client, uri) == [])

    # The look-alike made an array write: reported on its line.
    look = KERNELS.splitlines()[LOOK_ALIKE - 1]
    change(client, uri, 3, (LOOK_ALIKE - 1, look.index("s")), (LOOK_ALIKE - 1, look.index("s") + 1), "y[i]")
    await wait_for(lambda: lint_lines(client, uri) == [("TW301", LOOK_ALIKE)])


@pytest.mark.timeout(30)
async def test_debounce_lints_once_typing_stops(client, tmp_path):
    path = write(tmp_path / "kernels.py", KERNELS)
    uri = open_doc(client, path)
    await wait_for(lambda: lint_lines(client, uri) == [("TW301", BAD_LINE)])
    published = []
    features = client.protocol.fm.features
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def spy(params):
        published.append(sorted(d.code for d in params.diagnostics))
        return original(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = spy
    # Typing a new bad line character by character: the half-typed lines do
    # not parse, so a lint per keystroke would publish TW902s.
    text = "    y[i] /= x[i]\n"
    for n, ch in enumerate(text):
        change(client, uri, 2 + n, (BAD_LINE, n), (BAD_LINE, n), ch)
    await wait_for(lambda: lint_lines(client, uri) == [("TW301", BAD_LINE), ("TW301", BAD_LINE + 1)])
    assert not any("TW902" in codes for codes in published), published


@pytest.mark.timeout(30)
async def test_syntax_error_explains_silence(client, tmp_path):
    path = write(tmp_path / "kernels.py", KERNELS)
    uri = open_doc(client, path)
    await wait_for(lambda: lint_lines(client, uri) == [("TW301", BAD_LINE)])
    change(client, uri, 2, (4, 9), (4, 9), "(")  # def scale((x: ...
    await wait_for(lambda: [c for c, _ in lint_lines(client, uri)] == ["TW902"])
    change(client, uri, 3, (4, 9), (4, 10), "")
    await wait_for(lambda: lint_lines(client, uri) == [("TW301", BAD_LINE)])


@pytest.mark.timeout(30)
async def test_lint_setting(lsp, tmp_path):
    await initialize(lsp, {"lint": False})
    path = write(tmp_path / "kernels.py", KERNELS)
    uri = open_doc(lsp, path)
    # Another document, linted, tells us the server got past this one.
    other = open_doc(lsp, write(tmp_path / "other.py", KERNELS.replace("scale", "scale2")))
    lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"tapewatch": {"lint": True}}))
    await wait_for(lambda: lint_lines(lsp, uri) == [("TW301", BAD_LINE)] and lint_lines(lsp, other))
    lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"tapewatch": {"lint": False}}))
    await wait_for(lambda: lint_lines(lsp, uri) == [] and lint_lines(lsp, other) == [])


@pytest.mark.timeout(60)
async def test_lints_and_run_diagnostics_are_merged(client, tmp_path):
    path = write(tmp_path / "copy_overwrite.py", (EXAMPLES / "copy_overwrite.py").read_text())
    uri = open_doc(client, path)
    await wait_for(lambda: lint_lines(client, uri, "TW306"))
    lint_before = lint_lines(client, uri)
    await run(client, uri)
    kinds = sorted(((d.data or {}).get("kind"), d.code) for d in diagnostics(client, uri))
    assert ("run", "TW102") in kinds
    # The run measured the copy the lint warns about (TW102 on the TW306 line): shown once, as the run's.
    assert [code for code, _ in lint_before] == ["TW306"]
    assert lint_lines(client, uri) == []
    copy_line = [d.range.start.line + 1 for d in diagnostics(client, uri) if d.code == "TW102"]
    assert copy_line == [line for _, line in lint_before]
    # Closing the document drops its lints, not the run's findings.
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: lint_lines(client, uri) == [] and diagnostics(client, uri))


@pytest.mark.timeout(60)
async def test_a_syntax_error_is_one_diagnostic_with_a_fix_that_fits(client, tmp_path):
    """The run's TW902 and the live lint's TW902 on the same line are shown once; the Fix is generic."""
    path = write(tmp_path / "broken.py", "import warp as wp\n\ntape = wp.Tape(\n")
    uri = open_doc(client, path)
    await wait_for(lambda: [c for c, _ in lint_lines(client, uri)] == ["TW902"])
    await run(client, uri)
    tw902 = [d for d in diagnostics(client, uri) if d.code == "TW902"]
    assert len(tw902) == 1, [(d.message, (d.data or {}).get("kind")) for d in tw902]
    assert "Fix: Fix the syntax error where the message points, then run again." in tw902[0].message
    assert "parameter list" not in tw902[0].message


@pytest.mark.timeout(30)
async def test_project_table_applies_in_the_editor(client, tmp_path):
    """``[tool.tapewatch]`` as the CLI reads it: an ignored code is not shown, an excluded file is not
    linted, and the lints come back when the table changes."""
    project = tmp_path / "project"
    table = write(project / "pyproject.toml", '[tool.tapewatch]\nignore = ["TW301"]\nextend-exclude = ["generated"]\n')
    path = write(project / "kernels.py", KERNELS)
    generated = write(project / "generated" / "kernels.py", KERNELS)
    control = write(tmp_path / "control.py", KERNELS)  # no table above it: linted as usual
    uri, gen_uri = open_doc(client, path), open_doc(client, generated)
    control_uri = open_doc(client, control)  # the lints run one after the other: this one comes last
    await wait_for(lambda: lint_lines(client, control_uri) == [("TW301", BAD_LINE)])
    assert lint_lines(client, uri) == [] and lint_lines(client, gen_uri) == []

    table.write_text('[tool.tapewatch]\nextend-exclude = ["generated"]\n')
    change(client, uri, 2, (0, 0), (0, 0), "")
    change(client, gen_uri, 2, (0, 0), (0, 0), "")
    await wait_for(lambda: lint_lines(client, uri) == [("TW301", BAD_LINE)])
    assert lint_lines(client, gen_uri) == []  # still excluded


@pytest.mark.timeout(30)
async def test_invalid_project_table_is_shown_once_and_lints_go_on(lsp, tmp_path):
    await initialize(lsp)
    (tmp_path / "pyproject.toml").write_text('[tool.tapewatch]\nignroe = ["TW301"]\n')
    path = write(tmp_path / "kernels.py", KERNELS)
    uri = open_doc(lsp, path)
    await wait_for(lambda: lint_lines(lsp, uri) == [("TW301", BAD_LINE)])  # the defaults apply
    (tmp_path / "pyproject.toml").write_text('[tool.tapewatch]\nignroe = ["TW301"]\n\n')  # read again
    line = KERNELS.splitlines()[BAD_LINE - 1]
    start = line.index("*=")
    change(lsp, uri, 2, (BAD_LINE - 1, start), (BAD_LINE - 1, start + 1), "+")
    await wait_for(lambda: lint_lines(lsp, uri) == [])
    problems = [m.message for m in lsp.messages if "pyproject.toml" in m.message]
    assert len(problems) == 1 and "ignroe" in problems[0] and "using the defaults" in problems[0], problems
