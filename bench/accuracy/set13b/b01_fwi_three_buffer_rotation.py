"""1-D acoustic full-waveform inversion of a three-layer velocity model.

The leapfrog scheme keeps three wavefield buffers and rotates them every
step, so no history is stored; the recorded traces at two receivers are
compared with data from the true model.
"""
import numpy as np
import warp as wp

N = 96          # grid cells
DX = 10.0       # m
DT = 3.0e-3     # s
NT = 200        # time steps
SRC = 8
RECS = np.array([24, 60, 88], dtype=np.int32)
LAYER_TOPS = [0, 32, 64]


@wp.kernel
def layers_to_grid(m: wp.array(dtype=float), layer_of: wp.array(dtype=wp.int32), c: wp.array(dtype=float)):
    i = wp.tid()
    c[i] = m[layer_of[i]]


@wp.kernel
def leapfrog(u_prev: wp.array(dtype=float), u: wp.array(dtype=float), c: wp.array(dtype=float),
             src_amp: float, src: int, k2: float, u_next: wp.array(dtype=float)):
    i = wp.tid()
    n = u.shape[0]
    if i == 0 or i == n - 1:
        u_next[i] = 0.0
        return
    lap = u[i - 1] - 2.0 * u[i] + u[i + 1]
    val = 2.0 * u[i] - u_prev[i] + c[i] * c[i] * k2 * lap
    if i == src:
        val = val + src_amp
    u_next[i] = val


@wp.kernel
def record(u: wp.array(dtype=float), recs: wp.array(dtype=wp.int32), t: int, traces: wp.array2d(dtype=float)):
    r = wp.tid()
    traces[t, r] = u[recs[r]]


@wp.kernel
def l2_misfit(traces: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    t, r = wp.tid()
    d = traces[t, r] - obs[t, r]
    wp.atomic_add(loss, 0, 0.5 * d * d)


def ricker(nt, dt, f0=10.0):
    t = np.arange(nt) * dt - 1.2 / f0
    a = (np.pi * f0 * t) ** 2
    return (1.0 - 2.0 * a) * np.exp(-a)


WAVELET = ricker(NT, DT)
layer_of_np = np.zeros(N, dtype=np.int32)
for k, top in enumerate(LAYER_TOPS):
    layer_of_np[top:] = k
LAYER_OF = wp.array(layer_of_np, dtype=wp.int32)
REC_IDX = wp.array(RECS, dtype=wp.int32)


def simulate(m):
    """Traces for layer velocities m (a wp.array with requires_grad)."""
    c = wp.zeros(N, dtype=float, requires_grad=True)
    wp.launch(layers_to_grid, dim=N, inputs=[m, LAYER_OF], outputs=[c])
    u_prev = wp.zeros(N, dtype=float, requires_grad=True)
    u = wp.zeros(N, dtype=float, requires_grad=True)
    u_next = wp.zeros(N, dtype=float, requires_grad=True)
    traces = wp.zeros((NT, len(RECS)), dtype=float, requires_grad=True)
    k2 = DT * DT / (DX * DX)
    for t in range(NT):
        wp.launch(leapfrog, dim=N, inputs=[u_prev, u, c, float(WAVELET[t]), SRC, k2], outputs=[u_next])
        wp.launch(record, dim=len(RECS), inputs=[u_next, REC_IDX, t], outputs=[traces])
        u_prev, u, u_next = u, u_next, u_prev  # expect: overwrite
    return traces


M_TRUE = np.array([1500.0, 2100.0, 2600.0])
OBS = simulate(wp.array(M_TRUE, dtype=float))
PARAMS0 = [1600.0, 2000.0, 2500.0]
FD_EPS = 1.0


def evaluate(p):
    m = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        traces = simulate(m)
        wp.launch(l2_misfit, dim=(NT, len(RECS)), inputs=[traces, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), m.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(3):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.4e}  grad {g}")
        p = p - 2.0e4 * g / max(np.abs(g).max(), 1e-12) * 1e-3
