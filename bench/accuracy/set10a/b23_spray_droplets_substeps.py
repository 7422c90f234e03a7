"""Spray nozzle calibration: droplets leave a nozzle at a common speed in a
fan of directions and decelerate under quadratic drag. Fit the exit speed
and drag coefficient so the droplets' positions after 0.25 s match a
high-speed-camera frame. Each thread integrates one droplet with adaptive
sub-stepping chosen on the host.
"""
import numpy as np
import warp as wp

N_DROPS = 8
N_SUB = 12
T_END = 0.25


@wp.kernel
def fly_droplet(dirs: wp.array(dtype=wp.vec3), params: wp.array(dtype=float), n_sub: int, dt: float,
                x_end: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v = params[0] * dirs[i]
    x = wp.vec3(0.0, 0.0, 0.0)
    c = params[1]
    for s in range(n_sub):  # expect: dynamic_loop
        v = v + dt * (wp.vec3(0.0, -9.81, 0.0) - c * wp.length(v) * v)
        x = x + dt * v
    x_end[i] = x


@wp.kernel
def frame_misfit(x: wp.array(dtype=wp.vec3), observed: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - observed[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


ang = np.linspace(-0.6, 0.6, N_DROPS)
DIRS = np.stack([np.cos(ang), 0.2 * np.ones(N_DROPS), np.sin(ang)], 1)
DIRS = (DIRS / np.linalg.norm(DIRS, axis=1, keepdims=True)).astype(np.float32)
dirs = wp.array(DIRS, dtype=wp.vec3)
observed = wp.array((DIRS * 1.1 + np.array([0.0, -0.2, 0.0])).astype(np.float32), dtype=wp.vec3)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x_end = wp.zeros(N_DROPS, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(fly_droplet, dim=N_DROPS, inputs=[dirs, params, N_SUB, T_END / N_SUB], outputs=[x_end])
        wp.launch(frame_misfit, dim=N_DROPS, inputs=[x_end, observed], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([8.0, 0.6])
FD_EPS = [1e-2, 1e-3]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("frame misfit", l, "d/d(speed, cd)", g)
