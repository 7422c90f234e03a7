"""Parsing by top-level chunk gives the module ``ast.parse`` gives, and reuses what an edit did not touch."""

import ast
import io
from pathlib import Path

import pytest

from tapewatch.lint import ChunkParser, lint_source

ROOT = Path(__file__).resolve().parents[2]

TRICKY = '''"""Docstring with a column-0 line
def not_a_function():
    pass
"""
import warp as wp  # a comment
x = (1,
2)
y = 1 + \\
2
# a comment in column 0
if x:
    pass
elif y:
    pass
else:
    pass
try:
    pass
except ValueError:
    pass
finally:
    pass


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] *= 2.0
s = """a
b = 2
"""


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] *= 2.0
class C:
    pass
'''


def same(tree, source):
    return ast.dump(tree, include_attributes=True) == ast.dump(ast.parse(source), include_attributes=True)


@pytest.mark.parametrize("path", sorted((ROOT / "examples").rglob("*.py")), ids=lambda p: p.name)
def test_every_example_parses_as_a_whole(path):
    source = path.read_text()
    assert same(ChunkParser().parse(source), source)


def test_cuts_that_split_a_statement_are_merged():
    assert same(ChunkParser().parse(TRICKY), TRICKY)


def test_an_edit_reparses_only_its_chunk_and_moves_the_rest():
    parser = ChunkParser()
    parser.parse(TRICKY)
    assert parser.parsed_chunks > 5
    lines = TRICKY.splitlines(keepends=True)
    at = lines.index("    a[i] *= 2.0\n")
    edits = [
        "".join(lines[:at] + ["    a[i] = a[i] * 3.0\n"] + lines[at + 1:]),  # one line changed
        "".join(lines[:at] + ["    b = 1.0\n", "    a[i] *= b\n"] + lines[at + 1:]),  # a line added
        "".join(lines[:at] + lines[at + 1:]),  # a line removed
        TRICKY,  # back
    ]
    for source in edits:
        assert same(parser.parse(source), source)
        assert parser.parsed_chunks <= 1
    # the two identical kernels each keep their own nodes
    tree = parser.parse(TRICKY)
    kernels = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert len(kernels) == 2 and kernels[0] is not kernels[1] and kernels[0].lineno != kernels[1].lineno


def test_a_cut_that_does_not_parse_is_tried_once_not_per_occurrence_or_per_edit(monkeypatch):
    import tapewatch.lint.chunks as chunks

    tried = []
    real = chunks._try_parse
    monkeypatch.setattr(chunks, "_try_parse", lambda text: tried.append(text) or real(text))
    # Every kernel's decorator line is a candidate cut that does not parse alone ("@wp.kernel\n").
    kernel = "\n\n@wp.kernel\ndef k{0}(a: wp.array(dtype=float)):\n    a[wp.tid()] = 1.0\n"
    source = "import warp as wp\n" + "".join(kernel.format(i) for i in range(20))
    parser = ChunkParser()
    parser.parse(source)
    assert tried.count("@wp.kernel\n") == 1
    for n in range(3):  # the decorator stays known as unparsable across edits
        tried.clear()
        edited = source.replace("    a[wp.tid()] = 1.0\n", "    a[wp.tid()] = %d.0\n" % (n + 2), 1)
        assert same(parser.parse(edited), edited)
        assert tried.count("@wp.kernel\n") == 0 and len(tried) == 1


def test_a_file_that_does_not_parse_raises_the_usual_error():
    broken = TRICKY.replace("class C:\n    pass\n", "class C(:\n    pass\n")
    with pytest.raises(SyntaxError) as raised:
        ChunkParser().parse(broken)
    with pytest.raises(SyntaxError) as expected:
        ast.parse(broken)
    assert (raised.value.lineno, raised.value.msg) == (expected.value.lineno, expected.value.msg)


def test_lints_are_the_same_with_and_without_the_parser():
    parser = ChunkParser()
    for path in sorted((ROOT / "examples" / "gallery").glob("*.py")):
        source = path.read_text()
        plain = [(f.code, f.location.line, f.location.column, f.message) for f in lint_source(source, str(path))]
        chunked = [(f.code, f.location.line, f.location.column, f.message)
                   for f in lint_source(source, str(path), parser=parser)]
        assert chunked == plain, path.name


def _lint_json(source, path, parser=None):
    return [f.to_json() for f in lint_source(source, path, parser=parser)]


