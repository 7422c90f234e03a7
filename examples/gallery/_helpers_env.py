"""An environment whose reset() and metrics() run between the forward pass and backward()."""

import warp as wp


@wp.kernel
def drag(v: wp.array(dtype=float), c: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    v_out[i] = v[i] - c[0] * v[i] * wp.abs(v[i])


@wp.kernel
def normalize_in_place(v: wp.array(dtype=float), scale: float):
    i = wp.tid()
    v[i] = v[i] * scale


class Env:
    def __init__(self, n):
        self.n = n
        self.v = wp.full(n, 1.5, dtype=float, requires_grad=True)
        self.v_next = wp.zeros(n, dtype=float, requires_grad=True)

    def step(self, c):
        wp.launch(drag, dim=self.n, inputs=[self.v, c], outputs=[self.v_next])

    def metrics(self):
        # rescales the velocities for a plot, in place
        wp.launch(normalize_in_place, dim=self.n, inputs=[self.v, 0.5])

    def reset(self):
        self.v.fill_(2.0)
