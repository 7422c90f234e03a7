import numpy as np
import warp as wp

wp.init()

EPS_V = 0.05
STEPS = 12
DT = 0.05
GRAV = 9.81
PARAMS0 = [0.3, 0.1]


@wp.func
def smooth_abs(x: float):
    return wp.sqrt(x * x + EPS_V * EPS_V)


@wp.func_grad(smooth_abs)
def adj_smooth_abs(x: float, adj_ret: float):
    wp.adjoint[x] += adj_ret * x / (x * x + EPS_V * EPS_V)  # expect: custom_adjoint


@wp.kernel
def slide(angle: wp.array(dtype=float), v0: wp.array(dtype=float), fric: wp.array(dtype=float),
          x_out: wp.array(dtype=float)):
    # block on an incline, regularised Coulomb friction mu(v) = mu_s + mu_v |v|
    i = wp.tid()
    a = angle[i]
    x = float(0.0)
    v = v0[i]
    for k in range(STEPS):
        mu = fric[0] + fric[1] * smooth_abs(v)
        acc = GRAV * wp.sin(a) - mu * GRAV * wp.cos(a) * v / smooth_abs(v)
        v = v + DT * acc
        x = x + DT * v
    x_out[i] = x


@wp.kernel
def track_misfit(x: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


angle = wp.array(np.radians([10.0, 15.0, 20.0, 25.0, 30.0]).astype(np.float32), dtype=float)
v0 = wp.array(np.array([1.0, 0.5, 0.0, -0.3, 0.2], dtype=np.float32), dtype=float)
obs = wp.array(np.array([0.1, 0.15, 0.3, 0.5, 0.9], dtype=np.float32), dtype=float)


def evaluate(p):
    fric = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.zeros(5, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(slide, dim=5, inputs=[angle, v0, fric], outputs=[x])
        wp.launch(track_misfit, dim=5, inputs=[x, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), fric.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
