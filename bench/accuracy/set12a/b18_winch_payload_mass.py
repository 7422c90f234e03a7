import numpy as np
import warp as wp

DT = wp.constant(0.01)
STEPS = 60
K_ROPE = wp.constant(800.0)
C_ROPE = wp.constant(6.0)


@wp.func
def rope_tension(z_hook: float, z_load: float, v_load: float, rest: float):
    stretch = z_hook - z_load - rest
    s = wp.log(1.0 + wp.exp(50.0 * stretch)) / 50.0
    return K_ROPE * s - C_ROPE * v_load * wp.tanh(50.0 * s)


@wp.kernel
def payload_accel(z: wp.array(dtype=wp.vec2), t: int, mass: wp.array(dtype=float), acc: wp.array(dtype=float)):
    i = wp.tid()
    hook = 2.0 + 0.4 * float(t) * DT
    s = z[i]
    acc[i] = rope_tension(hook, s[0], s[1], 1.0 + 0.1 * float(i)) - 9.81 * mass[0]
    acc[i] /= mass[0]  # expect: inplace_op


@wp.kernel
def integrate(z: wp.array(dtype=wp.vec2), acc: wp.array(dtype=float), z_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v = z[i][1] + DT * acc[i]
    z_out[i] = wp.vec2(z[i][0] + DT * v, v)


@wp.kernel
def log_fit(z: wp.array(dtype=wp.vec2), ref: wp.array(dtype=float), err: wp.array(dtype=float)):
    i = wp.tid()
    d = z[i][0] - ref[i]
    wp.atomic_add(err, 0, d * d)


def run(mass, ref=None):
    z = wp.array([[0.98, 0.0], [0.88, 0.0], [0.78, 0.0]], dtype=wp.vec2, requires_grad=True)
    err = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            acc = wp.zeros(3, dtype=float, requires_grad=True)
            wp.launch(payload_accel, dim=3, inputs=[z, t, mass], outputs=[acc])
            z_new = wp.empty_like(z)
            wp.launch(integrate, dim=3, inputs=[z, acc], outputs=[z_new])
            z = z_new
            if ref is not None and t % 15 == 14:
                wp.launch(log_fit, dim=3, inputs=[z, ref[t // 15]], outputs=[err])
    return tape, err, z


PARAMS0 = np.array([2.0])


def evaluate(p):
    true_mass = wp.array([2.5], dtype=float)
    ref = []
    z_hist = wp.array([[0.98, 0.0], [0.88, 0.0], [0.78, 0.0]], dtype=wp.vec2)
    for t in range(STEPS):
        acc = wp.zeros(3, dtype=float)
        wp.launch(payload_accel, dim=3, inputs=[z_hist, t, true_mass], outputs=[acc])
        z_next = wp.empty_like(z_hist)
        wp.launch(integrate, dim=3, inputs=[z_hist, acc], outputs=[z_next])
        z_hist = z_next
        if t % 15 == 14:
            ref.append(wp.array(z_hist.numpy()[:, 0], dtype=float))
    mass = wp.array(p, dtype=float, requires_grad=True)
    tape, err, _ = run(mass, ref)
    tape.backward(err)
    return float(err.numpy()[0]), mass.grad.numpy().copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("winch fit error", loss, "d/d mass", g)