def _edits(source):
    """Edits an editor makes: lines inserted above, inside and below definitions, a file fact changed."""
    lines = source.split("\n")
    defs = [n for n, line in enumerate(lines) if line.startswith("def ") or line.startswith("@wp.")]
    middle = defs[len(defs) // 2] if defs else len(lines) // 2
    yield "\n".join(["", "# a comment typed at the top"] + lines)
    yield "\n".join(lines[:middle] + ["", ""] + lines[middle:])  # the definitions below move down
    yield "\n".join(lines[:middle + 2] + ["    unused_local = 1.0"] + lines[middle + 2:])  # inside one
    yield "\n".join(lines[:middle] + lines[middle + 1:])  # a line deleted: the chunk is parsed anew
    yield source.replace("import warp as wp", "import warp as wp\nimport warp as wq", 1)  # the aliases change
    yield source + "\nwp.config.enable_vector_component_overwrites = True\n"  # a file-wide option
    yield source.replace("0.5", "0.25")  # constants (and findings that name them) change
    yield source


def test_lints_through_the_memo_equal_fresh_lints_after_every_edit():
    """The kernel rules' findings kept per function (lint.memo) never go stale: after each edit the
    editor's lint (one parser, one memo across the edits) equals a lint from scratch, data and related
    locations included, and moved definitions come back at their new lines."""
    paths = sorted((ROOT / "examples").rglob("*.py"))
    for path in paths:
        source = path.read_text()
        if "@wp.kernel" not in source and "@wp.func" not in source:
            continue
        parser = ChunkParser()
        for n, edited in enumerate([source] + list(_edits(source))):
            assert _lint_json(edited, str(path), parser) == _lint_json(edited, str(path)), (path.name, n)


def test_the_memo_checks_only_the_function_an_edit_touched():
    kernel = '''
@wp.kernel
def k{i}(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    s = x[i] * 2.0
    y[i] *= s
'''
    source = "import warp as wp\n" + "".join(kernel.format(i=i) for i in range(20))
    parser = ChunkParser()
    first = lint_source(source, "k.py", parser=parser)
    assert parser.memo.checked == 20 and len(first) == 20
    lines = source.split("\n")
    at = lines.index("def k10(x: wp.array(dtype=float), y: wp.array(dtype=float)):") + 2
    edited = "\n".join(lines[:at] + ["    t = x[i] + 1.0"] + lines[at:])
    again = lint_source(edited, "k.py", parser=parser)
    assert parser.memo.checked == 1  # k10 itself; k11..k19 moved down one line and were reused
    assert [f.location.line for f in again] == [f.location.line + (f.location.line > at) for f in first]


def test_a_chunk_that_never_parses_is_merged_at_most_max_merges_times(monkeypatch):
    """An unclosed bracket at the top: each cut after it fails to parse, and without a cap every start
    would be merged to the end of the file (quadratic in the file's length); after MAX_MERGES merges the
    parser parses the whole file instead, and raises its SyntaxError."""
    import tapewatch.lint.chunks as chunks

    tried = []
    real = chunks._try_parse
    monkeypatch.setattr(chunks, "_try_parse", lambda text: tried.append(text) or real(text))
    source = "import warp as wp\nx = (1,\n" + "".join("y%d = %d\n" % (i, i) for i in range(2000))
    with pytest.raises(SyntaxError) as raised:
        ChunkParser().parse(source)
    with pytest.raises(SyntaxError) as expected:
        ast.parse(source)
    assert (raised.value.lineno, raised.value.msg) == (expected.value.lineno, expected.value.msg)
    assert len(tried) <= chunks.MAX_MERGES + 2, len(tried)


def test_a_statement_longer_than_max_merges_cuts_still_gives_the_whole_files_tree():
    import tapewatch.lint.chunks as chunks

    long_string = 's = """\n' + "".join("line%d = %d\n" % (i, i) for i in range(chunks.MAX_MERGES * 2)) + '"""\n'
    source = "import warp as wp\n" + long_string + "z = 1\n"
    assert same(ChunkParser().parse(source), source)


@pytest.mark.parametrize("odd", ["\x0c", "\u2028", "\u2029", "\x1c", "\x85", "\x0b"])
def test_lines_end_only_where_python_ends_them(odd):
    """Form feeds, \\u2028 and the other characters str.splitlines breaks on are not line ends for
    Python: the chunks' line numbers stay those of ast.parse."""
    source = ("import warp as wp\n%sx = 1\ns = '%s'  # %s\n\n\ndef f():\n    return x\n%s\ny = 2  # %s\n"
              % ("\x0c" if odd == "\x0c" else "", odd, odd, "\x0c" if odd == "\x0c" else "", odd))
    parser = ChunkParser()
    assert same(parser.parse(source), source)
    assert chunks_count(source)[1] == len(io.StringIO(source, newline="").readlines())


def chunks_count(source):
    from tapewatch.lint.chunks import chunk_count

    return chunk_count(source)


def test_tapewatch_lints_long_file_with_form_feeds_parses_as_python_does():
    """``tapewatch lint`` parses a long file by chunk too (lint_cli.parse_module): a line holding only a
    form feed (an old editor's page break) is whitespace there, never a cut that raises."""
    from tapewatch import lint_cli

    block = "\x0c\ndef f{0}(a):\n    return a + {0}\n\n"
    source = "import warp as wp\n" + "".join(block.format(i) for i in range(lint_cli.CHUNKED_FROM // 30))
    assert len(source) > lint_cli.CHUNKED_FROM
    assert same(lint_cli.parse_module(source, "long.py"), source)
