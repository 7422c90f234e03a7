# correct: ping-pong buffers A->B->A inside one tape, but the explicit diffusion step is linear with constant coefficients, so its adjoint never reads the overwritten values
"""Recover the initial temperature profile of a rod (constant conductivity) from a late snapshot."""
import numpy as np
import warp as wp

NX = 8


@wp.kernel
def diffuse(u: wp.array(dtype=wp.float32), alpha: wp.float32, u_out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    n = u.shape[0]
    ul = u[wp.max(i - 1, 0)]
    ur = u[wp.min(i + 1, n - 1)]
    u_out[i] = u[i] + alpha * (ul - 2.0 * u[i] + ur)


@wp.kernel
def misfit(u: wp.array(dtype=wp.float32), obs: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    r = u[i] - obs[i]
    wp.atomic_add(loss, 0, r * r * r * r + r * r)


class Rod:
    def __init__(self, steps=12, alpha=0.2):
        self.steps = steps
        self.alpha = alpha
        xs = np.linspace(0.0, 1.0, NX)
        self.obs = wp.array((0.6 + 0.3 * np.sin(3.0 * xs)).astype(np.float32), dtype=wp.float32)

    def loss(self, u0):
        u_a = wp.clone(u0)
        u_b = wp.zeros_like(u0)
        for _ in range(self.steps):
            wp.launch(diffuse, dim=NX, inputs=[u_a, self.alpha], outputs=[u_b])
            u_a, u_b = u_b, u_a
        loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        wp.launch(misfit, dim=NX, inputs=[u_a, self.obs], outputs=[loss])
        return loss


def fit(iters=40, lr=0.2):
    rod = Rod()
    u0 = wp.array(np.linspace(0.2, 0.9, NX).astype(np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = rod.loss(u0)
        tape.backward(loss)
        g = u0.grad.numpy().copy()
        history.append((u0.numpy().copy(), g))
        u0.assign(u0.numpy() - lr * g)
        tape.zero()
    print("final misfit", loss.numpy()[0])
    return history


if __name__ == "__main__":
    fit()
