"""The lint engine's promises: pure, never raises, exact ranges, one finding per problem."""

import json
import os
import random
import textwrap

import pytest

from tapewatch import codes
from tapewatch.lint import RULE_CODES, lint_source, registry
from tapewatch.model import Finding

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ALL_RULES = textwrap.dedent(
    """
    import warp as wp


    @wp.kernel(enable_backward=False)
    def init(a: wp.array(dtype=float)):
        a[wp.tid()] = 1.0


    @wp.kernel
    def everything(a: wp.array(dtype=float), out: wp.array(dtype=wp.vec3), n: int, gain: wp.array(dtype=float)):
        tid = wp.tid()
        a[tid] *= gain[0]
        v = wp.vec3()
        v[0] = a[tid]
        v[0] = 1.0
        p = float(1.0)
        for i in range(n):
            p *= a[i]
        out[tid] = v * wp.where(p > 0.0, wp.log(p), 0.0)
        slot = wp.atomic_add(a, 0, 1.0)


    @wp.func
    def cube(x: float):
        return x * x * x


    @wp.func_grad(cube)
    def adj_cube(x: float, adj_ret: float):
        wp.adjoint[x] = 3.0 * x * x * adj_ret


    with wp.Tape() as tape:
        wp.launch(everything, dim=4, inputs=[x, y, 4])
        x.zero_()
    """
)


@pytest.mark.parametrize(
    "source",
    [
        "",
        "def broken(:\n    pass\n",
        "@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    a[0] *= \n",
        "wp.\x00kernel",
        "\x00\x01\x02\xff" * 50,
        "import warp as wp\n" + "(" * 500 + ")" * 500,
        "import warp as wp\nx = " + "-" * 100000 + "1\n",
        bytes(random.Random(7).getrandbits(8) for _ in range(4096)),
        b"import warp as wp\n\xff\xfe@wp.kernel\n",
        "import warp as wp\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n\ta[0] *= 2.0\n        a[1] *= 2.0\n",
    ],
)
def test_garbage_syntax_errors_and_binary_return_empty(source):
    assert lint_source(source, "bad.py") == []


def test_non_string_inputs_do_not_raise():
    assert lint_source(None, "x.py") == []
    assert lint_source(ALL_RULES.encode(), "x.py")  # bytes of valid source are accepted


def test_every_rule_fires_once_on_the_combined_example():
    found = lint_source(ALL_RULES, "sim.py")
    assert sorted(f.code for f in found) == sorted(RULE_CODES)
    for f in found:
        assert f.severity == codes.severity(f.code)
        assert f.location.path == "sim.py"
        assert f.location.end_line >= f.location.line
        assert f.location.end_column is not None
        assert f.data["source"] == "lint"
        # Findings cross the process boundary as JSON.
        assert Finding.from_json(json.loads(json.dumps(f.to_json()))) == f


def test_findings_are_sorted_and_deterministic():
    first = lint_source(ALL_RULES, "sim.py")
    assert first == lint_source(ALL_RULES, "sim.py")
    keys = [(f.location.line, f.location.column) for f in first]
    assert keys == sorted(keys)


def test_columns_are_utf8_byte_offsets_like_the_server_expects():
    src = textwrap.dedent(
        """
        import warp as wp


        @wp.kernel
        def k(a: wp.array(dtype=float)):
            tid = wp.tid()
            é = 1.0; a[tid] *= é  # Größe
        """
    )
    (f,) = lint_source(src, "u.py")
    # "é" is two bytes: the statement starts at character 14 but byte 15
    # (tapewatch.lsp.convert turns bytes into the client's units).
    assert (f.location.line, f.location.column, f.location.end_column) == (8, 15, 27)
    line = src.splitlines()[7].encode("utf-8")
    assert line[f.location.column - 1:f.location.end_column - 1].decode("utf-8") == "a[tid] *= é"


def test_noqa_silences_all_or_listed_codes():
    src = textwrap.dedent(
        """
        import warp as wp


        @wp.kernel
        def k(a: wp.array(dtype=float), gain: wp.array(dtype=float)):
            tid = wp.tid()
            a[tid] *= gain[0]  {comment}
        """
    )
    assert len(lint_source(src.format(comment=""), "n.py")) == 1
    assert lint_source(src.format(comment="# noqa"), "n.py") == []
    assert lint_source(src.format(comment="# noqa: TW301"), "n.py") == []
    assert len(lint_source(src.format(comment="# noqa: TW302"), "n.py")) == 1


def test_a_failing_rule_does_not_hide_the_others(monkeypatch):
    class Broken:
        CODE = "TW399"

        @staticmethod
        def check(ctx):
            raise RuntimeError("bug in a rule")

    monkeypatch.setattr(registry, "RULES", (Broken,) + registry.RULES)
    found = lint_source(ALL_RULES, "sim.py")
    assert sorted(f.code for f in found) == sorted(RULE_CODES)


def test_kernel_rules_skip_code_compiled_without_backward():
    body = """
        {decorator}
        def k(a: wp.array(dtype=float), n: int, gain: wp.array(dtype=float)):
            tid = wp.tid()
            a[tid] *= gain[0]
            p = float(1.0)
            for i in range(n):
                p *= a[i]
            a[tid] = wp.where(p > 0.0, wp.log(p), 0.0)
        """
    head = "import warp as wp\n{module}\n"
    def codes_for(module, decorator):
        src = head.format(module=module) + textwrap.dedent(body.format(decorator=decorator))
        return sorted({f.code for f in lint_source(src, "fwd.py")})

    assert codes_for("", "@wp.kernel") == ["TW301", "TW303", "TW304"]
    assert codes_for("", "@wp.kernel(enable_backward=False)") == []
    assert codes_for('wp.set_module_options({"enable_backward": False})', "@wp.kernel") == []
    assert codes_for("wp.config.enable_backward = False", "@wp.kernel") == []
    # The kernel's own option is more specific than the module's.
    assert codes_for('wp.set_module_options({"enable_backward": False})', "@wp.kernel(enable_backward=True)") == [
        "TW301", "TW303", "TW304"]


def test_file_without_warp_is_skipped():
    assert lint_source("import numpy as np\n\ndef f(a):\n    a[0] *= 2\n", "plain.py") == []


def test_wp_is_assumed_for_a_snippet_without_its_import():
    src = "@wp.kernel\ndef k(a: wp.array(dtype=float), s: wp.array(dtype=float)):\n    i = wp.tid()\n    a[i] /= s[0]\n"
    assert [f.code for f in lint_source(src, "snippet.py")] == ["TW301"]


def test_kernel_registered_by_call_instead_of_decorator():
    src = textwrap.dedent(
        """
        import warp as wp


        def scale(a: wp.array(dtype=float), s: wp.array(dtype=float)):
            i = wp.tid()
            a[i] *= s[0]


        scale_kernel = wp.kernel(scale)
        """
    )
    assert [(f.code, f.location.line) for f in lint_source(src, "k.py")] == [("TW301", 7)]


def test_every_rule_code_is_catalogued_and_documented():
    for code in RULE_CODES:
        assert codes.get(code).code == code
        page = os.path.join(REPO, "docs", "diagnostics", code + ".md")
        assert os.path.isfile(page), page
        with open(page, encoding="utf-8") as fh:
            text = fh.read()
        assert text.startswith("# %s" % code)
        for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Known problems"):
            assert section in text, (code, section)
