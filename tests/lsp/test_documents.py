"""The document store (``tapewatch.lsp.documents``): edits spliced into lines give the text a
plain string edit gives, and the line map each edit returns agrees with that text."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types
from tapewatch.lsp import documents, positions

from .lsp_helpers import ROOT

UTF16 = lambda s: len(s.encode("utf-16-le")) // 2  # noqa: E731


def reference(text: str, start: tuple, end: tuple, new: str) -> str:
    """The edit on the string, positions read as LSP says (clamped; UTF-16 columns), a reversed range swapped."""
    lines = documents.split_keepends(text)

    def offset(pos):
        line, ch = pos
        if line >= len(lines):
            return len(text)
        body = documents.content(lines[line])
        return sum(map(len, lines[:line])) + documents.index_of(body, ch, UTF16)

    a, b = sorted((offset(start), offset(end)))
    return text[:a] + new + text[b:]


def change(start, end, text):
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(*start), end=types.Position(*end)), text=text)


def check(doc: documents.Document, before: str, edit: positions.LineEdit) -> None:
    old, new = documents.split_keepends(before), documents.split_keepends(doc.source)
    assert doc.lines == new
    for i, line in enumerate(old):
        j = edit.map_line(i)
        if j is not None:  # a line that kept its place kept its text
            assert documents.content(new[j]) == documents.content(line), (i, j)


PIECES = ["a", "bc", "é", "😀", "\n", "\r\n", "\r", "    x = 1", "\f", "\u2028", ""]


@pytest.mark.parametrize("seed", range(20))
def test_random_edits_match_a_string_edit(seed):
    rng = random.Random(seed)
    text = "".join(rng.choice(PIECES) for _ in range(40))
    doc = documents.Document("file:///t.py", text, 1, "python", UTF16)
    for _ in range(60):
        lines = doc.lines
        start = (rng.randrange(len(lines) + 2), rng.randrange(8))
        end = (rng.randrange(len(lines) + 2), rng.randrange(8))  # reversed or past the end at times
        new = "".join(rng.choice(PIECES) for _ in range(rng.randrange(4)))
        before = doc.source
        edit = doc.apply(change(start, end, new))
        assert doc.source == reference(before, start, end, new), (before, start, end, new)
        check(doc, before, edit)
        if rng.random() < 0.2:
            before = doc.source
            whole = before[: len(before) // 2] + rng.choice(PIECES) + before[len(before) // 2:]
            edit = doc.apply(types.TextDocumentContentChangeWholeDocument(text=whole))
            assert doc.source == whole
            check(doc, before, edit)


def test_lines_are_lsp_lines():
    # Only CR LF, CR and LF end a line: a form feed or U+2028 is inside one.
    assert documents.split_keepends("a\fb\u2028c\r\nd\re\n") == ["a\fb\u2028c\r\n", "d\r", "e\n", ""]
    assert documents.split_keepends("") == [""]


def test_a_whole_text_diff_looks_at_the_changed_middle_only():
    text = (ROOT / "examples" / "pingpong_helper.py").read_text(encoding="utf-8")
    old = positions.split_lines(text)
    new = old[:10] + ["# typed"] + old[10:]
    edit = positions.from_lines(old, new)
    assert (edit.start, edit.end, edit.delta) == (10, 10, 1) and edit.table == {}
    assert [edit.map_line(i) for i in (0, 9, 10, len(old) - 1)] == [0, 9, 11, len(old)]
