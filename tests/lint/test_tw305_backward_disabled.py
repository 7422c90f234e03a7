"""TW305: enable_backward=False in a file that differentiates."""

import textwrap

from tapewatch.lint import lint_source


def lint(src, code="TW305"):
    return [f for f in lint_source(textwrap.dedent(src), "sim.py") if f.code == code]


KERNEL_AND_TAPE = """
import warp as wp


@wp.kernel(enable_backward={flag})
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    tid = wp.tid()
    y[tid] = x[tid] * x[tid]


x = wp.array([1.0, 2.0, 3.0], dtype=float, requires_grad=True)
y = wp.zeros_like(x)
{tail}
"""

TAPE = """
tape = wp.Tape()
with tape:
    wp.launch(square, dim=3, inputs=[x], outputs=[y])
tape.backward(grads={y: wp.ones_like(y)})
"""


def test_kernel_decorator_in_a_taped_file():
    found = lint(KERNEL_AND_TAPE.format(flag="False", tail=TAPE))
    assert len(found) == 1
    f = found[0]
    assert (f.location.line, f.location.column, f.location.end_column) == (5, 12, 33)  # enable_backward=False
    assert f.data["kernel"] == "square" and f.data["scope"] == "kernel"
    assert f.related[0].location.line == 14 and f.related[0].role == "tape"


def test_same_kernel_without_a_tape_is_silent():
    assert lint(KERNEL_AND_TAPE.format(flag="False", tail="wp.launch(square, dim=3, inputs=[x], outputs=[y])")) == []


def test_enable_backward_true_is_silent():
    assert lint(KERNEL_AND_TAPE.format(flag="True", tail=TAPE)) == []


def test_module_options_global_config_and_other_spellings():
    found = lint(
        """
        import warp
        import warp.autograd
        from warp import kernel

        warp.config.enable_backward = False
        warp.set_module_options({"enable_backward": False, "max_unroll": 4})


        @kernel(module="unique", module_options={"enable_backward": False})
        def residual(x: warp.array(dtype=float), r: warp.array(dtype=float)):
            tid = warp.tid()
            r[tid] = x[tid] - 1.0


        def check(x, r):
            return warp.autograd.gradcheck(residual, dim=x.shape[0], inputs=[x], outputs=[r])
        """
    )
    assert [(f.location.line, f.location.column, f.data["scope"]) for f in found] == [
        (6, 1, "global"),
        (7, 26, "module"),
        (10, 42, "kernel-module"),
    ]
    assert found[1].location.end_column == 50  # "enable_backward": False
    assert found[2].data["kernel"] == "residual"


def test_torch_style_backward_counts_as_differentiation_and_noqa_silences():
    src = """
        import torch
        import warp as wp

        wp.set_module_options({"enable_backward": False})  {noqa}


        def train(loss: torch.Tensor):
            loss.backward()
        """
    assert [f.location.line for f in lint(src.replace("{noqa}", ""))] == [5]
    assert lint(src.replace("{noqa}", "# noqa: TW305")) == []


def test_kernel_only_launched_off_the_tape_is_silent():
    # Warp's custom-backward pattern: the solver kernel runs with record_tape=False
    # and its adjoint is registered with tape.record_func.
    tail = """
def solve(x, y):
    wp.launch(square, dim=3, inputs=[x], outputs=[y], record_tape=False)

tape = wp.Tape()
with tape:
    solve(x, y)
    tape.record_func(lambda: None, arrays=[x, y])
tape.backward(grads={y: wp.ones_like(y)})
"""
    assert lint(KERNEL_AND_TAPE.format(flag="False", tail=tail)) == []
    taped = tail.replace("    solve(x, y)\n", "    solve(x, y)\n    wp.launch(square, dim=3, inputs=[x], outputs=[y])\n")
    assert len(lint(KERNEL_AND_TAPE.format(flag="False", tail=taped))) == 1
