"""Gymnastics vault: post-flight centre-of-mass position (vec3) from take-off speed, block angle and arm push, landing distance fitted."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_VAULT = 16
rng = np.random.default_rng(34)
RUN_V = rng.uniform(7.0, 9.0, N_VAULT).astype(np.float32)   # run-up speed m/s
FLIGHT_T = rng.uniform(0.8, 1.1, N_VAULT).astype(np.float32)
LAND = (0.55 * RUN_V * FLIGHT_T).astype(np.float32)
PARAMS0 = [0.5, 0.3]  # horizontal speed retention, block push (m/s)


@wp.kernel
def flight(p: wp.array(dtype=float), run_v: wp.array(dtype=float), t: wp.array(dtype=float),
           com: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vx = p[0] * run_v[i]
    vz = 3.0 + p[1] * run_v[i] * 0.2
    pos = wp.vec3(vx * t[i], 0.0, 1.2 + vz * t[i] - 4.905 * t[i] * t[i])
    pos[0] = pos[0] + p[1] * 0.4 * t[i] * vz  # expect: component_reassign
    com[i] = pos


@wp.kernel
def landing(com: wp.array(dtype=wp.vec3), land: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = com[i][0] - land[i] + 0.1 * com[i][2]
    wp.atomic_add(loss, 0, e * e / float(N_VAULT))


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    com = wp.zeros(N_VAULT, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(flight, dim=N_VAULT, inputs=[params, wp.array(RUN_V, dtype=float), wp.array(FLIGHT_T, dtype=float)],
                  outputs=[com])
        wp.launch(landing, dim=N_VAULT, inputs=[com, wp.array(LAND, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.01 * g / (1.0 + np.linalg.norm(g))
    print("vault loss", loss, "params", p)
