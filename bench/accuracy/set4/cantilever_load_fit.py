import numpy as np
import warp as wp

N = 10


@wp.kernel
def distributed_load(amp: wp.array(dtype=wp.float32), x: wp.array(dtype=wp.float32), force: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    f = amp[0] * wp.exp(-amp[1] * x[i])
    force[i] = wp.vec2(0.1 * f, -f)


@wp.kernel
def deflection(x: wp.array(dtype=wp.float32), force: wp.array(dtype=wp.vec2), stiffness: wp.float32, disp: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    n = x.shape[0]
    acc = wp.vec2(0.0, 0.0)
    for j in range(n):
        a = wp.min(x[i], x[j])
        g = a * a * (3.0 * x[j] - a) / (6.0 * stiffness)
        acc += force[j] * g
    disp[i] = acc


@wp.kernel
def fit_error(disp: wp.array(dtype=wp.vec2), measured: wp.array(dtype=wp.vec2), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = disp[i] - measured[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def setup():
    x = np.linspace(0.1, 1.0, N).astype(np.float32)
    measured = np.stack([0.002 * x, -0.02 * x**2], axis=1).astype(np.float32)
    return x, measured


def evaluate(amp_np):
    x_np, meas_np = setup()
    x = wp.array(x_np, dtype=wp.float32)
    measured = wp.array(meas_np, dtype=wp.vec2)
    amp = wp.array(amp_np, dtype=wp.float32, requires_grad=True)
    force = wp.zeros(N, dtype=wp.vec2)  # expect: requires_grad
    disp = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(distributed_load, dim=N, inputs=[amp, x], outputs=[force])
        wp.launch(deflection, dim=N, inputs=[x, force, 2.0], outputs=[disp])
        wp.launch(fit_error, dim=N, inputs=[disp, measured], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), amp.grad.numpy().copy()


def main():
    amp = np.array([0.5, 1.0], dtype=np.float32)
    for it in range(5):
        l, g = evaluate(amp)
        print(f"iter {it}: amp={amp} loss={l:.3e} grad={g}")
        amp = (amp - 50.0 * g).astype(np.float32)


if __name__ == "__main__":
    main()
