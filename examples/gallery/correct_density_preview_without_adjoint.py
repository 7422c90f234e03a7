"""Move particles so their density profile matches a target; a preview kernel without adjoint.

The preview kernel is compiled with enable_backward=False and launched inside
the tape, but it only fills an image for display: nothing it writes reaches
the loss, so backward() skipping it changes no gradient (measured: identical
gradients with and without the launch).
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


@wp.kernel(enable_backward=False)  # note: TW405
def preview(density: wp.array(dtype=float), peak: float, image: wp.array2d(dtype=float)):
    c, row = wp.tid()
    image[row, c] = wp.where(density[c] / peak * 8.0 > float(row), 1.0, 0.0)


@wp.kernel
def profile_loss(density: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    c = wp.tid()
    d = density[c] - target[c]
    wp.atomic_add(loss, 0, d * d)


class DensityFit:
    def __init__(self, target):
        self.target = target
        self.image = wp.zeros((8, CELLS), dtype=float)

    def step(self, positions):
        density = wp.zeros(CELLS, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(splat, dim=(PARTICLES, CELLS), inputs=[positions, 1.0 / CELLS], outputs=[density])
            wp.launch(preview, dim=(CELLS, 8), inputs=[density, 4.0], outputs=[self.image])
            wp.launch(profile_loss, dim=CELLS, inputs=[density, self.target], outputs=[loss])
        tape.backward(loss)
        return loss.numpy()[0], positions.grad.numpy().copy()


def main():
    rng = np.random.default_rng(3)
    positions = wp.array(rng.uniform(0.2, 0.8, PARTICLES).astype(np.float32), requires_grad=True)
    target = wp.array(np.full(CELLS, 0.6, dtype=np.float32))
    fit = DensityFit(target)
    loss, grad = fit.step(positions)
    print("loss", loss, "grad[0]", grad[0], "image rows lit", int(fit.image.numpy().sum()))


if __name__ == "__main__":
    main()
