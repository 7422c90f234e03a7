import numpy as np
from _harness import load, fd, report

NAME = "soft_body_mean_energy"
FIX = [(NAME, "grads={energy: wp.ones(N, dtype=wp.float32)}", "grads={energy: wp.full(N, 1.0 / N, dtype=wp.float32)}")]
m = load(NAME)
p0 = m.ring_positions(1.0).astype(np.float64)
k0 = np.linspace(1.0, 2.0, m.N)
ad = m.mean_energy_grad(p0, k0)[1]
ref = fd(lambda p: m.mean_energy_grad(p, k0)[0], p0)
mf = load(NAME, FIX, "fixed")
fad = mf.mean_energy_grad(p0, k0)[1]
report(NAME, "seeding", ad, ref, fad, ref)
