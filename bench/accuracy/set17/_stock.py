"""Surplus-production stock dynamics (Schaefer) for several fish stocks."""
import warp as wp


@wp.kernel
def schaefer_year(p: wp.array(dtype=float), landings: wp.array2d(dtype=float), y: int,
                  b_in: wp.array(dtype=float), b_out: wp.array(dtype=float)):
    s = wp.tid()
    b = b_in[s]
    b_out[s] = wp.max(b + p[0] * b * (1.0 - b / p[1]) - landings[s, y], 0.01 * p[1])


@wp.kernel
def survey_index(p: wp.array(dtype=float), b: wp.array(dtype=float), y: int, index: wp.array2d(dtype=float)):
    s = wp.tid()
    index[s, y] = 0.001 * p[2] * b[s]


def allocate_biomass(n_stock, n_year):
    return [wp.zeros(n_stock, dtype=float) for _ in range(n_year + 1)]  # expect: requires_grad


def project(p, b0, landings, index):
    n_stock, n_year = index.shape
    bio = allocate_biomass(n_stock, n_year)
    wp.copy(bio[0], b0)
    for y in range(n_year):
        wp.launch(schaefer_year, dim=n_stock, inputs=[p, landings, y, bio[y]], outputs=[bio[y + 1]])
        wp.launch(survey_index, dim=n_stock, inputs=[p, bio[y + 1], y], outputs=[index])
    return bio
