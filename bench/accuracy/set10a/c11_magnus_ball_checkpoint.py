# correct: a checkpointed two-segment rollout where every state of the segment boundary (x and v) is seeded, and tape2.zero() comes only after tape1.backward()
"""Free kick: find the spin and launch speed of a ball (Magnus lift +
quadratic drag) so it reaches the top corner. The flight is differentiated in
two checkpointed segments to bound memory (recompute-forward pattern).
"""
import numpy as np
import warp as wp

DT = 0.01
SEG = 40
DIR = wp.constant(wp.vec3(0.94, 0.2, -0.27))


@wp.kernel
def kick(params: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    v[0] = params[1] * DIR


@wp.kernel
def flight(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), params: wp.array(dtype=float), dt: float,
           x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    vel = v[0]
    spin = wp.vec3(0.0, params[0], 0.0)
    a = 0.004 * wp.cross(spin, vel) - 0.012 * wp.length(vel) * vel + wp.vec3(0.0, -9.81, 0.0)
    v1 = vel + dt * a
    v_out[0] = v1
    x_out[0] = x[0] + dt * v1


@wp.kernel
def corner_loss(x: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=float)):
    d = x[0] - target
    loss[0] = wp.dot(d, d)


def segment(x, v, params):
    for _ in range(SEG):
        x1, v1 = wp.empty_like(x), wp.empty_like(v)
        wp.launch(flight, dim=1, inputs=[x, v, params, DT], outputs=[x1, v1])
        x, v = x1, v1
    return x, v


TARGET = wp.vec3(18.0, 2.2, -3.0)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)

    def start():
        x0 = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
        v0 = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
        wp.launch(kick, dim=1, inputs=[params], outputs=[v0])
        return x0, v0

    # forward pass without a tape, keep the checkpoint
    x_ck, v_ck = segment(*start(), params)

    # segment 2 from the checkpoint
    x_cp = wp.clone(x_ck, requires_grad=True)
    v_cp = wp.clone(v_ck, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape2 = wp.Tape()
    with tape2:
        x_end, _ = segment(x_cp, v_cp, params)
        wp.launch(corner_loss, dim=1, inputs=[x_end, TARGET], outputs=[loss])
    tape2.backward(loss)

    # segment 1 recomputed on its own tape, seeded with both boundary adjoints
    tape1 = wp.Tape()
    with tape1:
        x_mid, v_mid = segment(*start(), params)
    tape1.backward(grads={x_mid: x_cp.grad, v_mid: v_cp.grad})
    g = params.grad.numpy().copy()
    tape2.zero()
    tape1.zero()
    return float(loss.numpy()[0]), g


PARAMS0 = np.array([20.0, 25.0])
FD_EPS = 1e-2

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("corner miss", l, "d/d(spin, speed)", g)
