"""Bug: a heat-rod conductivity fit whose kernel comes from a factory called with fast=True, which compiles it
without an adjoint: the tape skips it in backward(). The line to change is the factory call."""
import numpy as np
import warp as wp

from _conduction_factory import linear_law, make_conduction_kernel

N = 8
STEPS = 40
conduct = make_conduction_kernel(linear_law, fast=True)  # expect: TW405


@wp.kernel
def probe_loss(T: wp.array(dtype=float), measured: float, loss: wp.array(dtype=float)):
    d = T[N - 1] - measured
    loss[0] = d * d


class Rod:
    def __init__(self):
        T0 = np.zeros(N, dtype=np.float32)
        T0[0] = 100.0
        self.frames = [wp.array(T0, dtype=float, requires_grad=True)]
        self.frames += [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS)]

    def simulate(self, k0):
        for t in range(STEPS):
            wp.launch(conduct, dim=N, inputs=[self.frames[t], k0, 0.1], outputs=[self.frames[t + 1]])
        return self.frames[-1]


def evaluate(p):
    k0 = wp.array(p, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        T_end = Rod().simulate(k0)
        wp.launch(probe_loss, dim=1, inputs=[T_end, 20.0], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), k0.grad.numpy().copy()


PARAMS0 = np.array([1.0], dtype=np.float32)

if __name__ == "__main__":
    print(evaluate(PARAMS0))
