import numpy as np
from _harness import load, fd, report

NAME = "hair_strand_bending"
FIX = [("_geometry", "    wp.adjoint[v] = adj_ret * v / n", "    wp.adjoint[v] += adj_ret * v / n")]
m = load(NAME)
x0 = m.strand().astype(np.float64)
ad = m.energy_grad(x0)[1]
ref = fd(lambda x: m.energy_grad(x)[0], x0)
mf = load(NAME, FIX, "fixed")
fad = mf.energy_grad(x0)[1]
report(NAME, "custom_adjoint", ad, ref, fad, ref)
