# correct: point-mass reaching policy whose action buffer takes requires_grad from the state array it is computed from
import numpy as np
import warp as wp

DT = wp.constant(0.05)
H = 25
mat24 = wp.types.matrix(shape=(2, 4), dtype=float)
N = 8


@wp.kernel
def linear_policy(x: wp.array(dtype=wp.vec4), W: wp.array(dtype=mat24), b: wp.array(dtype=wp.vec2),
                  act: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    a = W[0] * x[i] + b[0]
    act[i] = wp.vec2(wp.tanh(a[0]), wp.tanh(a[1])) * 4.0


@wp.kernel
def point_mass(x: wp.array(dtype=wp.vec4), act: wp.array(dtype=wp.vec2), x_out: wp.array(dtype=wp.vec4),
               cost: wp.array(dtype=float)):
    i = wp.tid()
    s = x[i]
    u = act[i]
    v = wp.vec2(s[2], s[3]) * 0.98 + DT * u
    p = wp.vec2(s[0], s[1]) + DT * v
    x_out[i] = wp.vec4(p[0], p[1], v[0], v[1])
    wp.atomic_add(cost, 0, (wp.dot(p, p) + 0.01 * wp.dot(u, u)) / float(N))


class Policy:
    def __init__(self, params):
        self.W = wp.array([mat24(*params[:8])], dtype=mat24, requires_grad=True)
        self.b = wp.array([wp.vec2(*params[8:])], dtype=wp.vec2, requires_grad=True)

    def act(self, x):
        a = wp.empty(x.shape[0], dtype=wp.vec2, requires_grad=x.requires_grad)
        wp.launch(linear_policy, dim=x.shape[0], inputs=[x, self.W, self.b], outputs=[a])
        return a


rng = np.random.default_rng(11)
X0 = np.column_stack([rng.uniform(-1, 1, (N, 2)), np.zeros((N, 2))])
PARAMS0 = np.array([-0.8, 0.1, -0.5, 0.0, 0.05, -0.9, 0.0, -0.6, 0.02, -0.03])


def evaluate(p):
    pi = Policy(p)
    x = wp.array(X0, dtype=wp.vec4, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(H):
            a = pi.act(x)
            x_new = wp.empty_like(x)
            wp.launch(point_mass, dim=N, inputs=[x, a], outputs=[x_new, cost])
            x = x_new
    tape.backward(cost)
    g = np.concatenate([pi.W.grad.numpy().ravel(), pi.b.grad.numpy().ravel()])
    return float(cost.numpy()[0]), g


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("episode cost", loss, "grad", g)
