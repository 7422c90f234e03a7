"""Finding → diagnostic mapping, without a server: 0-based positions, UTF-8
byte columns to UTF-16 units, related locations, data, fallbacks."""

from __future__ import annotations

from lsprotocol import types
from tapewatch.lsp.convert import LineSource, entry_of, to_diagnostic
from tapewatch.model import Finding, Location, Related


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_finding_to_diagnostic(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("import warp as wp\n\nwith tape:\n    wp.copy(dst, src)\n", encoding="utf-8")
    f = Finding(code="TW102", message="copy overwrites `dst`", severity="warning", id="f1", count=3,
                location=Location(str(script), 4, 5, 4, 22),
                related=[Related(Location(str(script), 1, 1), "read here", "reader"),
                         Related(Location("<frozen runpy>", 88, 1), "runpy", "caller")],
                data={"array": "dst", "weird": {1, 2}})
    entry = entry_of(f, str(script), script.as_uri(), LineSource())
    d = to_diagnostic(entry, lambda p: "uri:" + p)
    assert (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character) == (3, 4, 3, 21)
    assert d.code == "TW102" and d.source == "tapewatch" and d.severity == types.DiagnosticSeverity.Warning
    first, fix = d.message.split("\n")
    assert first.endswith("(×3: the same finding 3 times, once per launch or step)") and fix.startswith("Fix: Move the copy out")
    assert [(r.location.uri, r.location.range.start.line, r.message) for r in d.related_information] == [
        ("uri:" + str(script), 0, "read here")]  # not a file: left out
    assert d.data["finding_id"] == "f1" and d.data["script_uri"] == script.as_uri() and d.data["kind"] == "run"
    assert d.data["data"]["array"] == "dst" and isinstance(d.data["data"]["weird"], str)


def test_columns_are_utf8_bytes_converted_to_utf16(tmp_path):
    script = tmp_path / "u.py"
    line = "ä = '😀'; wp.copy(x, y)"
    script.write_text(line + "\n", encoding="utf-8")
    byte_col = len(line[: line.index("wp")].encode("utf-8")) + 1
    f = Finding(code="TW102", message="m", location=Location(str(script), 1, byte_col))
    entry = entry_of(f, str(script), script.as_uri(), LineSource(units=utf16))
    assert entry.span.start_char == utf16(line[: line.index("wp")])
    assert entry.span.end_char == utf16(line)  # no end given: to the end of the line


def test_findings_without_a_usable_location_go_on_line_0(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("print('hi')\n", encoding="utf-8")
    for loc in (None, Location("<string>", 3, 1), Location(str(tmp_path / "deleted.py"), 2, 1)):
        f = Finding(code="TW903", message="Warp is missing", severity="error", location=loc)
        entry = entry_of(f, str(script), script.as_uri(), LineSource())
        assert entry.span.path == str(script)
        assert (entry.span.start_line, entry.span.start_char, entry.span.end_char) == (0, 0, len("print('hi')"))
        assert (loc is None) or ("(at " in entry.message)
        d = to_diagnostic(entry, str)
        assert d.severity == types.DiagnosticSeverity.Error


def test_relative_paths_resolve_against_the_run_directory(tmp_path):
    (tmp_path / "m.py").write_text("x = 1\n")
    f = Finding(code="TW101", message="m", location=Location("m.py", 1, 1))
    entry = entry_of(f, str(tmp_path / "s.py"), "file:///s.py", LineSource(), cwd=str(tmp_path))
    assert entry.span.path == str(tmp_path / "m.py")


def test_published_json_is_what_lsprotocol_would_send(tmp_path):
    """Diagnostics are published as JSON built directly: the same JSON as lsprotocol's converter writes."""
    import json

    from pygls.protocol import default_converter
    from tapewatch.lsp.convert import diagnostic_json

    script = tmp_path / "s.py"
    script.write_text("import warp as wp\nwp.copy(dst, src)\n", encoding="utf-8")
    findings = [
        Finding(code="TW102", message="copy", severity="warning", id="a",
                location=Location(str(script), 2, 1, 2, 18),
                related=[Related(Location(str(script), 1, 1), "", "reader")], data={"n": [1, {"k": None}]}),
        Finding(code="TW301", message="hint", severity="hint", location=Location(str(script), 1, 1)),
        Finding(code="TW999", message="unknown code", severity="odd", location=Location(str(script), 1, 3)),
    ]
    converter = default_converter()
    for f in findings:
        entry = entry_of(f, str(script), script.as_uri(), LineSource())
        wire = diagnostic_json(entry, lambda p: "file://" + p)
        typed = to_diagnostic(entry, lambda p: "file://" + p)
        assert converter.unstructure(typed) == wire
        assert json.loads(json.dumps(wire)) == wire  # plain JSON already: nothing for a converter to do
