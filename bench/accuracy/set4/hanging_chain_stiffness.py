import numpy as np
import warp as wp

N = 6
STEPS = 8
DT = 0.02
REST = 0.25


@wp.kernel
def chain_step(
    x_in: wp.array(dtype=wp.vec2),
    v_in: wp.array(dtype=wp.vec2),
    k: wp.array(dtype=wp.float32),
    dt: wp.float32,
    x_out: wp.array(dtype=wp.vec2),
    v_out: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    n = x_in.shape[0]
    f = wp.vec2(0.0, -9.8)
    if i > 0:
        d = x_in[i] - x_in[i - 1]
        l = wp.length(d)
        f = f - k[0] * (l - REST) * d / l
    if i < n - 1:
        d = x_in[i] - x_in[i + 1]
        l = wp.length(d)
        f = f - k[0] * (l - REST) * d / l
    v = v_in[i] + f * dt
    if i == 0:
        v = wp.vec2(0.0, 0.0)
    v_out[i] = v
    x_out[i] = x_in[i] + v * dt


@wp.kernel
def tip_error(x: wp.array(dtype=wp.vec2), target: wp.vec2, loss: wp.array(dtype=wp.float32)):
    n = x.shape[0]
    d = x[n - 1] - target
    loss[0] = wp.dot(d, d)


def initial_chain():
    x0 = np.zeros((N, 2), dtype=np.float32)
    x0[:, 0] = np.arange(N) * 0.3
    return x0


def tip_loss(stiffness):
    k = wp.array([stiffness], dtype=wp.float32, requires_grad=True)
    xs = [wp.array(initial_chain(), dtype=wp.vec2, requires_grad=True) for _ in range(2)]
    vs = [wp.zeros(N, dtype=wp.vec2, requires_grad=True) for _ in range(2)]
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    target = wp.vec2(1.2, -0.6)

    tape = wp.Tape()
    with tape:
        for s in range(STEPS):
            wp.launch(chain_step, dim=N, inputs=[xs[s % 2], vs[s % 2], k, DT], outputs=[xs[(s + 1) % 2], vs[(s + 1) % 2]])  # expect: overwrite
        wp.launch(tip_error, dim=1, inputs=[xs[STEPS % 2], target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), float(k.grad.numpy()[0])


def main():
    stiffness = 40.0
    for it in range(5):
        l, g = tip_loss(stiffness)
        print(f"iter {it}: k={stiffness:.4f} loss={l:.6f} dloss/dk={g:.6f}")
        stiffness -= 20.0 * g


if __name__ == "__main__":
    main()
