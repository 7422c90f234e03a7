"""Kernels of the serpentine capture chip (analyte depletion along channels)."""
import warp as wp


@wp.struct
class ChipGeometry:
    height_um: float
    flow_ul_min: float
    width_um: float


@wp.kernel
def deplete(chip: ChipGeometry, inlet: wp.array(dtype=float), length_mm: wp.array(dtype=float),
            p: wp.array(dtype=float), conc: wp.array(dtype=float)):
    i = wp.tid()
    # Damkoehler number of the capture surface: k_on-like rate p[0], boundary-layer factor p[1]
    shear = chip.flow_ul_min / (chip.width_um * chip.height_um * chip.height_um) * 1.0e4
    da = p[0] * length_mm[i] * chip.width_um / (chip.flow_ul_min * 100.0) / (1.0 + p[1] / wp.pow(shear, 0.333))
    conc[i] = inlet[i]
    conc[i] = conc[i] * wp.exp(-da)  # expect: inplace_op


@wp.kernel
def capture_loss(conc: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = conc[i] - obs[i]
    wp.atomic_add(loss, 0, r * r)
