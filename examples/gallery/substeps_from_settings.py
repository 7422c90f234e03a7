"""Bug: a sub-stepped decay whose step count comes from a settings module; 24 sub-steps are more than Warp
unrolls, so the loop is dynamic and the recurrence in it is not replayed per iteration."""
import numpy as np
import warp as wp

from _substep_config import SUBSTEPS

N = 16


@wp.kernel
def substep_decay(x0: wp.array(dtype=float), rate: wp.array(dtype=float), dt: float, x_out: wp.array(dtype=float)):
    i = wp.tid()
    x = x0[i]
    for s in range(SUBSTEPS):  # expect: TW303
        x = x - dt * rate[i] * x * x
    x_out[i] = x


@wp.kernel
def fit(x: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def main():
    x0 = wp.array(np.linspace(0.5, 2.0, N, dtype=np.float32), requires_grad=True)
    rate = wp.array(np.full(N, 0.8, dtype=np.float32), requires_grad=True)
    target = wp.array(np.full(N, 0.4, dtype=np.float32))
    x = wp.zeros(N, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(substep_decay, dim=N, inputs=[x0, rate, 1.0 / SUBSTEPS], outputs=[x])
        wp.launch(fit, dim=N, inputs=[x, target], outputs=[loss])
    tape.backward(loss)
    print("loss", loss.numpy()[0])
    print("dloss/drate", rate.grad.numpy()[:6])
    return rate.grad.numpy()


if __name__ == "__main__":
    main()
