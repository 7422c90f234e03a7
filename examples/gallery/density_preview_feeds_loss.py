"""Fit particle positions to a density target through a smoothing step compiled without adjoint.

The smoothing kernel (enable_backward=False) writes `smoothed`, a blur step
reads it into `blurred`, and the loss reads `blurred`: two launches later the
skipped adjoint still cuts every gradient to the positions.
"""
import numpy as np
import warp as wp

PARTICLES = 24
CELLS = 32


@wp.kernel
def splat(positions: wp.array(dtype=float), cell_size: float, density: wp.array(dtype=float)):
    p, c = wp.tid()
    x = (float(c) + 0.5) * cell_size
    d = (x - positions[p]) / (2.0 * cell_size)
    wp.atomic_add(density, c, wp.exp(-d * d))


@wp.kernel(enable_backward=False)  # expect: TW405
def clip_density(density: wp.array(dtype=float), ceiling: float, smoothed: wp.array(dtype=float)):
    c = wp.tid()
    smoothed[c] = wp.min(density[c], ceiling)


@wp.kernel
def blur(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    c = wp.tid()
    left = src[wp.max(c - 1, 0)]
    right = src[wp.min(c + 1, CELLS - 1)]
    dst[c] = 0.25 * left + 0.5 * src[c] + 0.25 * right


@wp.kernel
def profile_loss(profile: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    c = wp.tid()
    d = profile[c] - target[c]
    wp.atomic_add(loss, 0, d * d)


def fit_step(positions, target):
    density = wp.zeros(CELLS, dtype=float, requires_grad=True)
    smoothed = wp.zeros(CELLS, dtype=float, requires_grad=True)
    blurred = wp.zeros(CELLS, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(splat, dim=(PARTICLES, CELLS), inputs=[positions, 1.0 / CELLS], outputs=[density])
        wp.launch(clip_density, dim=CELLS, inputs=[density, 5.0], outputs=[smoothed])
        wp.launch(blur, dim=CELLS, inputs=[smoothed], outputs=[blurred])
        wp.launch(profile_loss, dim=CELLS, inputs=[blurred, target], outputs=[loss])
    tape.backward(loss)
    return loss.numpy()[0]


def main():
    rng = np.random.default_rng(3)
    positions = wp.array(rng.uniform(0.2, 0.8, PARTICLES).astype(np.float32), requires_grad=True)
    target = wp.array(np.full(CELLS, 0.6, dtype=np.float32))
    loss = fit_step(positions, target)
    print("loss", loss, "grad[0]", positions.grad.numpy()[0])


if __name__ == "__main__":
    main()
