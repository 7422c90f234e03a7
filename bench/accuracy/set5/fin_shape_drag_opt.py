"""Optimize the panel heights of a cooling fin: maximize heat flux per unit drag."""
import numpy as np
import warp as wp

NPANEL = 6


@wp.kernel
def panel_area(height: wp.array(dtype=wp.float32), width: wp.float32, area: wp.array(dtype=wp.float32)):
    i = wp.tid()
    h = height[i]
    area[i] = width * wp.sqrt(h * h + 0.04)


@wp.kernel
def flux_and_drag(area: wp.array(dtype=wp.float32), height: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    flux = 1.0 - wp.exp(-2.0 * area[i])
    drag = 0.3 * height[i] * height[i]
    wp.atomic_add(loss, 0, drag - flux)


@wp.kernel
def smoothness(height: wp.array(dtype=wp.float32), w: wp.float32, loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    if i > 0:
        d = height[i] - height[i - 1]
        wp.atomic_add(loss, 0, w * d * d)


class FinModel:
    def __init__(self, width=0.5):
        self.width = width
        self.area = wp.zeros(NPANEL, dtype=wp.float32)  # expect: requires_grad
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def evaluate(self, height):
        self.loss.zero_()
        wp.launch(panel_area, dim=NPANEL, inputs=[height, self.width], outputs=[self.area])
        wp.launch(flux_and_drag, dim=NPANEL, inputs=[self.area, height], outputs=[self.loss])
        wp.launch(smoothness, dim=NPANEL, inputs=[height, 0.1], outputs=[self.loss])
        return self.loss


def optimize(iters=50, lr=0.1):
    model = FinModel()
    height = wp.array(np.linspace(0.2, 1.0, NPANEL).astype(np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = model.evaluate(height)
        tape.backward(loss)
        g = height.grad.numpy().copy()
        history.append((height.numpy().copy(), g))
        height.assign(height.numpy() - lr * g)
        tape.zero()
    print("heights", height.numpy(), "loss", loss.numpy()[0])
    return history


if __name__ == "__main__":
    optimize()
