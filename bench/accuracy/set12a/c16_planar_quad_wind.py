# correct: planar quadrotor gate flight where the record_tape=False launch inside the tape only fills a wind-gust table from constant data; the rotor mixer is taped
import numpy as np
import warp as wp

from _planar_quad import DT, gate_cost, mixer, planar_step

T = 40
GATE = (0.4, 1.3, 0.0)


@wp.kernel
def gust_table(seed: int, gust: wp.array(dtype=wp.vec3)):
    t = wp.tid()
    state = wp.rand_init(seed, t)
    gust[t] = wp.vec3(0.3 * wp.randn(state), 0.1 * wp.randn(state), 0.0)


@wp.kernel
def add_gust(qd: wp.array(dtype=wp.vec3), gust: wp.array(dtype=wp.vec3), t: int, qd_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    qd_out[i] = qd[i] + DT * gust[t]


def fly(rotor):
    q = wp.array([[0.0, 1.0, 0.0]], dtype=wp.vec3, requires_grad=True)
    qd = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    gust = wp.zeros(T, dtype=wp.vec3)
    tape = wp.Tape()
    with tape:
        wp.launch(gust_table, dim=T, inputs=[42], outputs=[gust], record_tape=False)
        for t in range(T):
            wrench = wp.zeros(1, dtype=wp.vec2, requires_grad=True)
            wp.launch(mixer, dim=1, inputs=[rotor, t], outputs=[wrench])
            q_new, qd_new = wp.empty_like(q), wp.empty_like(qd)
            wp.launch(planar_step, dim=1, inputs=[q, qd, wrench], outputs=[q_new, qd_new])
            qd_g = wp.empty_like(qd_new)
            wp.launch(add_gust, dim=1, inputs=[qd_new, gust, t], outputs=[qd_g])
            q, qd = q_new, qd_g
        wp.launch(gate_cost, dim=1, inputs=[q, qd, wp.vec3(*GATE)], outputs=[cost])
    return tape, cost


PARAMS0 = np.array([3.1, 3.0, -0.002])


def evaluate(p):
    prof = np.linspace(0.0, 1.0, T)
    r = np.stack([p[0] + p[2] * 40 * prof, p[1] - p[2] * 40 * prof], axis=1)
    rotor = wp.array(r, dtype=wp.vec2, requires_grad=True)
    tape, cost = fly(rotor)
    tape.backward(cost)
    g = rotor.grad.numpy()
    return float(cost.numpy()[0]), np.array([g[:, 0].sum(), g[:, 1].sum(), 40 * (g[:, 0] * prof - g[:, 1] * prof).sum()])


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("gate cost", loss, "grad", g)
