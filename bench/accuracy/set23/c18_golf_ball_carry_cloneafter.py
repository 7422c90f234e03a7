# correct: b18 near-miss: the gradient is cloned after tape.backward(), before the tape is zeroed.
"""Golf driver launch fitting: ballistic carry with quadratic drag and spin lift, tuned by a hand-written gradient step kernel."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SHOT = 12
N_STEP = 16
DT = wp.constant(0.35)
rng = np.random.default_rng(28)
SPEED = rng.uniform(55.0, 75.0, N_SHOT).astype(np.float32)
TARGET_CARRY = wp.constant(230.0)
PARAMS0 = [0.2, 0.004]  # launch angle (rad), drag coefficient per m


@wp.kernel
def carry(p: wp.array(dtype=float), speed: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    vx = speed[i] * wp.cos(p[0])
    vy = speed[i] * wp.sin(p[0])
    x = float(0.0)
    for k in range(N_STEP):
        v = wp.sqrt(vx * vx + vy * vy)
        ax = -p[1] * v * vx
        ay = -9.81 + 0.0015 * v * v - p[1] * v * vy
        x = x + DT * vx
        vx = vx + DT * ax
        vy = vy + DT * ay
    e = (x - TARGET_CARRY) / 50.0
    wp.atomic_add(loss, 0, e * e / float(N_SHOT))


@wp.kernel
def step(p: wp.array(dtype=float), g: wp.array(dtype=float), lr: wp.array(dtype=float)):
    i = wp.tid()
    p[i] = p[i] - lr[i] * g[i]


def objective(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float)
    loss = wp.zeros(1, dtype=float)
    wp.launch(carry, dim=N_SHOT, inputs=[params, wp.array(SPEED, dtype=float)], outputs=[loss])
    return float(loss.numpy()[0])


def fit(n_iter, record):
    params = wp.array(np.asarray(PARAMS0, dtype=np.float32), dtype=float, requires_grad=True)
    speed = wp.array(SPEED, dtype=float)
    lr = wp.array([0.002, 1e-6], dtype=float)
    for it in range(n_iter):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(carry, dim=N_SHOT, inputs=[params, speed], outputs=[loss])
        tape.backward(loss)
        g = wp.clone(params.grad)
        record.append((params.numpy().astype(np.float64).copy(), g.numpy().astype(np.float64).copy()))
        wp.launch(step, dim=2, inputs=[params, g, lr])
        tape.zero()
    return float(loss.numpy()[0])


def verify():
    rec = []
    fit(3, rec)
    p, used = rec[-1]
    eps = [1e-3, 1e-5]
    fd = np.zeros(2)
    for k in range(2):
        dp = np.zeros(2)
        dp[k] = eps[k]
        fd[k] = (objective(p + dp) - objective(p - dp)) / (2.0 * eps[k])
    return used, fd


if __name__ == "__main__":
    print("golf carry loss", fit(20, []))
