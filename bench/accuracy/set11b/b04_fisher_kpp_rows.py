"""Fisher-KPP tumour-growth model u_t = D u_xx + r u (1 - u): fit the
diffusivity D and growth rate r to a final density scan. The solver keeps
its time levels as rows of one 2-D array."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 64
STEPS = 30
DX = 1.0 / N
DT = 0.002
PARAMS0 = [0.0015, 3.0]
TRUE_PARAMS = [0.0025, 4.0]
FD_EPS = [1.0e-5, 1.0e-3]


@wp.kernel
def kpp_step(U: wp.array2d(dtype=float), src: int, dst: int, prm: wp.array(dtype=float), dx: float, dt: float):
    i = wp.tid()
    n = U.shape[1]
    u = U[src, i]
    ul = U[src, wp.max(i - 1, 0)]
    ur = U[src, wp.min(i + 1, n - 1)]
    lap = (ul - 2.0 * u + ur) / (dx * dx)
    U[dst, i] = u + dt * (prm[0] * lap + prm[1] * u * (1.0 - u))


@wp.kernel
def scan_loss(U: wp.array2d(dtype=float), row: int, scan: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = U[row, i] - scan[i]
    wp.atomic_add(loss, 0, d * d)


def seed_density():
    x = (np.arange(N) + 0.5) / N
    return (0.6 * np.exp(-((x - 0.3) / 0.07) ** 2) + 0.3 * np.exp(-((x - 0.7) / 0.05) ** 2)).astype(np.float32)


def grow(prm, requires_grad=False):
    U = wp.zeros((STEPS + 1, N), dtype=float, requires_grad=requires_grad)
    wp.copy(U, wp.array(seed_density()[None, :], dtype=float), count=N)
    src = 0
    for _ in range(STEPS):
        dst = 1 - src  # expect: overwrite
        wp.launch(kpp_step, dim=N, inputs=[U, src, dst, prm, DX, DT])
        src = dst
    return U, src


U_TRUE, ROW_TRUE = grow(wp.array(TRUE_PARAMS, dtype=float))
SCAN = U_TRUE.numpy()[ROW_TRUE].copy()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    scan = wp.array(SCAN, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        U, row = grow(prm, requires_grad=True)
        wp.launch(scan_loss, dim=N, inputs=[U, row, scan], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"loss {l:.5f}  dL/dD {g[0]:.4f}  dL/dr {g[1]:.5f}")
