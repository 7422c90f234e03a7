"""TW306: zero_/fill_/wp.copy/assign inside a tape block onto an array an earlier launch read."""

import textwrap

from tapewatch.lint import lint_source


def lint(src, code="TW306"):
    return [f for f in lint_source(textwrap.dedent(src), "sim.py") if f.code == code]


HEADER = """
import warp as wp


@wp.kernel
def integrate(q: wp.array(dtype=wp.vec3), qd: wp.array(dtype=wp.vec3), q_out: wp.array(dtype=wp.vec3), dt: float):
    tid = wp.tid()
    q_out[tid] = q[tid] + qd[tid] * dt


@wp.kernel
def loss_kernel(q: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    tid = wp.tid()
    wp.atomic_add(loss, 0, wp.length_sq(q[tid]))
"""


def test_zero_after_launch_that_read_it():
    found = lint(
        HEADER
        + """
def simulate(state, next_state, loss, dt):
    with wp.Tape() as tape:
        wp.launch(integrate, dim=state.q.shape[0], inputs=[state.q, state.qd, next_state.q, dt])
        state.q.zero_()
        wp.launch(loss_kernel, dim=next_state.q.shape[0], inputs=[next_state.q], outputs=[loss])
    tape.backward(loss)
"""
    )
    assert len(found) == 1
    f = found[0]
    assert (f.location.line, f.location.column, f.location.end_column) == (19, 9, 24)
    assert f.data["array"] == "state.q" and f.data["operation"] == "zero_" and f.data["kernel"] == "integrate"
    assert f.data["runtime_code"] == "TW103"
    assert f.related[0].location.line == 18 and f.related[0].role == "reader"


def test_copy_fill_and_assign_with_named_tape_and_nested_block():
    found = lint(
        HEADER
        + """
q0 = wp.zeros(16, dtype=wp.vec3, requires_grad=True)
qd = wp.zeros(16, dtype=wp.vec3, requires_grad=True)
q1 = wp.zeros(16, dtype=wp.vec3, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(integrate, 16, [q0, qd, q1, 0.01])
    for step in range(3):
        wp.copy(q0, q1)
        wp.copy(dest=qd, src=q1)
    qd.fill_(0.0)
    q0.assign(q1)
    wp.launch(loss_kernel, dim=16, inputs=[q1], outputs=[loss])
tape.backward(loss)
"""
    )
    assert [(f.location.line, f.data["array"], f.data["operation"]) for f in found] == [
        (24, "q0", "copy"),
        (25, "qd", "copy"),
        (26, "qd", "fill_"),
        (27, "q0", "assign"),
    ]


def test_overwrite_before_launch_in_a_loop_clobbers_previous_iteration():
    found = lint(
        HEADER
        + """
def rollout(q, qd, q_next, loss, steps):
    tape = wp.Tape()
    with tape:
        for i in range(steps):
            q_next.zero_()
            wp.launch(integrate, dim=16, inputs=[q, qd, q_next, 0.01])
            wp.launch(loss_kernel, dim=16, inputs=[q_next], outputs=[loss])
    return tape
"""
    )
    assert [(f.location.line, f.data["previous_iteration"]) for f in found] == [(20, True)]


def test_tape_held_on_self_like_warp_examples():
    found = lint(
        HEADER
        + """
class Example:
    def __init__(self, n):
        self.tape = wp.Tape()
        self.q = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
        self.qd = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
        self.q_next = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def step(self):
        with self.tape:
            wp.launch(integrate, dim=len(self.q), inputs=[self.q, self.qd], outputs=[self.q_next, 0.01])
            wp.launch(loss_kernel, dim=len(self.q), inputs=[self.q_next, self.loss])
            self.q_next.fill_(0.0)
        self.tape.backward(self.loss)
"""
    )
    assert [(f.location.line, f.data["array"], f.data["kernel"]) for f in found] == [(28, "self.q_next", "loss_kernel")]


def test_kernel_from_another_module_counts_every_input_as_read():
    found = lint(
        """
import warp as wp
from physics import integrate

with wp.Tape() as tape:
    wp.launch(integrate, dim=16, inputs=[q0, qd, q1, 0.01])
    q1.zero_()
"""
    )
    assert [(f.location.line, f.data["array"]) for f in found] == [(7, "q1")]


def test_benign_lookalikes_are_silent():
    assert lint(
        HEADER
        + """
def step(states, qd, loss, n):
    loss.zero_()                                   # outside the tape
    with wp.Tape() as tape:
        states[0].q.zero_()                        # before the launch that reads it
        wp.launch(integrate, dim=n, inputs=[states[0].q, qd, states[1].q, 0.01])
        states[1].q.zero_()                        # integrate only writes its q_out argument
        loss.zero_()                               # no launch read it
        wp.launch(integrate, dim=n, inputs=[states[1].q, qd, states[2].q, 0.01], record_tape=False)
        states[1].q.zero_()                        # that launch was not recorded
        for i in range(3, 6):
            states[i].q.zero_()                    # a different array every iteration
            wp.launch(integrate, dim=n, inputs=[states[i].q, qd, states[i + 1].q, 0.01])
        qd = wp.zeros_like(qd)                     # rebinds the name: a fresh array
        qd.zero_()
        wp.launch(loss_kernel, dim=n, inputs=[states[6].q], outputs=[loss])
    tape.backward(loss)
    wp.launch(integrate, dim=n, inputs=[states[0].q, qd, states[1].q, 0.01])
    states[0].q.zero_()                            # same code, no tape recording
"""
    ) == []
