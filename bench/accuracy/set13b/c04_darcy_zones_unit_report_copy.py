# correct: Darcy zone-conductivity inversion whose m/day report multiplies into a new NumPy array
"""Hydraulic conductivity of four aquifer zones from observation-well heads.

Steady 2-D Darcy flow between a fixed-head river (left, h = 1) and a drain
(right, h = 0) with a pumping well; the head equation div(K grad h) = q is
relaxed with Jacobi sweeps on a 16 x 16 grid. K = exp(m) per zone, in m/s.
"""
import numpy as np
import warp as wp

NX = NY = 16
SWEEPS = 120
WELLS = np.array([[4, 4], [4, 11], [11, 4], [11, 11], [8, 8]], dtype=np.int32)
PUMP = (10, 7)
SECONDS_PER_DAY = 86400.0


@wp.kernel
def zone_conductivity(m: wp.array(dtype=float), K: wp.array2d(dtype=float)):
    i, j = wp.tid()
    z = 2 * (i // (NX // 2)) + j // (NY // 2)
    K[i, j] = wp.exp(m[z])


@wp.func
def face_t(ka: float, kb: float):
    return 2.0 * ka * kb / (ka + kb)


@wp.kernel
def jacobi_sweep(h: wp.array2d(dtype=float), K: wp.array2d(dtype=float), pi: int, pj: int, pump: float,
                 h_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == 0:
        h_out[i, j] = 1.0
        return
    if i == NX - 1:
        h_out[i, j] = 0.0
        return
    k = K[i, j]
    tw = face_t(k, K[i - 1, j])
    te = face_t(k, K[i + 1, j])
    num = tw * h[i - 1, j] + te * h[i + 1, j]
    den = tw + te
    if j > 0:
        ts = face_t(k, K[i, j - 1])
        num += ts * h[i, j - 1]
        den += ts
    if j < NY - 1:
        tn = face_t(k, K[i, j + 1])
        num += tn * h[i, j + 1]
        den += tn
    if i == pi and j == pj:
        num -= pump
    h_out[i, j] = num / den


@wp.kernel
def head_misfit(h: wp.array2d(dtype=float), wells: wp.array2d(dtype=wp.int32), obs: wp.array(dtype=float),
                loss: wp.array(dtype=float)):
    w = wp.tid()
    d = h[wells[w, 0], wells[w, 1]] - obs[w]
    wp.atomic_add(loss, 0, d * d)


WELL_IDX = wp.array(WELLS, dtype=wp.int32)


def solve_heads(m):
    K = wp.zeros((NX, NY), dtype=float, requires_grad=True)
    wp.launch(zone_conductivity, dim=(NX, NY), inputs=[m], outputs=[K])
    h = wp.zeros((NX, NY), dtype=float, requires_grad=True)
    for _ in range(SWEEPS):
        h_new = wp.zeros_like(h)
        wp.launch(jacobi_sweep, dim=(NX, NY), inputs=[h, K, PUMP[0], PUMP[1], 0.3], outputs=[h_new])
        h = h_new
    return K, h


def observed():
    _, h = solve_heads(wp.array([0.4, -0.3, 0.1, -0.6], dtype=float))
    hn = h.numpy()
    return wp.array(np.array([hn[i, j] for i, j in WELLS]), dtype=float)


OBS = observed()
PARAMS0 = [0.0, 0.0, 0.0, 0.0]
FD_EPS = 1e-2


def evaluate(p, report=False):
    m = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        K, h = solve_heads(m)
        wp.launch(head_misfit, dim=len(WELLS), inputs=[h, WELL_IDX, OBS], outputs=[loss])
    # conductivity map in m/day for the run log
    k_day = K.numpy()
    k_day = k_day * SECONDS_PER_DAY
    if report:
        print(f"  K range {k_day.min():.3e} .. {k_day.max():.3e} m/day")
    tape.backward(loss)
    return float(loss.numpy()[0]), m.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        f, g = evaluate(p, report=True)
        print(f"iter {it}: head misfit {f:.4e}  dL/dm {g}")
        p = p - 2.0 * g
