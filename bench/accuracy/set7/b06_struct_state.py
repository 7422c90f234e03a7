"""Particles in a radial force field; state lives in @wp.struct objects, one per step."""
import numpy as np
import warp as wp

N = 16
STEPS = 8
DT = 0.05


@wp.struct
class State:
    x: wp.array(dtype=wp.vec2)
    v: wp.array(dtype=wp.vec2)
    f: wp.array(dtype=wp.vec2)


@wp.kernel
def eval_forces(s: State, strength: wp.array(dtype=float)):
    i = wp.tid()
    r = s.x[i]
    s.f[i] = -strength[0] * r / (1.0 + wp.dot(r, r)) - 0.1 * s.v[i]


@wp.kernel
def integrate(s: State, out: State):
    i = wp.tid()
    v = s.v[i] + s.f[i] * DT
    out.v[i] = v
    out.x[i] = s.x[i] + v * DT


@wp.kernel
def spread_loss(s: State, loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, wp.dot(s.x[i], s.x[i]) / float(N))


def new_state(x0=None):
    s = State()
    s.x = wp.array(x0, dtype=wp.vec2, requires_grad=True) if x0 is not None else wp.zeros(N, dtype=wp.vec2, requires_grad=True)
    s.v = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
    s.f = wp.zeros(N, dtype=wp.vec2)  # expect: requires_grad
    return s


def evaluate(strength_np):
    strength = wp.array(strength_np, dtype=float, requires_grad=True)
    ang = np.linspace(0, 2 * np.pi, N, endpoint=False)
    states = [new_state(np.stack([2 * np.cos(ang), np.sin(ang)], 1))]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            wp.launch(eval_forces, dim=N, inputs=[states[-1], strength])
            states.append(new_state())
            wp.launch(integrate, dim=N, inputs=[states[-2], states[-1]])
        wp.launch(spread_loss, dim=N, inputs=[states[-1]], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), strength.grad.numpy().copy()


PARAMS0 = np.array([3.0], dtype=np.float32)


def main():
    l, g = evaluate(PARAMS0)
    print("spread", l, "d/dstrength", g)


if __name__ == "__main__":
    main()
