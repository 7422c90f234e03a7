# correct: the scalar loss accumulator (atomic_add) is allocated once and never reset, so the printed loss grows, but it is the seeded output and the atomic adjoint does not read its value, so gradients are exact
"""Schedule orchard irrigation volumes to keep soil moisture near a target."""
import numpy as np
import warp as wp

NZ = 5


@wp.kernel
def moisture_cost(water: wp.array(dtype=wp.float32), evap: wp.array(dtype=wp.float32), target: wp.float32,
                  loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    m = 0.3 + 0.6 * (1.0 - wp.exp(-water[i])) - evap[i]
    d = m - target
    wp.atomic_add(loss, 0, d * d + 0.01 * water[i])


class Orchard:
    def __init__(self):
        self.evap = wp.array(np.array([0.1, 0.2, 0.15, 0.3, 0.05], dtype=np.float32), dtype=wp.float32)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def cost(self, water):
        wp.launch(moisture_cost, dim=NZ, inputs=[water, self.evap, 0.55], outputs=[self.loss])
        return self.loss


def schedule(iters=30, lr=0.5):
    orchard = Orchard()
    water = wp.array(np.full(NZ, 0.5, dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = orchard.cost(water)
        tape.backward(loss)
        g = water.grad.numpy().copy()
        history.append((water.numpy().copy(), g))
        water.assign(water.numpy() - lr * g)
        tape.zero()
    print("water", water.numpy(), "running loss", loss.numpy()[0])
    return history


if __name__ == "__main__":
    schedule()
