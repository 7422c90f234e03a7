"""Fit cooling rates in log space: the exp() transform is launched with record_tape=False inside the tape.

The tape never records k = exp(log_k), so log_k.grad stays zero and the
optimizer never moves.  The record_tape=False is the line to change.
"""

import numpy as np
import warp as wp

NC, NT = 3, 24


@wp.kernel
def rates_from_logs(log_k: wp.array(dtype=float), k: wp.array(dtype=float)):
    i = wp.tid()
    k[i] = wp.exp(log_k[i])


@wp.kernel
def cooling(k: wp.array(dtype=float), t: wp.array(dtype=float), temp: wp.array2d(dtype=float)):
    c, j = wp.tid()
    temp[c, j] = 20.0 + 70.0 * wp.exp(-k[c] * t[j])


@wp.kernel
def misfit(temp: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    c, j = wp.tid()
    d = temp[c, j] - obs[c, j]
    wp.atomic_add(loss, 0, d * d)


class Cups:
    def __init__(self):
        t = np.linspace(0.0, 20.0, NT).astype(np.float32)
        self.t = wp.array(t, dtype=float)
        true_k = np.array([0.05, 0.1, 0.2], dtype=np.float32)
        self.obs = wp.array((20.0 + 70.0 * np.exp(-true_k[:, None] * t[None, :])).astype(np.float32), dtype=float)

    def loss(self, log_k):
        k = wp.zeros(NC, dtype=float, requires_grad=True)
        temp = wp.zeros((NC, NT), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(rates_from_logs, dim=NC, inputs=[log_k], outputs=[k], record_tape=False)  # expect: TW207
        wp.launch(cooling, dim=(NC, NT), inputs=[k, self.t], outputs=[temp])
        wp.launch(misfit, dim=(NC, NT), inputs=[temp, self.obs], outputs=[loss])
        return loss


def main():
    cups = Cups()
    log_k = wp.array(np.log(np.full(NC, 0.1, dtype=np.float32)), dtype=float, requires_grad=True)
    for it in range(3):
        tape = wp.Tape()
        with tape:
            loss = cups.loss(log_k)
        tape.backward(loss)
        log_k.assign(log_k.numpy() - 1e-5 * log_k.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
