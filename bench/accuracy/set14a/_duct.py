"""1-D duct acoustics: leapfrog finite-difference time-domain update of
p_tt = c(x)^2 p_xx with rigid-free ends, and a microphone energy probe."""
import warp as wp

X_IN0 = wp.constant(0.5)
X_IN1 = wp.constant(0.7)
EDGE = wp.constant(0.01)


@wp.func
def sound_speed(x: float, c0: float, c1: float):
    w = 1.0 / (1.0 + wp.exp(-(x - X_IN0) / EDGE)) - 1.0 / (1.0 + wp.exp(-(x - X_IN1) / EDGE))
    return c0 + (c1 - c0) * w


@wp.kernel
def leapfrog_step(p_prev: wp.array(dtype=float), p: wp.array(dtype=float), prm: wp.array(dtype=float),
                  dt: float, dx: float, p_next: wp.array(dtype=float)):
    i = wp.tid()
    n = p.shape[0]
    if i == 0 or i == n - 1:
        p_next[i] = 0.0
        return
    c = sound_speed(float(i) * dx, prm[0], prm[1])
    r = c * dt / dx
    p_next[i] = 2.0 * p[i] - p_prev[i] + r * r * (p[i + 1] - 2.0 * p[i] + p[i - 1])


@wp.kernel
def mic_energy(p: wp.array(dtype=float), mic: int, dt: float, energy: wp.array(dtype=float)):
    v = p[mic]
    wp.atomic_add(energy, 0, v * v * dt)
