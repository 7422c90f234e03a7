"""Tower crane: fit jib bending compliance and slewing offset to surveyed hook positions under different loads."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_LIFT = 30
rng = np.random.default_rng(151)
RADIUS = rng.uniform(10.0, 50.0, N_LIFT).astype(np.float32)  # trolley radius, m
SLEW = rng.uniform(-1.5, 1.5, N_LIFT).astype(np.float32)  # commanded slew angle, rad
LOAD = rng.uniform(0.5, 6.0, N_LIFT).astype(np.float32)  # tonnes


@wp.func
def hook_position(r: float, slew: float, load: float, compliance: float, offset: float):
    ang = slew + offset
    hook = wp.vec3(r * wp.cos(ang), r * wp.sin(ang), 60.0 - 0.5 * compliance * load)  # mast shortening
    # the jib sags under the load, more at long radius and when it is slewed off its stiff axis
    hook[2] = hook[2] - compliance * load * (r / 50.0) * (r / 50.0) * (1.0 + 0.3 * hook[1] * hook[1] / (r * r))  # expect: component_reassign
    return hook


@wp.kernel
def survey_err(p: wp.array(dtype=float), radius: wp.array(dtype=float), slew: wp.array(dtype=float),
               load: wp.array(dtype=float), obs: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    h = hook_position(radius[i], slew[i], load[i], p[0], 0.01 * p[1])  # offset in centiradians
    d = h - obs[i]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N_LIFT))


def _obs(c=0.35, off=0.04):
    ang = SLEW + off
    x, y = RADIUS * np.cos(ang), RADIUS * np.sin(ang)
    z = 60.0 - 0.5 * c * LOAD - c * LOAD * (RADIUS / 50) ** 2 * (1 + 0.3 * np.sin(ang) ** 2)
    return np.stack([x, y, z], axis=1).astype(np.float32)


OBS = wp.array(_obs(), dtype=wp.vec3)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(survey_err, dim=N_LIFT, inputs=[params, wp.array(RADIUS, dtype=float), wp.array(SLEW, dtype=float),
                                                  wp.array(LOAD, dtype=float), OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [0.2, 0.0]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.02 * g
    print("crane survey loss %.5f params %s" % (l, p))
