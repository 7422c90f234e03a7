import numpy as np
import warp as wp

from _planar_quad import gate_cost, mixer, planar_step

T = 40
GATE = (0.4, 1.3, 0.0)


def fly(rotor):
    q = wp.array([[0.0, 1.0, 0.0]], dtype=wp.vec3, requires_grad=True)
    qd = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(T):
            wrench = wp.zeros(1, dtype=wp.vec2, requires_grad=True)
            wp.launch(mixer, dim=1, inputs=[rotor, t], outputs=[wrench], record_tape=False)  # expect: truncation
            q_new, qd_new = wp.empty_like(q), wp.empty_like(qd)
            wp.launch(planar_step, dim=1, inputs=[q, qd, wrench], outputs=[q_new, qd_new])
            q, qd = q_new, qd_new
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
