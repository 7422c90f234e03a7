"""Parsing by top-level chunk gives the module ``ast.parse`` gives, and reuses what an edit did not touch."""

import ast
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
