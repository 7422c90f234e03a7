"""One-sentence descriptions of every program, for MANIFEST.md."""
DESC = {
    "b01_shelf_sound_transition_range": "Shallow-shelf transmission loss fit (source level, spherical-to-cylindrical transition range r0, absorption): the @wp.func_grad of the kinked spreading law gives the cylindrical branch an r0 partial of 20/(r0 ln10) instead of 10/(r0 ln10); the spherical branch is right.",
    "b02_soft_fin_quadratic_drag": "Soft pneumatic caudal fin identified from tip tracks (stiffness, quadratic drag, actuation gain): the @wp.func_grad of the drag law v|v| returns 2v instead of 2|v|, wrong only while the fin moves backwards (v < 0).",
    "b03_exoplanet_rv_eccentricity": "Radial-velocity orbit fit (e, K, omega, M0) through a Kepler solver with an implicit-function @wp.func_grad in helper _kepler_rv.py: on the mirrored half of the orbit (M mod 2pi > pi) the eccentricity partial keeps the sign of the unmirrored branch.",
    "b04_pv_strings_capacity_weighted": "PV plant calibration (efficiency, temperature coefficient, soiling): the objective is np.average of per-string squared errors weighted by capacity, but backward is seeded with the raw capacities (not divided by their sum).",
    "b05_grid_zone_dispatch_cost": "Logit merit-order dispatch of a nine-unit fleet (@wp.struct Fleet in helper _fleet.py): the host sums generator costs over the northern zone only, while cost.grad.fill_(1.0) seeds every generator.",
    "b06_glacier_flowline_velocity_misfit": "Shallow-ice flowline inversion (Glen A, sliding beta, thickness factor) against surface velocities: the host cost is 0.5 sum (r/sigma)^2 but backward is seeded with r/sigma instead of r/sigma^2.",
    "c01_shelf_sound_transition_exact": "Transmission loss fit: the spreading-law @wp.func_grad carries the exact 10/(r0 ln10) partial in the cylindrical branch.",
    "c02_soft_fin_quadratic_drag_abs": "Soft fin identification: the v|v| drag adjoint is 2|v|.",
    "c03_exoplanet_rv_mirror_sign": "Radial-velocity fit: the Kepler @wp.func_grad (helper _kepler_rv_mirror.py) subtracts the eccentricity partial on the mirrored half.",
    "c04_pv_strings_capacity_share": "PV plant calibration: capacity-weighted mean on the host, backward seeded with capacity shares (weights / sum).",
    "c05_grid_zone_dispatch_mask": "Zone dispatch cost: host sum over the northern zone, cost.grad assigned the zone mask.",
    "c06_glacier_flowline_sigma_squared": "Glacier flowline inversion: host cost 0.5 sum (r/sigma)^2 seeded with r/sigma^2.",
}
