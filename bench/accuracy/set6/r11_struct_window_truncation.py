"""Tune per-oscillator stiffness over a long horizon, one tape per window (struct-held state)."""
import numpy as np
import warp as wp

N = 8
WINDOWS = 3
STEPS = 6
DT = 0.1


@wp.struct
class State:
    q: wp.array(dtype=float)
    qd: wp.array(dtype=float)


def new_state():
    s = State()
    s.q = wp.zeros(N, dtype=float, requires_grad=True)
    s.qd = wp.zeros(N, dtype=float, requires_grad=True)
    return s


@wp.kernel
def step(s: State, k: wp.array(dtype=float), dt: float, out: State):
    i = wp.tid()
    qd = s.qd[i] - dt * k[i] * wp.sin(s.q[i])
    out.qd[i] = qd
    out.q[i] = s.q[i] + dt * qd


@wp.kernel
def cost(s: State, c: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(c, 0, s.q[i] * s.q[i])


def main():
    k = wp.array(np.linspace(1.0, 3.0, N, dtype=np.float32), requires_grad=True)
    start = new_state()
    start.q.assign(np.full(N, 1.0, dtype=np.float32))
    total = 0.0
    for w in range(WINDOWS):
        c = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()  # expect: truncation
        with tape:
            s = start
            for t in range(STEPS):
                nxt = new_state()
                wp.launch(step, dim=N, inputs=[s, k, DT], outputs=[nxt])
                s = nxt
            wp.launch(cost, dim=N, inputs=[s], outputs=[c])
        tape.backward(c)  # k.grad sums the windows' gradients
        total += c.numpy()[0]
        start = s
    print("total cost", total)
    print("dcost/dk", k.grad.numpy())
    return k.grad.numpy()


if __name__ == "__main__":
    main()
