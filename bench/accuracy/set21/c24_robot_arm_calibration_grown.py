# correct: the thermal growth of link 1 is built into its transform by a helper that scales the x translation, without reassigning a matrix component.
"""Two-link SCARA arm kinematic calibration: homogeneous 3x3 link transforms
from joint encoder angles, with the thermal growth of the first link's
aluminium casting applied along its x axis; link lengths fitted to
laser-tracker positions of the tool point."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_POSE = 14
rng = np.random.default_rng(31)
Q1 = (rng.random(N_POSE) * 2.4 - 1.2).astype(np.float32)
Q2 = (rng.random(N_POSE) * 2.0 - 0.2).astype(np.float32)
GROWTH = 1.35  # x-axis thermal growth of link 1 at operating temperature (scaled for the fit)


@wp.func
def link(q: float, length: float):
    c = wp.cos(q)
    s = wp.sin(q)
    return wp.mat33(c, -s, length * c, s, c, length * s, 0.0, 0.0, 1.0)


@wp.func
def grown_link(q: float, length: float, growth_x: float):
    c = wp.cos(q)
    s = wp.sin(q)
    return wp.mat33(c, -s, growth_x * length * c, s, c, length * s, 0.0, 0.0, 1.0)


@wp.kernel
def tool_point(p: wp.array(dtype=float), q1: wp.array(dtype=float), q2: wp.array(dtype=float),
               tip: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    t1 = grown_link(q1[i], p[0] * 0.4, GROWTH)
    t2 = link(q2[i], p[1] * 0.3)
    h = (t1 * t2) * wp.vec3(0.0, 0.0, 1.0)
    tip[i] = wp.vec2(h[0], h[1])


@wp.kernel
def tracker_misfit(tip: wp.array(dtype=wp.vec2), obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (tip[i] - obs[i]) * 10.0
    wp.atomic_add(loss, 0, wp.dot(d, d))


def _tracker():
    l1, l2 = 0.4 * 1.05, 0.3 * 0.97
    x = l1 * GROWTH * np.cos(Q1) + l2 * np.cos(Q1 + Q2)
    y = l1 * np.sin(Q1) + l2 * np.sin(Q1 + Q2)
    return np.stack([x, y], axis=1).astype(np.float32) + np.float32(0.002)


OBS = _tracker()
PARAMS0 = np.array([1.0, 1.0])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    tip = wp.zeros(N_POSE, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(tool_point, dim=N_POSE, inputs=[params, wp.array(Q1, dtype=float), wp.array(Q2, dtype=float)],
                  outputs=[tip])
        wp.launch(tracker_misfit, dim=N_POSE, inputs=[tip, wp.array(OBS, dtype=wp.vec2)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = evaluate(p)
        p -= 0.002 * g
    print(f"tracker loss {loss:.6f}  l1={0.4 * p[0]:.4f} m  l2={0.3 * p[1]:.4f} m")
