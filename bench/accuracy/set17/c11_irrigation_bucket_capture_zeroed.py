# correct: the captured iteration ends with tape.zero(), so every replay starts from a zero parameter gradient
"""Irrigated orchard root-zone bucket model (crop coefficient, drainage rate,
irrigation efficiency) fitted to soil-moisture probes; each descent iteration
(forward, backward, update) is captured once with wp.ScopedCapture and replayed."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N_PLOT = 8
N_DAY = 45
LR = 2.0e-3
rng = np.random.default_rng(11)
ET0 = (4.0 + 1.5 * np.sin(np.arange(N_DAY) / 7.0)).astype(np.float32)
RAIN = (rng.gamma(0.4, 6.0, N_DAY) * (rng.random(N_DAY) < 0.2)).astype(np.float32)
IRR = np.zeros((N_PLOT, N_DAY), dtype=np.float32)
for j in range(N_PLOT):
    IRR[j, (j % 4)::5] = 12.0 + j


@wp.kernel
def bucket_day(p: wp.array(dtype=float), et0: wp.array(dtype=float), rain: wp.array(dtype=float),
               irr: wp.array2d(dtype=float), d: int, moist: wp.array2d(dtype=float)):
    j = wp.tid()
    w = float(120.0)
    if d > 0:
        w = moist[j, d - 1]
    w = w + rain[d] + p[2] * irr[j, d] - p[0] * et0[d] * w / 150.0
    moist[j, d] = w - p[1] * wp.max(w - 140.0, 0.0)


def run_bucket(p, moist):
    for d in range(N_DAY):
        wp.launch(bucket_day, dim=N_PLOT, inputs=[p, ET0_W, RAIN_W, IRR_W, d], outputs=[moist])


@wp.kernel
def probe_misfit(moist: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    j, d = wp.tid()
    r = (moist[j, d] - obs[j, d]) / 10.0
    wp.atomic_add(loss, 0, r * r / float(N_PLOT * N_DAY))


@wp.kernel
def descend(p: wp.array(dtype=float), g: wp.array(dtype=float), scale: wp.array(dtype=float)):
    i = wp.tid()
    p[i] = p[i] - LR * scale[i] * g[i]


ET0_W, RAIN_W, IRR_W = wp.array(ET0, dtype=float), wp.array(RAIN, dtype=float), wp.array(IRR, dtype=float)
SCALE = wp.array([1.0, 0.1, 1.0], dtype=float)


def moisture(p_np):
    m = wp.zeros((N_PLOT, N_DAY), dtype=float)
    run_bucket(wp.array(np.asarray(p_np, dtype=np.float32), dtype=float), m)
    return m.numpy().astype(np.float64)


OBS_NP = moisture([0.85, 0.3, 0.8]) + 0.5 * np.cos(np.arange(N_PLOT * N_DAY)).reshape(N_PLOT, N_DAY)
OBS = wp.array(OBS_NP.astype(np.float32), dtype=float)
P0 = np.array([0.7, 0.25, 0.9], dtype=np.float32)
N_ITER = 4


def objective(p_np):
    r = (moisture(p_np) - OBS_NP) / 10.0
    return float(np.mean(r * r))


def train(n_iter=N_ITER):
    p = wp.array(P0, dtype=float, requires_grad=True)
    moist = wp.zeros((N_PLOT, N_DAY), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    grad_seen = wp.zeros(3, dtype=float)
    p_seen = wp.zeros(3, dtype=float)
    tape = wp.Tape()
    with wp.ScopedCapture() as cap:
        loss.zero_()
        with tape:
            run_bucket(p, moist)
            wp.launch(probe_misfit, dim=(N_PLOT, N_DAY), inputs=[moist, OBS], outputs=[loss])
        tape.backward(loss)
        wp.copy(grad_seen, p.grad)
        wp.copy(p_seen, p)
        wp.launch(descend, dim=3, inputs=[p, p.grad, SCALE])
        tape.zero()
    hist = []
    for it in range(n_iter):
        wp.capture_launch(cap.graph)
        hist.append((p_seen.numpy().astype(np.float64), grad_seen.numpy().astype(np.float64), float(loss.numpy()[0])))
    return hist


def verify():
    p, g, _ = train()[-1]
    fd = np.zeros(3)
    for k in range(3):
        e = np.zeros(3)
        e[k] = 1e-3
        fd[k] = (objective(p + e) - objective(p - e)) / 2e-3
    return g, fd


if __name__ == "__main__":
    for it, (p, g, L) in enumerate(train()):
        print(f"replay {it}: misfit {L:.4f} params {np.round(p, 4)} grad {np.round(g, 4)}")
