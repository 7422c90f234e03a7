"""Structure analysis kernels (radial distribution histogram). Analysis only, never
differentiated, so the module is compiled without adjoints."""
import numpy as np
import warp as wp

wp.set_module_options({"enable_backward": False})


@wp.kernel
def pair_histogram(x: wp.array(dtype=wp.vec3), r_max: float, hist: wp.array(dtype=int)):
    i, j = wp.tid()
    if j > i:
        r = wp.length(x[i] - x[j])
        b = int(r / r_max * float(hist.shape[0]))
        if b < hist.shape[0]:
            wp.atomic_add(hist, b, 1)


def rdf_peaks(x, r_max=3.0, n_bins=30):
    hist = wp.zeros(n_bins, dtype=int)
    wp.launch(pair_histogram, dim=(x.shape[0], x.shape[0]), inputs=[x, r_max], outputs=[hist])
    h = hist.numpy()
    centres = (np.arange(n_bins) + 0.5) * r_max / n_bins
    return centres[np.argsort(h)[::-1][:2]]
