"""Move particles so their smoothed density profile matches a target profile."""
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
def smooth(density: wp.array(dtype=float), smoothed: wp.array(dtype=float)):
    c = wp.tid()
    left = density[wp.max(c - 1, 0)]
    right = density[wp.min(c + 1, CELLS - 1)]
    smoothed[c] = 0.25 * left + 0.5 * density[c] + 0.25 * right


@wp.kernel
def profile_loss(
    smoothed: wp.array(dtype=float),
    target: wp.array(dtype=float),
    positions: wp.array(dtype=float),
    loss: wp.array(dtype=float),
):
    c = wp.tid()
    d = smoothed[c] - target[c]
    wp.atomic_add(loss, 0, d * d)
    if c < PARTICLES:
        # keep particles inside the unit domain
        x = positions[c] - 0.5
        wp.atomic_add(loss, 0, 0.01 * x * x)


def step(positions, target):
    density = wp.zeros(CELLS, dtype=float, requires_grad=True)
    smoothed = wp.zeros(CELLS, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(splat, dim=(PARTICLES, CELLS), inputs=[positions, 1.0 / CELLS], outputs=[density])
        wp.launch(smooth, dim=CELLS, inputs=[density], outputs=[smoothed])
        wp.launch(profile_loss, dim=CELLS, inputs=[smoothed, target, positions], outputs=[loss])
    tape.backward(loss)
    return tape, loss


def setup():
    rng = np.random.default_rng(9)
    positions = wp.array(rng.uniform(0.3, 0.7, PARTICLES).astype(np.float32), requires_grad=True)
    xs = (np.arange(CELLS) + 0.5) / CELLS
    target = wp.array((2.0 + 1.5 * np.sin(2 * np.pi * xs)).astype(np.float32))
    return positions, target


if __name__ == "__main__":
    wp.init()
    positions, target = setup()
    for it in range(8):
        tape, loss = step(positions, target)
        g = positions.grad.numpy()
        print(f"iter {it}: loss={loss.numpy()[0]:.4f} |grad|={np.linalg.norm(g):.4f}")
        positions.assign(np.clip(positions.numpy() - 0.002 * g, 0.0, 1.0))
        tape.zero()
