# correct: b05 near-miss: the above-syrup branch adjoint of the quadratic coefficient is the squared Brix excess.
"""Maple sap evaporator: boiling-point elevation vs sugar content (Brix) with a hand-written adjoint, stepped along the pan."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PAN = 12
N_BATCH = 16
BRIX_SYRUP = wp.constant(40.0)
rng = np.random.default_rng(15)
BRIX_IN = rng.uniform(8.0, 30.0, N_BATCH).astype(np.float32)
PARAMS0 = [0.09, 0.016, 1.3]  # linear elevation, quadratic elevation, evaporation per section


@wp.func
def elevation(brix: float, a: float, b: float):
    if brix < BRIX_SYRUP:
        return a * brix
    return a * brix + b * (brix - BRIX_SYRUP) * (brix - BRIX_SYRUP)


@wp.func_grad(elevation)
def adj_elevation(brix: float, a: float, b: float, adj_ret: float):
    if brix < BRIX_SYRUP:
        wp.adjoint[brix] += adj_ret * a
        wp.adjoint[a] += adj_ret * brix
    else:
        wp.adjoint[brix] += adj_ret * (a + 2.0 * b * (brix - BRIX_SYRUP))
        wp.adjoint[a] += adj_ret * brix
        excess = brix - BRIX_SYRUP
        wp.adjoint[b] += adj_ret * excess * excess


@wp.kernel
def pan_section(p: wp.array(dtype=float), brix: wp.array(dtype=float), temp: wp.array(dtype=float),
                brix_out: wp.array(dtype=float)):
    i = wp.tid()
    t = 100.0 + elevation(brix[i], p[0], p[1])
    temp[i] = t
    brix_out[i] = brix[i] * (1.0 + p[2] * 0.01 * (t - 99.0))


@wp.kernel
def target(temp: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = temp[i] - 104.0
    wp.atomic_add(loss, 0, d * d / float(N_BATCH))


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    brix = [wp.array(BRIX_IN, dtype=float, requires_grad=True)]
    temps = []
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(N_PAN):
            temps.append(wp.zeros(N_BATCH, dtype=float, requires_grad=True))
            brix.append(wp.zeros(N_BATCH, dtype=float, requires_grad=True))
            wp.launch(pan_section, dim=N_BATCH, inputs=[params, brix[s]], outputs=[temps[s], brix[s + 1]])
        wp.launch(target, dim=N_BATCH, inputs=[temps[-1]], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = [1e-4, 1e-4, 1e-3]

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(10):
        loss, g = evaluate(p)
        p = p - 1e-4 * g / (1.0 + np.linalg.norm(g))
    print("syrup pan loss", loss, "params", p)
