"""Absorption coefficients of a lecture room from a measured energy decay curve.

Eyring's formula gives the reverberation time of the room from the absorption of
floor, walls and ceiling; the diffuse-field decay is Schroeder-integrated and its
level in dB is compared with the measured EDC. The dB curve of the model is also
exported for the acoustic report before the gradient is taken.
"""
import numpy as np
import warp as wp

from _room import AREAS, FS, N_FIT, N_T, VOLUME, decay_envelope, eyring_rt, level_misfit, measured_edc_db, schroeder, to_db

PARAMS0 = np.array([0.10, 0.25, 0.35])
FD_EPS = 1e-3
MEAS_DB = measured_edc_db()


def evaluate(p):
    alpha = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    area = wp.array(AREAS, dtype=float)
    meas = wp.array(MEAS_DB, dtype=float)
    rt = wp.zeros(1, dtype=float, requires_grad=True)
    env = wp.zeros(N_T, dtype=float, requires_grad=True)
    edc = wp.zeros(N_T, dtype=float, requires_grad=True)
    edc_db = wp.zeros(N_T, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(eyring_rt, dim=1, inputs=[alpha, area, VOLUME], outputs=[rt])
        wp.launch(decay_envelope, dim=N_T, inputs=[rt, FS], outputs=[env])
        wp.launch(schroeder, dim=N_T, inputs=[env, FS], outputs=[edc])
        wp.launch(level_misfit, dim=N_T, inputs=[edc, meas, N_FIT], outputs=[loss])
    wp.launch(to_db, dim=N_T, inputs=[edc], outputs=[edc], record_tape=False)  # expect: untaped_write
    evaluate.report = (float(rt.numpy()[0]), edc_db.numpy().copy())
    tape.backward(loss)
    return float(loss.numpy()[0]), alpha.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"T60 {evaluate.report[0]:.3f} s; misfit {L:.4f} dB^2; d/d(alpha) = {g}")
