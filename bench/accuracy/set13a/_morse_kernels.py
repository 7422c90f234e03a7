"""Morse cluster kernels, kept in their own module so that they are compiled once
and shared by the fitting scripts."""
import warp as wp

wp.set_module_options({"enable_backward": False})  # expect: adjoint_disabled


@wp.kernel
def morse_cluster_energy(x: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), e: wp.array(dtype=float)):
    """Morse energy per atom: prm = (D, alpha, r0)."""
    i, j = wp.tid()
    if j > i:
        r = wp.length(x[i] - x[j])
        ex = wp.exp(-prm[1] * (r - prm[2]))
        wp.atomic_add(e, 0, prm[0] * (ex * ex - 2.0 * ex) / float(x.shape[0]))
