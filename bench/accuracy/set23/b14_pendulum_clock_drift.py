"""Longcase pendulum clock: large-amplitude swing with escapement kick and air damping, vec2 state stepped through a ring of buffers."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CLOCK = 8
N_STEP = 14
RING = 3  # expect: ring_buffer
DT = wp.constant(0.1)
rng = np.random.default_rng(24)
AMP0 = rng.uniform(0.15, 0.6, N_CLOCK).astype(np.float32)
PARAMS0 = [9.5, 0.15]  # g/L (1/s^2), damping (1/s)


@wp.kernel
def swing(p: wp.array(dtype=float), s: wp.array(dtype=wp.vec2), s_new: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    th = s[i][0]
    om = s[i][1]
    acc = -p[0] * wp.sin(th) - p[1] * om * wp.abs(om)
    om2 = om + DT * acc
    s_new[i] = wp.vec2(th + DT * om2, om2)


@wp.kernel
def start(amp: wp.array(dtype=float), s: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    s[i] = wp.vec2(amp[i], 0.0)


@wp.kernel
def energy_after(s: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = 0.5 * s[i][1] * s[i][1] + 9.81 * (1.0 - wp.cos(s[i][0]))
    wp.atomic_add(loss, 0, e)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    ring = [wp.zeros(N_CLOCK, dtype=wp.vec2, requires_grad=True) for _ in range(RING)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(start, dim=N_CLOCK, inputs=[wp.array(AMP0, dtype=float)], outputs=[ring[0]])
        for k in range(N_STEP):
            wp.launch(swing, dim=N_CLOCK, inputs=[params, ring[k % RING]], outputs=[ring[(k + 1) % RING]])
        wp.launch(energy_after, dim=N_CLOCK, inputs=[ring[N_STEP % RING]], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(10):
        loss, g = evaluate(p)
        p = p + 0.01 * g / (1.0 + np.linalg.norm(g))
    print("pendulum energy", loss, "params", p)
