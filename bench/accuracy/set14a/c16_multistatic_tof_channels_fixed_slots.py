# correct: the per-channel list uses the scatterer index as its slot (rejected scatterers leave zeros that add nothing to the mean); the atomic counter's return value is not used.
"""Sound speed and depth offset from multistatic ultrasound times of flight.

One element transmits; each of 16 receive channels tabulates the echoes of the point
scatterers that fall inside its acceptance cone (the list is per channel). The mean
time of flight of each channel's list is matched to the measured channel means;
the unknowns are the speed of sound c and an axial offset dz of the phantom.
"""
import numpy as np
import warp as wp

N_CH = 16
N_SCAT = 12
X_RX = np.linspace(-7.5, 7.5, N_CH).astype(np.float32)  # mm
rng = np.random.default_rng(8)
SCAT = np.stack([rng.uniform(-10.0, 10.0, N_SCAT), rng.uniform(15.0, 40.0, N_SCAT)], 1).astype(np.float32)
TAN_CONE = 0.35
ACCEPT = (np.abs(SCAT[None, :, 0] - X_RX[:, None]) < TAN_CONE * SCAT[None, :, 1]).astype(np.int32)
N_ACC = ACCEPT.sum(1).astype(np.float32)
PARAMS0 = np.array([1.52, 0.4])  # c (mm/us), dz (mm)
FD_EPS = [1e-4, 1e-3]


@wp.kernel
def channel_lists(scat: wp.array(dtype=wp.vec2), x_rx: wp.array(dtype=float), accept: wp.array2d(dtype=int),
                  prm: wp.array(dtype=float), count: wp.array(dtype=int), tof: wp.array2d(dtype=float)):
    ch, j = wp.tid()
    if accept[ch, j] == 1:
        s = scat[j] + wp.vec2(0.0, prm[1])
        t = (wp.length(s) + wp.length(s - wp.vec2(x_rx[ch], 0.0))) / prm[0]
        wp.atomic_add(count, ch, 1)
        tof[ch, j] = t


@wp.kernel
def channel_misfit(tof: wp.array2d(dtype=float), n_acc: wp.array(dtype=float), meas: wp.array(dtype=float),
                   mean_tof: wp.array(dtype=float)):
    ch, k = wp.tid()
    wp.atomic_add(mean_tof, ch, tof[ch, k] / n_acc[ch])


@wp.kernel
def squared_error(mean_tof: wp.array(dtype=float), meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    ch = wp.tid()
    d = mean_tof[ch] - meas[ch]
    wp.atomic_add(loss, 0, d * d)


def _measured():
    s = SCAT + np.array([0.0, 0.5], dtype=np.float32)
    t = (np.linalg.norm(s, axis=1)[None, :] + np.hypot(s[None, :, 0] - X_RX[:, None], s[None, :, 1])) / 1.54
    return ((t * ACCEPT).sum(1) / N_ACC).astype(np.float32)


MEAS = _measured()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    count = wp.zeros(N_CH, dtype=int)
    tof = wp.zeros((N_CH, N_SCAT), dtype=float, requires_grad=True)
    mean_tof = wp.zeros(N_CH, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    meas = wp.array(MEAS, dtype=float)
    tape = wp.Tape()
    with tape:
        wp.launch(channel_lists, dim=(N_CH, N_SCAT), inputs=[wp.array(SCAT, dtype=wp.vec2), wp.array(X_RX, dtype=float),
                                                             wp.array(ACCEPT, dtype=int), prm, count], outputs=[tof])
        wp.launch(channel_misfit, dim=(N_CH, N_SCAT), inputs=[tof, wp.array(N_ACC, dtype=float), meas], outputs=[mean_tof])
        wp.launch(squared_error, dim=N_CH, inputs=[mean_tof, meas], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"TOF misfit {L:.5f} us^2; d/d(c, dz) = {g}")
