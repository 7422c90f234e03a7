# correct: b20_aquifer_recharge_calibration (the daily steps are taped wp.launch calls; the replayed record_cmd command inside the tape is only the water-balance diagnostic, off the gradient path)
"""Calibrate conductivity and recharge of an unconfined aquifer between two rivers.

Transient Boussinesq flow (S_y dh/dt = K/2 d2(h^2)/dx2 + R - Q) on 64 cells of
50 m with a pumping well, 80 explicit daily steps after a wet-season start at
river level; every step writes its own head array of the history. The steps
are ordinary launches on the tape; the well heads on day 80 are compared with
observations. A water-balance diagnostic (stored volume on day 80) is built
once as a launch command and replayed inside the tape; it only feeds the
printed report.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

NX = 64
DX = 50.0  # m
N_SWEEP = 80  # daily steps
SY = 0.2  # specific yield
H_RIVER = 12.0  # m above the aquifer base
WELLS = np.array([10, 20, 31, 40, 52], dtype=np.int32)
PARAMS0 = np.array([8.0, 1.1])  # K [m/day], recharge R [mm/day]
FD_EPS = np.array([0.1, 1e-2])


@wp.kernel
def boussinesq_day(h: wp.array(dtype=float), prm: wp.array(dtype=float), pump: wp.array(dtype=float),
                   h_new: wp.array(dtype=float)):
    i = wp.tid()
    if i == 0 or i == NX - 1:
        h_new[i] = H_RIVER
    else:
        lap = (h[i + 1] * h[i + 1] - 2.0 * h[i] * h[i] + h[i - 1] * h[i - 1]) / (DX * DX)
        h_new[i] = h[i] + (0.5 * prm[0] * lap + prm[1] * 1.0e-3 - pump[i]) / SY


@wp.kernel
def stored_volume(h: wp.array(dtype=float), vol: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(vol, 0, SY * (h[i] - H_RIVER) * DX)


@wp.kernel
def well_misfit(h: wp.array(dtype=float), wells: wp.array(dtype=wp.int32), obs: wp.array(dtype=float),
                loss: wp.array(dtype=float)):
    k = wp.tid()
    d = (h[wells[k]] - obs[k]) * 10.0
    wp.atomic_add(loss, 0, d * d)


class Aquifer:
    def __init__(self):
        pump = np.zeros(NX, dtype=np.float32)
        pump[30] = 4.0e-3  # m/day spread over one cell
        self.pump = wp.array(pump, dtype=float)
        self.prm = wp.zeros(2, dtype=float, requires_grad=True)
        self.h = [wp.full(NX, H_RIVER, dtype=float, requires_grad=True) for _ in range(N_SWEEP + 1)]
        self.volume = wp.zeros(1, dtype=float)
        self.balance_cmd = wp.launch(stored_volume, dim=NX, inputs=[self.h[N_SWEEP]], outputs=[self.volume],
                                     record_cmd=True)
        self.wells = wp.array(WELLS, dtype=wp.int32)
        self.obs = wp.array(np.array([12.9, 13.2, 12.6, 13.1, 12.8], dtype=np.float32), dtype=float)

    def misfit(self, p):
        self.prm.assign(np.asarray(p, dtype=np.float32))
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for k in range(N_SWEEP):
                wp.launch(boussinesq_day, dim=NX, inputs=[self.h[k], self.prm, self.pump], outputs=[self.h[k + 1]])
            self.volume.zero_()
            self.balance_cmd.launch()
            wp.launch(well_misfit, dim=len(WELLS), inputs=[self.h[N_SWEEP], self.wells, self.obs], outputs=[loss])
        tape.backward(loss)
        g = self.prm.grad.numpy().astype(np.float64)
        tape.zero()
        return float(loss.numpy()[0]), g


AQ = Aquifer()


def evaluate(p):
    return AQ.misfit(p)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print("well heads", np.round(AQ.h[N_SWEEP].numpy()[WELLS], 2), f"misfit {L:.3f} dm^2; d/d(K, R) = {g}")
    print(f"stored volume on day {N_SWEEP}: {AQ.volume.numpy()[0]:.2f} m^3 per m of river")
