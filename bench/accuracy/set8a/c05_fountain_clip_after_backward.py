# correct: the frame is clamped in place through the NumPy view only after backward() has run
"""Water-drop fountain: estimate the drag coefficient and a horizontal wind from where
six drops land. Frames are kept for a quick plot of the spray inside the viewing box."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N_DROPS = 6
STEPS = 80
DT = 0.01
BOX_LO = np.array([-0.5, 0.0, -0.5])
BOX_HI = np.array([0.5, 2.0, 0.5])


@wp.kernel
def drop_step(x: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.vec3d), params: wp.array(dtype=wp.float64),
              dt: wp.float64, x_out: wp.array(dtype=wp.vec3d), v_out: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    wind = wp.vec3d(params[1], wp.float64(0.0), wp.float64(0.0))
    rel = v[i] - wind
    a = wp.vec3d(wp.float64(0.0), wp.float64(-9.81), wp.float64(0.0)) - params[0] * wp.length(rel) * rel
    vn = v[i] + dt * a
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def landing_misfit(x: wp.array(dtype=wp.vec3d), seen: wp.array(dtype=wp.vec3d), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    d = x[i] - seen[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def initial_state():
    ang = np.linspace(0.0, 2.0 * np.pi, N_DROPS, endpoint=False)
    v0 = np.stack([0.9 * np.cos(ang), 3.2 * np.ones(N_DROPS), 0.9 * np.sin(ang)], axis=1)
    return np.zeros((N_DROPS, 3)), v0


SEEN = np.array([[1.10, -0.40, 0.05], [0.62, -0.40, 0.62], [-0.25, -0.40, 0.65],
                 [-0.60, -0.40, 0.02], [-0.22, -0.40, -0.63], [0.60, -0.40, -0.62]])


def fit_step(p, frames=None):
    params = wp.array(p, dtype=wp.float64, requires_grad=True)
    x0, v0 = initial_state()
    xs = [wp.array(x0, dtype=wp.vec3d, requires_grad=True)]
    vs = [wp.array(v0, dtype=wp.vec3d, requires_grad=True)]
    for _ in range(STEPS):
        xs.append(wp.zeros(N_DROPS, dtype=wp.vec3d, requires_grad=True))
        vs.append(wp.zeros(N_DROPS, dtype=wp.vec3d, requires_grad=True))
    seen = wp.array(SEEN, dtype=wp.vec3d)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(STEPS):
            wp.launch(drop_step, dim=N_DROPS, inputs=[xs[k], vs[k], params, wp.float64(DT)],
                      outputs=[xs[k + 1], vs[k + 1]])
        wp.launch(landing_misfit, dim=N_DROPS, inputs=[xs[-1], seen], outputs=[loss])

    tape.backward(loss)

    final = xs[-1].numpy()
    np.clip(final, BOX_LO, BOX_HI, out=final)
    if frames is not None:
        frames.append(final)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([0.12, 0.6])
FD_EPS = 1e-6


def evaluate(p):
    return fit_step(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    frames = []
    for it in range(6):
        l, g = fit_step(p, frames)
        p = p - 0.05 * g
        print(f"iter {it}: misfit {l:.5f}  drag={p[0]:.4f} wind={p[1]:.4f}")
    print("frames kept:", len(frames))
