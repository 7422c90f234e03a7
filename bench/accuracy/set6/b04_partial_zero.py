"""System identification of a damped oscillator (stiffness k, damping c) by gradient descent."""
import numpy as np
import warp as wp

T = 40
DT = 0.05


@wp.kernel
def step(k: wp.array(dtype=float), c: wp.array(dtype=float), t: int, xs: wp.array(dtype=float),
         vs: wp.array(dtype=float)):
    # semi-implicit Euler, state t -> t + 1 stored in trajectory arrays
    v = vs[t] + DT * (-k[0] * xs[t] - c[0] * vs[t])
    vs[t + 1] = v
    xs[t + 1] = xs[t] + DT * v


@wp.kernel
def mse(traj: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    t = wp.tid()
    d = traj[t + 1] - obs[t]
    wp.atomic_add(loss, 0, d * d / float(T))


@wp.kernel
def sgd(p: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    p[0] = p[0] - lr * g[0]


def fit(obs, iters=6, lr=0.5):
    k = wp.array([2.0], dtype=float, requires_grad=True)
    c = wp.array([0.1], dtype=float, requires_grad=True)
    for it in range(iters):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        xs = wp.zeros(T + 1, dtype=float, requires_grad=True)
        vs = wp.zeros(T + 1, dtype=float, requires_grad=True)
        xs.fill_(1.0)
        with tape:
            for t in range(T):
                wp.launch(step, dim=1, inputs=[k, c, t], outputs=[xs, vs])
            wp.launch(mse, dim=T, inputs=[xs, obs], outputs=[loss])
        tape.backward(loss)
        print(f"it {it}: loss {loss.numpy()[0]:.5f} k {k.numpy()[0]:.4f} c {c.numpy()[0]:.4f} dc {c.grad.numpy()[0]:.4f}")
        wp.launch(sgd, dim=1, inputs=[k, k.grad, lr])
        wp.launch(sgd, dim=1, inputs=[c, c.grad, lr])
        k.grad.zero_()  # expect: missing_zero
    return k, c


def main():
    t = np.arange(1, T + 1) * DT
    obs = wp.array((np.exp(-0.3 * t) * np.cos(1.7 * t)).astype(np.float32))
    fit(obs)


if __name__ == "__main__":
    main()
