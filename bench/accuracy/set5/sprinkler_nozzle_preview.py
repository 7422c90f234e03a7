# correct: a debug projection kernel runs between recording and backward, but it writes into its own screen buffer and only reads the taped positions
"""Garden sprinkler design: nozzle velocities that put droplets on flower beds, with an on-screen preview."""
import numpy as np
import warp as wp

import _viewer

NP = 4


@wp.kernel
def ballistic_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), drag: wp.float32, dt: wp.float32,
                   x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vel = v[i]
    a = wp.vec3(0.0, -9.81, 0.0) - drag * wp.length(vel) * vel
    v_out[i] = vel + dt * a
    x_out[i] = x[i] + dt * vel


@wp.kernel
def landing_error(x: wp.array(dtype=wp.vec3), spots: wp.array(dtype=wp.vec3), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = x[i] - spots[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


SPOTS = np.array([[1.0, 0.0, 0.5], [-0.8, 0.2, 1.0], [0.3, 0.1, -1.2], [1.5, -0.3, 0.0]], dtype=np.float32)


def fly(v0, steps=25, dt=0.02):
    xs = [wp.zeros(NP, dtype=wp.vec3, requires_grad=True)]
    vs = [v0]
    for _ in range(steps):
        xs.append(wp.zeros(NP, dtype=wp.vec3, requires_grad=True))
        vs.append(wp.zeros(NP, dtype=wp.vec3, requires_grad=True))
        wp.launch(ballistic_step, dim=NP, inputs=[xs[-2], vs[-2], 0.05, dt], outputs=[xs[-1], vs[-1]])
    return xs[-1]


def error_of(x_final):
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(landing_error, dim=NP, inputs=[x_final, wp.array(SPOTS, dtype=wp.vec3)], outputs=[loss])
    return loss


def aim(iters=30, lr=0.1):
    v0 = wp.array(np.tile(np.array([0.0, 2.0, 0.0], dtype=np.float32), (NP, 1)), dtype=wp.vec3, requires_grad=True)
    screen = wp.zeros(NP, dtype=wp.vec3)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            x_final = fly(v0)
            loss = error_of(x_final)
        pixels = _viewer.project_to_screen(x_final, screen)
        tape.backward(loss)
        g = v0.grad.numpy().copy()
        history.append((v0.numpy().copy(), g))
        v0.assign(v0.numpy() - lr * g)
        tape.zero()
        if it % 10 == 0:
            print(f"iter {it} loss {loss.numpy()[0]:.4f} first droplet on screen {pixels[0]}")
    return history


if __name__ == "__main__":
    aim()
