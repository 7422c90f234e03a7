"""Fit a small tanh MLP to a noisy 1D curve with Adam (warp.optim).

Hidden activations live in two scratch buffers that the layers alternate
between, to keep the memory footprint of the forward pass small.
"""

import numpy as np
import warp as wp
import warp.optim

from _layers import act_linear, act_tanh, glorot, make_dense, mse_loss

wp.config.quiet = True
DEVICE = "cpu"

HIDDEN = 6
BATCH = 16


class MLP:
    def __init__(self, seed=0):
        rng = np.random.default_rng(seed)
        sizes = [(HIDDEN, 1), (HIDDEN, HIDDEN), (HIDDEN, HIDDEN), (1, HIDDEN)]
        self.W = [wp.array(glorot(rng, o, i), dtype=float, requires_grad=True, device=DEVICE) for o, i in sizes]
        self.b = [wp.array(rng.normal(0, 0.1, o).astype(np.float32), requires_grad=True, device=DEVICE)
                  for o, _ in sizes]
        self.k_in = make_dense(1, act_tanh)
        self.k_hid = make_dense(HIDDEN, act_tanh)
        self.k_out = make_dense(HIDDEN, act_linear)
        self.h_a = wp.zeros((BATCH, HIDDEN), dtype=float, requires_grad=True, device=DEVICE)
        self.h_b = wp.zeros((BATCH, HIDDEN), dtype=float, requires_grad=True, device=DEVICE)

    def params(self):
        return self.W + self.b

    def get_flat(self):
        return np.concatenate([a.numpy() for a in self.params()]).astype(np.float64)

    def set_flat(self, p):
        off = 0
        for a in self.params():
            a.assign(np.asarray(p[off:off + a.shape[0]], dtype=np.float32))
            off += a.shape[0]

    def grad_flat(self):
        return np.concatenate([a.grad.numpy() for a in self.params()]).astype(np.float64)

    def forward(self, x, out):
        wp.launch(self.k_in, dim=(BATCH, HIDDEN), inputs=[x, self.W[0], self.b[0]], outputs=[self.h_a], device=DEVICE)
        wp.launch(self.k_hid, dim=(BATCH, HIDDEN), inputs=[self.h_a, self.W[1], self.b[1]], outputs=[self.h_b],
                  device=DEVICE)
        wp.launch(self.k_hid, dim=(BATCH, HIDDEN), inputs=[self.h_b, self.W[2], self.b[2]], outputs=[self.h_a],  # expect: overwrite
                  device=DEVICE)
        wp.launch(self.k_out, dim=(BATCH, 1), inputs=[self.h_a, self.W[3], self.b[3]], outputs=[out], device=DEVICE)


def make_data(seed=1):
    rng = np.random.default_rng(seed)
    x = np.linspace(-1.5, 1.5, BATCH).astype(np.float32).reshape(BATCH, 1)
    y = (np.sin(2.5 * x) + 0.05 * rng.normal(size=x.shape)).astype(np.float32)
    return wp.array(x, dtype=float, device=DEVICE), wp.array(y, dtype=float, device=DEVICE)


def loss_and_grad(model, x, y):
    pred = wp.zeros((BATCH, 1), dtype=float, requires_grad=True, device=DEVICE)
    loss = wp.zeros(1, dtype=float, requires_grad=True, device=DEVICE)
    tape = wp.Tape()
    with tape:
        model.forward(x, pred)
        wp.launch(mse_loss, dim=(BATCH, 1), inputs=[pred, y, 1.0 / BATCH], outputs=[loss], device=DEVICE)
    tape.backward(loss)
    return tape, loss


PARAMS0 = MLP().get_flat()


def evaluate(p):
    model = MLP()
    model.set_flat(p)
    x, y = make_data()
    tape, loss = loss_and_grad(model, x, y)
    return float(loss.numpy()[0]), model.grad_flat()


if __name__ == "__main__":
    model = MLP()
    x, y = make_data()
    opt = warp.optim.Adam(model.params(), lr=0.02)
    for epoch in range(60):
        tape, loss = loss_and_grad(model, x, y)
        opt.step([a.grad for a in model.params()])
        tape.zero()
        if epoch % 20 == 0:
            print(f"epoch {epoch:3d}  mse {loss.numpy()[0]:.5f}")
    print("final mse", loss.numpy()[0])
