"""Find the initial velocities that make a hanging spring chain swing its tip onto a target."""
import numpy as np
import warp as wp

N = 4
REST = 0.5
STIFF = 100.0
TARGET = wp.vec3(1.2, -1.0, 0.3)


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), rest: wp.float32, k: wp.float32,
              dt: wp.float32, x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    f = wp.vec3(0.0, -9.8, 0.0)
    if i > 0:
        d = x[i] - x[i - 1]
        f = f - k * (wp.length(d) - rest) * wp.normalize(d)
    if i < x.shape[0] - 1:
        d = x[i + 1] - x[i]
        f = f + k * (wp.length(d) - rest) * wp.normalize(d)
    if i == 0:
        f = wp.vec3(0.0, 0.0, 0.0)
    vn = v[i] + dt * f
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def tip_loss(x: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=wp.float32)):
    loss[0] = wp.length_sq(x[x.shape[0] - 1] - target)


def initial_positions():
    return np.array([[0.0, -REST * i, 0.0] for i in range(N)], dtype=np.float32)


def rollout(v0, steps=20, dt=0.02):
    x = wp.array(initial_positions(), dtype=wp.vec3, requires_grad=True)
    v = wp.clone(v0)
    x_next = wp.zeros_like(x)
    v_next = wp.zeros_like(v)
    for _ in range(steps):
        wp.launch(integrate, dim=N, inputs=[x, v, REST, STIFF, dt], outputs=[x_next, v_next])
        wp.copy(x, x_next)  # expect: overwrite
        wp.copy(v, v_next)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(tip_loss, dim=1, inputs=[x, TARGET], outputs=[loss])
    return loss


def optimize(iters=30, lr=0.05):
    v0 = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = rollout(v0)
        tape.backward(loss)
        g = v0.grad.numpy()
        history.append((v0.numpy().copy(), g.copy()))
        v0.assign(v0.numpy() - lr * g)
        tape.zero()
        if it % 10 == 0:
            print(f"iter {it:3d} loss {loss.numpy()[0]:.5f}")
    return history


if __name__ == "__main__":
    optimize()
