"""1-D phase-only Fourier hologram: mask phase from a polynomial, Fraunhofer
far field by a direct DFT, focal-plane intensity."""
import warp as wp

N_PIX = 64
N_FOCAL = 64


@wp.kernel
def mask_phase(prm: wp.array(dtype=float), phi: wp.array(dtype=float)):
    n = wp.tid()
    x = (float(n) - 0.5 * float(phi.shape[0])) / float(phi.shape[0])
    phi[n] = prm[0] * x * x + prm[1] * x * x * x + prm[2] * wp.sin(2.0 * wp.pi * 3.0 * x)


@wp.kernel
def far_field(phi: wp.array(dtype=float), re: wp.array(dtype=float), im: wp.array(dtype=float)):
    m = wp.tid()
    n_pix = phi.shape[0]
    sr = float(0.0)
    si = float(0.0)
    for n in range(n_pix):
        ph = phi[n] - 2.0 * wp.pi * float((m - re.shape[0] // 2) * n) / float(n_pix)
        sr += wp.cos(ph)
        si += wp.sin(ph)
    re[m] = sr / float(n_pix)
    im[m] = si / float(n_pix)


@wp.kernel
def intensity(re: wp.array(dtype=float), im: wp.array(dtype=float), I: wp.array(dtype=float)):
    m = wp.tid()
    I[m] = re[m] * re[m] + im[m] * im[m]


@wp.kernel
def spot_misfit(I: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    m = wp.tid()
    d = I[m] - target[m]
    wp.atomic_add(loss, 0, d * d)
