"""Tune the spring and damping coefficients of a rope so that its free end,
swung by a moving anchor, ends near a target point."""
import numpy as np
import warp as wp

from _rope_sim import RopeSim


@wp.kernel
def end_point_loss(x: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=float)):
    d = x[x.shape[0] - 1] - target
    loss[0] = wp.dot(d, d)


sim = RopeSim(n=8, seg=0.05, mass=0.02, dt=0.004, substeps=60)
TARGET = wp.vec3(0.3, -0.2, 0.15)
ANCHOR_VEL = wp.vec3(0.4, 0.0, 0.6)


def evaluate(p):
    coeffs = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    sim.reset()
    tape = wp.Tape()
    with tape:
        x_end = sim.simulate(coeffs, ANCHOR_VEL)
        wp.launch(end_point_loss, dim=1, inputs=[x_end, TARGET], outputs=[loss])
    tape.backward(loss)
    g = coeffs.grad.numpy().copy()
    tape.zero()
    return float(loss.numpy()[0]), g


PARAMS0 = np.array([200.0, 0.5])
FD_EPS = [1.0, 0.005]

if __name__ == "__main__":
    p = PARAMS0.copy()
    l, g = evaluate(p)
    print("loss", l, "grad (ke, kd)", g)
