"""Trampoline bed: a gymnast's landing on a ring of radial springs (vec2
state: bed deflection, velocity), semi-implicit Euler steps; spring-rate scale
and bed damping fitted to a force-plate deflection trace."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SPRING = 8
N_STEP = 40
DT = 0.01
MASS = 60.0
K_SPRING = np.linspace(0.9, 1.2, N_SPRING).astype(np.float32)   # relative spring rates
COLD_FACTOR = np.float32(1.15)  # springs stiffen in the cold hall


@wp.kernel
def bed_step(p: wp.array(dtype=float), k_spring: wp.array(dtype=float), s: wp.array(dtype=wp.vec2),
             s_new: wp.array(dtype=wp.vec2), trace: wp.array(dtype=float), n: int):
    x = s[0][0]
    v = s[0][1]
    k_tot = float(0.0)
    for j in range(N_SPRING):
        k_tot += k_spring[j] * p[0] * 2000.0
    force = -k_tot * x * (1.0 + 20.0 * x * x) - p[1] * 300.0 * v - MASS * 9.81
    v_new = v + DT * force / MASS
    x_new = x + DT * v_new
    s_new[0] = wp.vec2(x_new, v_new)
    trace[n] = x_new


@wp.kernel
def trace_misfit(trace: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (trace[i] - obs[i]) * 10.0
    wp.atomic_add(loss, 0, d * d)


def bounce(params, k_spring, trace):
    states = [wp.array([wp.vec2(0.0, -6.0)], dtype=wp.vec2, requires_grad=True)]
    for n in range(N_STEP):
        states.append(wp.zeros(1, dtype=wp.vec2, requires_grad=True))
        wp.launch(bed_step, dim=1, inputs=[params, k_spring, states[n]], outputs=[states[n + 1], trace, n])
    return trace


OBS = bounce(wp.array([1.1, 0.7], dtype=float), wp.array(K_SPRING, dtype=float), wp.zeros(N_STEP, dtype=float)).numpy().copy()
PARAMS0 = np.array([0.9, 1.0])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    k_spring = wp.array(K_SPRING, dtype=float)
    trace = wp.zeros(N_STEP, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        bounce(params, k_spring, trace)
        wp.launch(trace_misfit, dim=N_STEP, inputs=[trace, wp.array(OBS, dtype=float)], outputs=[loss])
    value = float(loss.numpy()[0])
    k_view = k_spring.numpy()
    k_view *= COLD_FACTOR  # expect: host_mutation
    tape.backward(loss)
    return value, params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.002 * g / (1.0 + np.linalg.norm(g) * 0.01)
    print(f"deflection loss {loss:.5f}  spring scale={p[0]:.3f}  damping={p[1]:.3f}")
