"""Golf drive ballistics: fit drag and lift (Magnus) coefficient models to
launch-monitor carry and apex of six drives (vec3 state, semi-implicit Euler)."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N_BALL = 6
N_STEP = 120
DT = 0.05
RHO_M = 0.0253      # rho * area / (2 m) [1/m]


@wp.kernel
def aero_coeffs(p: wp.array(dtype=float), spin: wp.array(dtype=float), coef: wp.array(dtype=wp.vec2)):
    b = wp.tid()
    coef[b] = wp.vec2(p[0] + p1_spin(p[1], spin[b]), p[2] * spin[b] / (1.0 + spin[b]))


@wp.func
def p1_spin(a: float, s: float):
    return a * s * s


@wp.kernel
def fly(coef: wp.array(dtype=wp.vec2), pos: wp.array2d(dtype=wp.vec3), vel: wp.array2d(dtype=wp.vec3), k: int):
    b = wp.tid()
    v = vel[b, k]
    speed = wp.length(v)
    c = coef[b]
    side = wp.normalize(wp.cross(v, wp.vec3(0.0, 0.0, 1.0)))
    lift_dir = wp.cross(side, v)
    acc = -RHO_M * c[0] * speed * v + RHO_M * c[1] * lift_dir + wp.vec3(0.0, 0.0, -9.81)
    vn = v + DT * acc
    vel[b, k + 1] = vn
    pos[b, k + 1] = pos[b, k] + DT * vn


@wp.kernel
def flight_stats(pos: wp.array2d(dtype=wp.vec3), obs: wp.array2d(dtype=float), stats: wp.array2d(dtype=float)):
    b = wp.tid()
    apex = float(0.0)
    for k in range(N_STEP + 1):
        apex = wp.max(apex, pos[b, k][2])
    stats[b, 0] = pos[b, 60][0] - obs[b, 0]
    stats[b, 1] = apex - obs[b, 1]


SPIN = np.array([0.18, 0.22, 0.25, 0.28, 0.31, 0.35], dtype=np.float32)   # spin parameter
V0 = np.array([[66.0 * np.cos(a), 0.0, 66.0 * np.sin(a)] for a in np.radians([9, 10.5, 11, 12, 13.5, 14])], dtype=np.float32)
SPIN_W = wp.array(SPIN, dtype=float)


def simulate(p_w, requires_grad, obs):
    coef = wp.zeros(N_BALL, dtype=wp.vec2, requires_grad=requires_grad)
    wp.launch(aero_coeffs, dim=N_BALL, inputs=[p_w, SPIN_W], outputs=[coef])
    coef_log = wp.array(coef.numpy(), dtype=wp.vec2, requires_grad=requires_grad)  # expect: truncation
    pos = wp.zeros((N_BALL, N_STEP + 1), dtype=wp.vec3, requires_grad=requires_grad)
    vel = wp.zeros((N_BALL, N_STEP + 1), dtype=wp.vec3, requires_grad=requires_grad)
    vel.assign(np.repeat(V0[:, None, :], N_STEP + 1, axis=1))
    for k in range(N_STEP):
        wp.launch(fly, dim=N_BALL, inputs=[coef_log, pos, vel, k])
    stats = wp.zeros((N_BALL, 2), dtype=float, requires_grad=requires_grad)
    wp.launch(flight_stats, dim=N_BALL, inputs=[pos, obs], outputs=[stats])
    return stats


_zero = wp.zeros((N_BALL, 2), dtype=float)
TRUTH = simulate(wp.array([0.21, 0.9, 0.32], dtype=float), False, _zero).numpy().astype(np.float64)
OBS_NP = TRUTH + np.array([[0.8, -0.3], [-0.5, 0.2], [0.3, 0.4], [-0.9, -0.2], [0.6, 0.1], [-0.2, 0.3]])
OBS = wp.array(OBS_NP.astype(np.float32), dtype=float)
PARAMS0 = np.array([0.24, 0.7, 0.28])
FD_EPS = 1e-3


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        stats = simulate(p_w, True, OBS)
    st = stats.numpy().astype(np.float64)
    loss = float(np.sum(st**2))
    tape.backward(grads={stats: wp.array((2.0 * st).astype(np.float32), dtype=float)})
    return loss, p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"carry/apex misfit {L:.4f} m^2; grad [cd0, cd_spin, cl] = {g}")
