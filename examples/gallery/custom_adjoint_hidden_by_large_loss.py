# tapewatch-test: --check-launches
"""A creep law with a hand-written adjoint, fitted over 4096 specimens by one launch that accumulates the
misfit in Pa^2 (a loss of order 1e12): float32 rounding of that sum hides the adjoint's error from finite
differences of the launch, which agree within tolerance.  Checked on its own, at the arguments the launch
passed, the custom adjoint's derivative with respect to the exponent is wrong (log of the stress instead of
log of the time)."""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 4096


@wp.func
def creep(stress: float, time: float, a: float, n: float):
    return a * 1.0e4 * wp.pow(stress, 2.0) * wp.pow(time, n)


@wp.func_grad(creep)
def adj_creep(stress: float, time: float, a: float, n: float, adj_ret: float):
    strain = a * 1.0e4 * wp.pow(stress, 2.0) * wp.pow(time, n)
    wp.adjoint[a] += adj_ret * strain / a
    wp.adjoint[n] += adj_ret * strain * wp.log(stress)  # expect: TW404


@wp.kernel
def misfit(stress: wp.array(dtype=float), time: wp.array(dtype=float), measured: wp.array(dtype=float),
           prm: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = creep(stress[i], time[i], prm[0], prm[1]) - measured[i]
    wp.atomic_add(loss, 0, d * d)


rng = np.random.default_rng(3)
stress = rng.uniform(20.0, 60.0, N).astype(np.float32)
time = rng.uniform(1.0, 100.0, N).astype(np.float32)
measured = (2.0e4 * stress ** 2 * time ** 0.35 * (1.0 + 0.01 * rng.standard_normal(N))).astype(np.float32)
prm = wp.array([2.3, 0.33], dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(misfit, dim=N, inputs=[wp.array(stress), wp.array(time), wp.array(measured), prm], outputs=[loss])
tape.backward(loss)
print("loss", loss.numpy()[0], "gradient", prm.grad.numpy())
