"""Characteristic-matrix (transfer-matrix) model of a lossless thin-film stack at
normal incidence. A layer matrix [[cos d, i sin d / n], [i n sin d, cos d]] keeps the
pattern [[real, imag], [imag, real]], so it is stored as a real mat22."""
import warp as wp

N_LAYERS = wp.constant(2)


@wp.func
def stack_mul(A: wp.mat22, B: wp.mat22):
    # [[a, ib], [ic, d]] [[e, if], [ig, h]]
    return wp.mat22(A[0, 0] * B[0, 0] - A[0, 1] * B[1, 0], A[0, 0] * B[0, 1] + A[0, 1] * B[1, 1],
                    A[1, 0] * B[0, 0] + A[1, 1] * B[1, 0], A[1, 1] * B[1, 1] - A[1, 0] * B[0, 1])


@wp.kernel
def layer_phase(d: wp.array(dtype=float), n_layer: wp.array(dtype=float), lam: wp.array(dtype=float),
                delta: wp.array2d(dtype=float)):
    w, j = wp.tid()
    delta[w, j] = 2.0 * wp.pi * n_layer[j] * d[j] / lam[w]


@wp.kernel
def stack_reflectance(delta: wp.array2d(dtype=float), n_layer: wp.array(dtype=float), n_sub: float,
                      R: wp.array(dtype=float)):
    w = wp.tid()
    M = wp.mat22(1.0, 0.0, 0.0, 1.0)
    for j in range(N_LAYERS):
        cd = wp.cos(delta[w, j])
        sd = wp.sin(delta[w, j])
        n = n_layer[j]
        M = stack_mul(M, wp.mat22(cd, sd / n, n * sd, cd))
    # [B, C] = M [1, n_sub];  r = (B - C) / (B + C) with n0 = 1
    num = wp.vec2(M[0, 0] - M[1, 1] * n_sub, M[0, 1] * n_sub - M[1, 0])
    den = wp.vec2(M[0, 0] + M[1, 1] * n_sub, M[0, 1] * n_sub + M[1, 0])
    R[w] = wp.dot(num, num) / wp.dot(den, den)


@wp.kernel
def band_mean(R: wp.array(dtype=float), loss: wp.array(dtype=float)):
    w = wp.tid()
    wp.atomic_add(loss, 0, R[w] / float(R.shape[0]))
