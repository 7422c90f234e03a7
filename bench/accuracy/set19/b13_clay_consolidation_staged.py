"""Staged embankment on soft clay: Terzaghi 1D consolidation, explicit FD.

Excess pore pressure u(z, t) in a doubly drained 8 m clay layer obeys
u_t = c_v u_zz. The first lift is applied at t = 0 and a second lift after
N1 steps. Settlement s = m_v H (sigma - mean u) is read at settlement plates
after each stage; c_v and m_v are back-analysed from the plate readings.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

NZ = 17
DZ = 0.5  # m
DT = 0.01  # yr
N1, N2 = 25, 25
LIFT1, LIFT2 = 40.0, 30.0  # kPa
PLATES = np.array([0.061, 0.118])  # m, end of each stage


@wp.kernel
def diffuse(par: wp.array(dtype=float), u: wp.array(dtype=float), u_next: wp.array(dtype=float)):
    k = wp.tid()
    if k == 0 or k == NZ - 1:
        u_next[k] = 0.0
    else:
        r = par[0] * DT / (DZ * DZ)
        u_next[k] = u[k] + r * (u[k - 1] - 2.0 * u[k] + u[k + 1])


@wp.kernel
def add_lift(u: wp.array(dtype=float), lift: float, u_next: wp.array(dtype=float)):
    k = wp.tid()
    u_next[k] = u[k] + wp.where(k == 0 or k == NZ - 1, 0.0, lift)


@wp.kernel
def plate_settlement(par: wp.array(dtype=float), u: wp.array(dtype=float), sigma: float,
                     settle: wp.array(dtype=float)):
    k = wp.tid()
    # settlement = m_v * H * (sigma - mean u); each node contributes its share
    s_k = par[1] * 1.0e-4 * DZ * float(NZ - 1) * (sigma - u[k]) / float(NZ)
    wp.atomic_add(settle, 0, s_k)


def run(p):
    par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    u = wp.zeros(NZ, dtype=float, requires_grad=True)
    s1 = wp.zeros(1, dtype=float, requires_grad=True)
    s2 = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        u0 = wp.zeros(NZ, dtype=float, requires_grad=True)
        wp.launch(add_lift, dim=NZ, inputs=[u, LIFT1], outputs=[u0])
        u = u0
        for step in range(N1):
            u_next = wp.zeros(NZ, dtype=float, requires_grad=True)
            wp.launch(diffuse, dim=NZ, inputs=[par, u], outputs=[u_next])
            u = u_next
        u_mid = wp.array(u.numpy(), dtype=float, requires_grad=True)  # expect: truncation
        wp.launch(plate_settlement, dim=NZ, inputs=[par, u_mid, LIFT1], outputs=[s1])
        u = wp.zeros(NZ, dtype=float, requires_grad=True)
        wp.launch(add_lift, dim=NZ, inputs=[u_mid, LIFT2], outputs=[u])
        for step in range(N2):
            u_next = wp.zeros(NZ, dtype=float, requires_grad=True)
            wp.launch(diffuse, dim=NZ, inputs=[par, u], outputs=[u_next])
            u = u_next
        wp.launch(plate_settlement, dim=NZ, inputs=[par, u, LIFT1 + LIFT2], outputs=[s2])
    return tape, par, s1, s2


def evaluate(p):
    tape, par, s1, s2 = run(p)
    settle = np.array([s1.numpy()[0], s2.numpy()[0]], dtype=np.float64)
    r = settle - PLATES
    loss = 1.0e4 * np.sum(r**2)
    tape.backward(grads={s1: wp.array([2.0e4 * r[0]], dtype=float), s2: wp.array([2.0e4 * r[1]], dtype=float)})
    return loss, par.grad.numpy().copy()


PARAMS0 = [1.5, 2.5]  # c_v (m^2/yr), m_v (1e-4 1/kPa)
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print(f"plate misfit {l:.5f}  d/dc_v {g[0]:.5f}  d/dm_v {g[1]:.5f}")
