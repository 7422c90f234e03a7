"""Diagnostics move with edits and never point at the wrong line.

Server tests on a copy of ``copy_overwrite.py`` (TW102 at its ``# expect``
line, related: the ``# reader`` and ``# alloc`` lines), and unit tests of
the line-mapping rule in ``tapewatch.lsp.positions``.
"""

from __future__ import annotations

import asyncio
import shutil

import pytest
from tapewatch.lsp import positions

from .lsp_helpers import EXAMPLES, change, markers, open_doc, run, run_diagnostics, wait_for


def copy_example(tmp_path, name="copy_overwrite.py"):
    target = tmp_path / name
    shutil.copy(EXAMPLES / name, target)
    return target


def where(client, uri):
    """[(line, [related lines])] of the run diagnostics, 1-based."""
    return [(d.range.start.line + 1, sorted(r.location.range.start.line + 1 for r in d.related_information or []))
            for d in run_diagnostics(client, uri)]


async def settle(client, uri, expected, timeout=5.0):
    await wait_for(lambda: where(client, uri) == expected, timeout=timeout)


@pytest.mark.timeout(60)
async def test_diagnostics_follow_edits(client, tmp_path):
    script = copy_example(tmp_path)
    m = markers(script)
    line, reader, alloc = m["expect:TW102"][0], m["reader"][0], m["alloc"][0]
    uri = open_doc(client, script)
    await run(client, uri)
    related = where(client, uri)[0][1]
    assert where(client, uri) == [(line, related)] and {reader, alloc} <= set(related)

    # Two lines inserted at the top: everything moves down by two.
    change(client, uri, 2, (0, 0), (0, 0), "# one\n# two\n")
    await settle(client, uri, [(line + 2, [r + 2 for r in related])])

    # Enter at the end of the diagnostic's line: it stays, lines below move.
    text_of_line = script.read_text().splitlines()[line - 1]
    change(client, uri, 3, (line + 1, len(text_of_line)), (line + 1, len(text_of_line)), "\n    ")
    shifted = [r + 2 if r < line else r + 3 for r in related]
    await settle(client, uri, [(line + 2, shifted)])

    # The reader's line edited: that related location goes, the diagnostic stays.
    change(client, uri, 4, (reader + 1, 4), (reader + 1, 4), "x")
    shifted = [r for r in shifted if r != reader + 2]
    await settle(client, uri, [(line + 2, shifted)])

    # The two inserted lines deleted again: back up by two.
    change(client, uri, 5, (0, 0), (2, 0), "")
    await settle(client, uri, [(line, [r - 2 for r in shifted])])

    # The diagnostic's own line edited: it is dropped.
    change(client, uri, 6, (line - 1, 6), (line - 1, 6), "  ")
    await settle(client, uri, [])


@pytest.mark.timeout(90)
async def test_edits_during_a_run_and_unsaved_changes_before_it(client, tmp_path):
    script = copy_example(tmp_path)
    line = markers(script)["expect:TW102"][0]
    uri = open_doc(client, script)

    # Unsaved: one line inserted at the top before the run (the run sees the file on disk).
    change(client, uri, 2, (0, 0), (0, 0), "# unsaved\n")
    task = asyncio.ensure_future(run(client, uri))
    await asyncio.sleep(0.3)
    # While the run goes on: three more lines at the top.
    change(client, uri, 3, (0, 0), (0, 0), "# a\n# b\n# c\n")
    await task
    assert [d[0] for d in where(client, uri)] == [line + 4]


@pytest.mark.timeout(60)
async def test_diagnostic_on_edited_line_during_run_is_dropped(client, tmp_path):
    script = copy_example(tmp_path)
    line = markers(script)["expect:TW102"][0]
    uri = open_doc(client, script)
    task = asyncio.ensure_future(run(client, uri))
    await asyncio.sleep(0.3)
    change(client, uri, 2, (line - 1, 4), (line - 1, 4), "# ")
    summary = await task
    assert summary["findings"] == 1
    assert where(client, uri) == []


# -- the rule itself ---------------------------------------------------------

LINES = ["a = 1", "b = 2", "c = 3", "d = 4", ""]


def edit(start, end, text, lines=LINES):
    return positions.from_range(start, end, text, lines)


@pytest.mark.parametrize("start,end,text,line,expected", [
    ((0, 0), (0, 0), "x\n", 2, 3),        # line inserted above
    ((0, 0), (0, 0), "x\n", 0, 1),        # inserted at column 0 of the line itself: moved
    ((2, 5), (2, 5), "\n", 2, 2),         # Enter at the end of the line: stays
    ((2, 5), (2, 5), "\n", 3, 4),         # ... the next line moves
    ((2, 4), (2, 4), "x", 2, None),       # typing on the line: dropped
    ((2, 5), (2, 5), "x", 2, None),       # typing at its end: dropped
    ((1, 0), (2, 0), "", 2, 1),           # the line above deleted
    ((1, 0), (2, 0), "", 1, None),        # the line itself deleted
    ((1, 5), (2, 0), "", 2, None),        # joined with the line above
    ((2, 5), (3, 0), "", 2, None),        # the next line joined onto it
    ((0, 0), (1, 0), "p\nq\nr\n", 3, 5),  # replaced one line above by three
    ((3, 0), (3, 5), "zzz", 2, 2),        # below: untouched
    ((0, 2), (3, 2), "", 2, None),        # inside a multi-line deletion
    ((0, 0), (0, 0), "x\r\n", 1, 2),      # CRLF counts once
    ((2, 0), (1, 0), "", 2, 1),           # a reversed range (end before start): as if in order
    ((2, 0), (1, 0), "", 1, None),
])
def test_line_rule(start, end, text, line, expected):
    assert edit(start, end, text).map_line(line) == expected


def test_multi_line_span_is_dropped_when_its_inside_is_touched():
    e = edit((2, 0), (2, 0), "x\n")
    assert e.map_span(1, 2) is None        # insertion at column 0 of its last line: inside
    assert e.map_span(3, 4) == (4, 5)
    assert edit((2, 5), (2, 5), "\nx").map_span(1, 2) == (1, 2)  # after its end


def test_whole_document_replacement_uses_a_diff():
    old = "a\nb\nc\nd\n"
    new = "z\na\nb\nC\nd\n"
    e = positions.from_texts(old, new)
    assert [e.map_line(i) for i in range(4)] == [1, 2, None, 4]
    assert e.map_span(0, 1) == (1, 2) and e.map_span(1, 2) is None


def test_utf16_line_length():
    lines = ["s = 'é😀'"]
    n = len("s = 'é") + 2 + 1  # the emoji is two UTF-16 units
    utf16 = lambda s: len(s.encode("utf-16-le")) // 2  # noqa: E731
    assert positions.from_range((0, n), (0, n), "\n", lines, utf16).map_line(0) == 0
    assert positions.from_range((0, n - 1), (0, n - 1), "\n", lines, utf16).map_line(0) is None
