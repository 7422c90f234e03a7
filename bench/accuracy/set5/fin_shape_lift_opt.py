# correct: model buffers include arrays without requires_grad, but they only hold constants (panel ids, chord lengths) that do not depend on the optimized heights
"""Optimize the panel heights of a heat-sink fin array: heat flux against pressure loss."""
import numpy as np
import warp as wp

NPANEL = 6


@wp.kernel
def panel_area(height: wp.array(dtype=wp.float32), chord: wp.array(dtype=wp.float32), area: wp.array(dtype=wp.float32)):
    i = wp.tid()
    h = height[i]
    area[i] = chord[i] * wp.sqrt(h * h + 0.04)


@wp.kernel
def flux_and_drag(area: wp.array(dtype=wp.float32), height: wp.array(dtype=wp.float32), group: wp.array(dtype=wp.int32),
                  loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    flux = 1.0 - wp.exp(-2.0 * area[i])
    drag = 0.3 * height[i] * height[i]
    if group[i] == 1:
        drag = drag * 1.5
    wp.atomic_add(loss, 0, drag - flux)


class FinModel:
    def __init__(self):
        self.chord = wp.array(np.linspace(0.4, 0.6, NPANEL).astype(np.float32), dtype=wp.float32)
        self.group = wp.array(np.arange(NPANEL) % 2, dtype=wp.int32)
        self.area = wp.zeros(NPANEL, dtype=wp.float32, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def evaluate(self, height):
        self.loss.zero_()
        wp.launch(panel_area, dim=NPANEL, inputs=[height, self.chord], outputs=[self.area])
        wp.launch(flux_and_drag, dim=NPANEL, inputs=[self.area, height, self.group], outputs=[self.loss])
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
