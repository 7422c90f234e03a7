"""Helper module: spring-chain model whose per-frame state is a @wp.struct."""
import warp as wp


@wp.struct
class State:
    q: wp.array(dtype=float)
    qd: wp.array(dtype=float)
    f: wp.array(dtype=float)


def make_state(n, q0=None):
    s = State()
    s.q = wp.array(q0, dtype=float, requires_grad=True) if q0 is not None else wp.zeros(n, dtype=float, requires_grad=True)
    s.qd = wp.zeros(n, dtype=float, requires_grad=True)
    s.f = wp.zeros(n, dtype=float)  # expect: requires_grad
    return s


@wp.kernel
def spring_forces(s: State, k: wp.array(dtype=float)):
    i = wp.tid()
    n = s.q.shape[0]
    if i + 1 < n:
        stretch = s.q[i + 1] - s.q[i] - 1.0
        fs = k[i] * stretch * (1.0 + stretch * stretch)
        wp.atomic_add(s.f, i, fs)
        wp.atomic_sub(s.f, i + 1, fs)


@wp.kernel
def integrate(s: State, dt: float, out: State):
    i = wp.tid()
    qd = s.qd[i] + dt * s.f[i]
    out.qd[i] = qd
    out.q[i] = s.q[i] + dt * qd
