# correct: a force buffer is zero_()-ed and refilled every substep inside the tape, but it is filled by assignment and only read linearly
"""Swarm of soft particles pulled towards a goal and repelling each other;
fit the attraction / repulsion gains so the swarm centroid lands on a goal.
"""
import numpy as np
import warp as wp

N_PART = 6
DT = 0.01
STEPS = 30
GOAL = wp.constant(wp.vec3(1.0, 0.5, 0.0))


@wp.kernel
def swarm_forces(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), gains: wp.array(dtype=float),
                 f: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    xi = x[i]
    fi = gains[0] * (GOAL - xi) - 0.5 * v[i]
    for j in range(N_PART):
        if j != i:
            d = xi - x[j]
            r2 = wp.dot(d, d) + 0.01
            fi = fi + gains[1] * d / (r2 * wp.sqrt(r2))
    f[i] = fi


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3),
              inv_mass: wp.array(dtype=float), dt: float,
              x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v1 = v[i] + f[i] * inv_mass[i] * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def centroid_loss(x: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - GOAL
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N_PART))


rng = np.random.default_rng(3)
X0 = rng.uniform(-0.3, 0.3, size=(N_PART, 3)).astype(np.float32)
INV_MASS = wp.array(np.full(N_PART, 2.0, dtype=np.float32), dtype=float)


def evaluate(p):
    gains = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    xs = [wp.array(X0, dtype=wp.vec3, requires_grad=True)]
    vs = [wp.zeros(N_PART, dtype=wp.vec3, requires_grad=True)]
    forces = wp.zeros(N_PART, dtype=wp.vec3, requires_grad=True)  # scratch, reused every substep
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(STEPS):
            forces.zero_()
            wp.launch(swarm_forces, dim=N_PART, inputs=[xs[s], vs[s], gains], outputs=[forces])
            xs.append(wp.empty_like(xs[s]))
            vs.append(wp.empty_like(vs[s]))
            wp.launch(integrate, dim=N_PART, inputs=[xs[s], vs[s], forces, INV_MASS, DT], outputs=[xs[-1], vs[-1]])
        wp.launch(centroid_loss, dim=N_PART, inputs=[xs[-1]], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), gains.grad.numpy().copy()


PARAMS0 = np.array([3.0, 0.02])
FD_EPS = [0.01, 0.001]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("loss", l, "grad", g)
