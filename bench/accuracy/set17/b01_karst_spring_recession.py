"""Karst spring recession: fit matrix and conduit drainage coefficients and the
conduit activation head of a single-reservoir model to daily spring discharge."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N_SPRING = 6
N_DAY = 40
DT = 0.5


@wp.func
def spring_outflow(h: float, km: float, kc: float, hc: float):
    q = km * h
    if h > hc:
        q = q + kc * (h - hc)
    return q


@wp.func_grad(spring_outflow)
def adj_spring_outflow(h: float, km: float, kc: float, hc: float, adj_ret: float):
    if h > hc:
        wp.adjoint[h] += adj_ret * (km + kc)
        wp.adjoint[km] += adj_ret * h
        wp.adjoint[kc] += adj_ret * (h - hc)
        wp.adjoint[hc] -= adj_ret * kc
    else:
        wp.adjoint[h] += adj_ret * (km + kc)  # expect: custom_adjoint
        wp.adjoint[km] += adj_ret * h


@wp.kernel
def drain_step(p: wp.array(dtype=float), recharge: wp.array2d(dtype=float), day: int,
               h_in: wp.array(dtype=float), h_out: wp.array(dtype=float), q: wp.array2d(dtype=float)):
    s = wp.tid()
    qs = spring_outflow(h_in[s], p[0], p[1], p[2])
    q[s, day] = qs
    h_out[s] = h_in[s] + DT * (recharge[s, day] - qs)


@wp.kernel
def misfit(q: wp.array2d(dtype=float), q_obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    s, d = wp.tid()
    r = q[s, d] - q_obs[s, d]
    wp.atomic_add(loss, 0, r * r / float(N_SPRING * N_DAY))


rng = np.random.default_rng(7)
RECHARGE = wp.array((rng.gamma(0.6, 1.5, (N_SPRING, N_DAY)) * (rng.random((N_SPRING, N_DAY)) < 0.3)).astype(np.float32),
                    dtype=float)
H0 = np.linspace(1.0, 4.0, N_SPRING).astype(np.float32)


def simulate(p_w, requires_grad):
    q = wp.zeros((N_SPRING, N_DAY), dtype=float, requires_grad=requires_grad)
    h = [wp.array(H0, dtype=float, requires_grad=requires_grad)]
    for d in range(N_DAY):
        h.append(wp.zeros(N_SPRING, dtype=float, requires_grad=requires_grad))
        wp.launch(drain_step, dim=N_SPRING, inputs=[p_w, RECHARGE, d, h[d]], outputs=[h[d + 1], q])
    return q


Q_OBS = simulate(wp.array([0.08, 0.35, 2.2], dtype=float), False)
PARAMS0 = np.array([0.06, 0.3, 2.0])
FD_EPS = 1e-3


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        q = simulate(p_w, True)
        wp.launch(misfit, dim=(N_SPRING, N_DAY), inputs=[q, Q_OBS], outputs=[loss])
    tape.backward(loss)
    r = q.numpy().astype(np.float64) - Q_OBS.numpy()
    return float(np.mean(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"spring recession misfit {L:.6f}  grad [km, kc, hc] = {g}")
