"""A neural field t -> (u, v, w) for three species concentrations, written
with wp.mat33/wp.vec3. The first species starts at zero, which the network
enforces exactly by multiplying its output by t (a hard initial condition)."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 40
TS = np.linspace(0.0, 2.0, N).astype(np.float32)
TARGET = np.stack([np.sin(1.3 * TS) * TS * 0.5, np.exp(-TS), 0.3 + 0.2 * np.cos(2.0 * TS)], axis=1).astype(np.float32)
W1 = np.array([[0.8, -0.5, 0.3], [0.2, 0.9, -0.4], [-0.6, 0.1, 0.7]], dtype=np.float32)
B1 = np.array([0.1, -0.2, 0.05], dtype=np.float32)
PARAMS0 = [0.5, -0.3, 0.2, 0.1, 0.6, -0.2, -0.4, 0.2, 0.3]   # output layer W2, row-major


@wp.func
def features(t: float):
    return wp.vec3(t, wp.sin(3.14159 * t), wp.cos(3.14159 * t))


@wp.kernel
def field(ts: wp.array(dtype=float), w1: wp.mat33, b1: wp.vec3, w2: wp.array(dtype=wp.mat33),
          out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    t = ts[i]
    z = w1 * features(t) + b1
    h = wp.vec3(wp.tanh(z[0]), wp.tanh(z[1]), wp.tanh(z[2]))
    y = w2[0] * h
    y[0] = y[0] * t  # expect: component_reassign
    out[i] = y


@wp.kernel
def field_mse(out: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = out[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(out.shape[0]))


def evaluate(p):
    w2 = wp.array([wp.mat33(*np.asarray(p, dtype=np.float32))], dtype=wp.mat33, requires_grad=True)
    ts = wp.array(TS, dtype=float)
    target = wp.array(TARGET, dtype=wp.vec3)
    out = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(field, dim=N, inputs=[ts, wp.mat33(W1), wp.vec3(B1), w2], outputs=[out])
        wp.launch(field_mse, dim=N, inputs=[out, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), w2.grad.numpy().reshape(-1).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(100):
        l, g = evaluate(p)
        p -= 0.5 * g
        if it % 25 == 0:
            print(f"iter {it} mse {l:.5f}")
