"""The shared reader of Warp source: one parse per kernel text and per file, names of calls and paths."""

import ast
import linecache

from tapewatch.warpsrc import source, vocabulary


KERNEL = '''
    @wp.kernel
    def scale(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = 2.0 * x[i]
'''


def test_a_kernels_text_is_parsed_once_and_its_def_found():
    fdef = source.parse_def(KERNEL)
    assert isinstance(fdef, ast.FunctionDef) and fdef.name == "scale"
    assert source.parse_def(KERNEL) is fdef  # the cached tree, shared by every reader


def test_unparsable_or_missing_source_gives_none():
    assert source.parse_def(None) is None
    assert source.parse_def("") is None
    assert source.parse_def("def broken(:\n") is None
    assert source.parse_def("x = 1\n") is None  # no def in it


def test_names_of_calls_and_access_paths():
    call = ast.parse("wp.math.norm(a)", mode="eval").body
    assert source.callee(call.func) == "norm"
    assert source.dotted(call.func) == "wp.math.norm"
    assert source.dotted_parts(call.func) == ["wp", "math", "norm"]
    assert source.dotted(ast.parse("f()(x)", mode="eval").body.func) is None
    assert source.root_name(ast.parse("state.q[i].x", mode="eval").body).id == "state"
    assert source.root_name(ast.parse("f(x)[0]", mode="eval").body) is None


def test_resolve_looks_a_dotted_name_up_in_the_first_namespace_that_has_it():
    class Config:
        DELTA = 0.5

    expr = ast.parse("cfg.DELTA", mode="eval").body
    assert source.resolve(expr, [{}, {"cfg": Config}]) == 0.5
    assert source.resolve(expr, [{"cfg": Config()}, {"cfg": None}]) == 0.5
    assert source.resolve(ast.parse("cfg.MISSING", mode="eval").body, [{"cfg": Config}]) is None
    assert source.resolve(expr, [{}], default="unknown") == "unknown"
    assert source.resolve(ast.parse("f(x)", mode="eval").body, [{"f": len}]) is None


def test_a_file_is_parsed_again_only_when_its_lines_change(tmp_path):
    path = tmp_path / "script.py"
    path.write_text("a = 1\n")
    first = source.file_tree(str(path))
    assert isinstance(first.body[0], ast.Assign)
    assert source.file_tree(str(path)) is first
    path.write_text("def f():\n    return 2\n")
    linecache.checkcache(str(path))
    second = source.file_tree(str(path))
    assert isinstance(second.body[0], ast.FunctionDef)
    path.write_text("def f(:\n")
    linecache.checkcache(str(path))
    assert source.file_tree(str(path)) is None
    assert source.file_tree(str(tmp_path / "missing.py")) is None


def test_one_vocabulary_answers_each_question():
    # Every atomic writes its array; the accumulating ones are atomics.
    assert vocabulary.ATOMICS <= vocabulary.WRITERS
    assert vocabulary.ACCUMULATING_ATOMICS <= vocabulary.ATOMICS
    # What the probe counts as singular at run time is a hazard the lint knows, on a side it can test.
    for name in vocabulary.SINGULAR_DERIVATIVES:
        assert vocabulary.HAZARDS[name] in (vocabulary.LOW, vocabulary.ANY)
    # A sum's adjoint needs no value, and it is linear; a product is neither.
    assert {"add", "sub"} <= vocabulary.VALUE_FREE_ADJOINTS & vocabulary.LINEAR_CALLS
    assert "mul" in vocabulary.BILINEAR_CALLS and "mul" not in vocabulary.LINEAR_CALLS
    assert not vocabulary.METADATA_CALLS & vocabulary.LINEAR_CALLS
