# correct: a component of a local force vector is updated after its constructor, but with += (accumulation), not reassigned with =
"""Moored buoys bobbing in waves: fit the buoy volume and the water drag from
the recorded buoy positions. Each buoy feels quadratic water drag, a mooring
spring and a buoyancy force added to the vertical component.
"""
import numpy as np
import warp as wp

N = 4
STEPS = 80
DT = 0.01
MASS = 20.0


@wp.func
def water_force(x: wp.vec3, v: wp.vec3, t: float, cd: float, volume: float):
    wave_h = 0.1 * wp.sin(1.5 * t - 0.8 * x[0])
    u = wp.vec3(0.2 * wp.cos(1.5 * t - 0.8 * x[0]), 0.0, 0.0)
    rel = u - v
    f = cd * wp.length(rel) * rel
    sub = wp.clamp(0.5 + (wave_h - x[1]) / 0.4, 0.0, 1.0)
    f[1] += 1000.0 * 9.81 * volume * sub
    return f


@wp.kernel
def buoy_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), anchor: wp.array(dtype=wp.vec3),
              params: wp.array(dtype=float), t: float, dt: float,
              x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    f = water_force(x[i], v[i], t, params[0], params[1])
    f = f - 30.0 * (x[i] - anchor[i])
    v1 = v[i] + dt * (f / MASS + wp.vec3(0.0, -9.81, 0.0))
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def track_loss(x: wp.array(dtype=wp.vec3), recorded: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - recorded[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


anchors_np = np.stack([np.arange(N) * 1.5, np.full(N, -0.05), np.zeros(N)], 1).astype(np.float32)
anchor = wp.array(anchors_np, dtype=wp.vec3)
recorded = wp.array(anchors_np + np.array([0.05, 0.04, 0.0], dtype=np.float32), dtype=wp.vec3)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(anchors_np, dtype=wp.vec3, requires_grad=True)
    v = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(STEPS):
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(buoy_step, dim=N, inputs=[x, v, anchor, params, k * DT, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(track_loss, dim=N, inputs=[x, recorded], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([40.0, 0.03])
FD_EPS = [0.05, 1e-4]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("tracking loss", l, "d/d(cd, volume)", g)
