"""Image spot of a telescope objective with a central obscuration.

A collimated on-axis beam of 10 mm radius meets a secondary-mirror obscuration of
3 mm radius; the unobstructed rays go through a corrector singlet (curvatures c1, c2)
onto the detector plane 95 mm away. The transmitted rays' image heights are gathered
into a compact hit list for the spot diagram, and the merit is the RMS spot radius.
"""
import numpy as np
import warp as wp

from _raytrace import through_surface

N_GLASS = 1.5168
THICK = 4.0
Z_IMAGE = 95.0
R_OBS = 3.0
N_RAYS = 81
Y_RAYS = np.linspace(-10.0, 10.0, N_RAYS).astype(np.float32)
PARAMS0 = np.array([0.0195, -0.0010])
FD_EPS = 2e-5


@wp.kernel
def trace_and_collect(y0: wp.array(dtype=float), curv: wp.array(dtype=float), n_glass: float, thick: float,
                      z_img: float, r_obs: float, count: wp.array(dtype=int), hits: wp.array(dtype=float)):
    i = wp.tid()
    if wp.abs(y0[i]) > r_obs:
        p = wp.vec2(-1.0, y0[i])
        d = wp.vec2(1.0, 0.0)
        p, d = through_surface(p, d, 0.0, curv[0], 1.0 / n_glass)
        p, d = through_surface(p, d, thick, curv[1], n_glass)
        slot = wp.atomic_add(count, 0, 1)  # expect: atomic_replay
        hits[slot] = p[1] + (z_img - p[0]) * d[1] / d[0]


@wp.kernel
def rms_spot(hits: wp.array(dtype=float), n_hit: float, loss: wp.array(dtype=float)):
    k = wp.tid()
    wp.atomic_add(loss, 0, hits[k] * hits[k] / n_hit)


N_HIT = float(np.sum(np.abs(Y_RAYS) > R_OBS))


def evaluate(p):
    curv = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    count = wp.zeros(1, dtype=int)
    hits = wp.zeros(N_RAYS, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(trace_and_collect, dim=N_RAYS, inputs=[wp.array(Y_RAYS, dtype=float), curv, N_GLASS, THICK, Z_IMAGE,
                                                         R_OBS, count], outputs=[hits])
        wp.launch(rms_spot, dim=N_RAYS, inputs=[hits, N_HIT], outputs=[loss])
    tape.backward(loss)
    evaluate.spot = hits.numpy()[: int(count.numpy()[0])].copy()
    return float(loss.numpy()[0]), curv.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"{len(evaluate.spot)} rays; rms spot {np.sqrt(L) * 1e3:.2f} um; d<y^2>/d(c1, c2) = {g}")
