# correct: the gradient snapshot that feeds the momentum update is cloned after tape.backward().
"""Ski jumping: fit lift and drag coefficients of the V-style flight phase to hill distances, with a hand-written momentum update."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_JUMP = 32
N_SUB = 10
DT = 0.3
LR = 2e-5
BETA = 0.8
rng = np.random.default_rng(91)
V0 = rng.uniform(24.0, 27.0, N_JUMP).astype(np.float32)
ANGLE = rng.uniform(-0.25, -0.15, N_JUMP).astype(np.float32)


@wp.kernel
def flight(p: wp.array(dtype=float), v0: wp.array(dtype=float), ang: wp.array(dtype=float),
           dist: wp.array(dtype=float)):
    i = wp.tid()
    vel = wp.vec2(v0[i] * wp.cos(ang[i]), v0[i] * wp.sin(ang[i]))
    pos = wp.vec2(0.0, 0.0)
    for k in range(N_SUB):
        speed = wp.length(vel)
        lift = wp.vec2(-vel[1], vel[0]) * (p[0] * 0.001 * speed)
        drag = vel * (-p[1] * 0.001 * speed)
        vel = vel + (lift + drag + wp.vec2(0.0, -9.81)) * DT
        pos = pos + vel * DT
    dist[i] = pos[0]


@wp.kernel
def dist_err(dist: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = dist[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_JUMP))


@wp.kernel
def momentum_update(p: wp.array(dtype=float), g: wp.array(dtype=float), vel: wp.array(dtype=float)):
    i = wp.tid()
    vel[i] = BETA * vel[i] + g[i]
    p[i] = p[i] - LR * vel[i]


def forward(params, obs):
    dist = wp.zeros(N_JUMP, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(flight, dim=N_JUMP, inputs=[params, wp.array(V0, dtype=float), wp.array(ANGLE, dtype=float)], outputs=[dist])
    wp.launch(dist_err, dim=N_JUMP, inputs=[dist, obs], outputs=[loss])
    return loss


def _obs():
    params = wp.array([9.0, 4.0], dtype=float)
    dist = wp.zeros(N_JUMP, dtype=float)
    wp.launch(flight, dim=N_JUMP, inputs=[params, wp.array(V0, dtype=float), wp.array(ANGLE, dtype=float)], outputs=[dist])
    return dist


OBS = _obs()
PARAMS0 = [6.0, 5.0]


def fit(n_iter, trace=None):
    params = wp.array(np.array(PARAMS0, np.float32), dtype=float, requires_grad=True)
    vel = wp.zeros(2, dtype=float)
    for it in range(n_iter):
        tape = wp.Tape()
        with tape:
            loss = forward(params, OBS)
        tape.backward(loss)
        g = wp.clone(params.grad)  # snapshot of this iteration's gradient, taken after backward
        if trace is not None:
            trace.append((params.numpy().astype(np.float64), g.numpy().astype(np.float64)))
        wp.launch(momentum_update, dim=2, inputs=[params, g, vel])
        tape.zero()
    return params, float(loss.numpy()[0])


def loss_at(p):
    return float(forward(wp.array(np.asarray(p, np.float32), dtype=float), OBS).numpy()[0])


def verify():
    trace = []
    fit(3, trace)
    p, g = trace[-1]
    eps = 1e-2
    fd = [(loss_at(p + eps * e) - loss_at(p - eps * e)) / (2 * eps) for e in np.eye(2)]
    return g, np.array(fd)


if __name__ == "__main__":
    params, l = fit(20)
    print("ski jump distance loss %.4f params %s" % (l, params.numpy()))
