"""Calibrate a water-distribution model's roughness and demand factor from the pressures at the end of
eight supply lines, each marched segment by segment on the tape.

The loss the program reports is the mean squared pressure deviation over the lines, computed on the
host; the seed array is assigned each line's own deviation, twice over the number of lines: the
derivative of that mean.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

N_LINE = 8
N_SEG = 6
DEMAND = np.linspace(0.5, 1.5, N_LINE).astype(np.float32)


@wp.kernel
def head(p: wp.array(dtype=float), out: wp.array(dtype=float)):
    out[wp.tid()] = p[0]


@wp.kernel
def segment(p: wp.array(dtype=float), demand: wp.array(dtype=float), h: wp.array(dtype=float),
            h_next: wp.array(dtype=float)):
    i = wp.tid()
    q = demand[i] * p[1]
    h_next[i] = h[i] - 0.8 * q * q


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    demand = wp.array(DEMAND, dtype=float)
    pressure = [wp.zeros(N_LINE, dtype=float, requires_grad=True) for _ in range(N_SEG + 1)]
    tape = wp.Tape()
    with tape:
        wp.launch(head, dim=N_LINE, inputs=[params], outputs=[pressure[0]])
        for s in range(N_SEG):
            wp.launch(segment, dim=N_LINE, inputs=[params, demand, pressure[s]], outputs=[pressure[s + 1]])
    end = pressure[-1].numpy().astype(np.float64)
    loss = np.mean((end - 30.0) ** 2)
    seed = wp.empty_like(pressure[-1])
    seed.assign((2.0 * (end - 30.0) / N_LINE).astype(np.float32))
    tape.backward(grads={pressure[-1]: seed})
    return loss, params.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array([40.0, 1.2])
    for it in range(3):
        loss, g = evaluate(p)
        p -= 0.001 * g
        print("mean squared deviation", loss)
