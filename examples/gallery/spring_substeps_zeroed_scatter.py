"""Bug: a spring force buffer reused across sub-steps: emptied with zero_() and refilled with atomic_add.
Warp separates the gradients of an array's versions only where a launch assigns it, so each sub-step's
spring adjoint also receives the later sub-steps' gradients (the reader is linear, yet the gradient is wrong)."""
import numpy as np
import warp as wp

N = 6
SUBSTEPS = 12
DT = 0.02


@wp.kernel
def spring_forces(x: wp.array(dtype=wp.vec2), k: wp.array(dtype=float), rest: float,
                  f: wp.array(dtype=wp.vec2)):
    s = wp.tid()  # one thread per spring, scatter into both endpoints
    d = x[s + 1] - x[s]
    L = wp.length(d)
    fs = k[s] * (L - rest) * d / L
    wp.atomic_add(f, s, fs)
    wp.atomic_sub(f, s + 1, fs)


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2),
              inv_mass: wp.array(dtype=float), dt: float,
              x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    vn = v[i] + f[i] * inv_mass[i] * dt + wp.vec2(0.0, -9.8) * dt * wp.where(inv_mass[i] > 0.0, 1.0, 0.0)
    v_out[i] = vn
    x_out[i] = x[i] + vn * dt


@wp.kernel
def tip_loss(x: wp.array(dtype=wp.vec2), target: wp.vec2, loss: wp.array(dtype=float)):
    d = x[N - 1] - target
    loss[0] = wp.dot(d, d)


def evaluate(k_np):
    k = wp.array(k_np, dtype=float, requires_grad=True)
    inv_mass = wp.array([0.0] + [1.0] * (N - 1), dtype=float)
    xs = [wp.array([[0.12 * i, 0.0] for i in range(N)], dtype=wp.vec2, requires_grad=True)]
    vs = [wp.zeros(N, dtype=wp.vec2, requires_grad=True)]
    forces = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(SUBSTEPS):
            forces.zero_()  # expect: TW103
            wp.launch(spring_forces, dim=N - 1, inputs=[xs[-1], k, 0.1], outputs=[forces])
            xs.append(wp.zeros_like(xs[0]))
            vs.append(wp.zeros_like(vs[0]))
            wp.launch(integrate, dim=N, inputs=[xs[-2], vs[-2], forces, inv_mass, DT], outputs=[xs[-1], vs[-1]])
        wp.launch(tip_loss, dim=1, inputs=[xs[-1], wp.vec2(0.5, -0.05)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), k.grad.numpy().copy()


PARAMS0 = np.linspace(8.0, 12.0, N - 1).astype(np.float32)


def main():
    l, g = evaluate(PARAMS0)
    print("loss", l, "dL/dk", g)


if __name__ == "__main__":
    main()
