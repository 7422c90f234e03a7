import numpy as np
from _harness import load, fd, report

NAME = "plume_source_fit"
FIX = [("_grid", "dtype=np.float32), dtype=wp.float32)  # expect",
        "dtype=np.float32), dtype=wp.float32, requires_grad=True)  # expect")]
s0 = np.array([0.5, 0.5])
m = load(NAME)
ad = m.loss_and_grad(s0)[1]
ref = fd(lambda s: m.loss_and_grad(s)[0], s0)
mf = load(NAME, FIX, "fixed")
fad = mf.loss_and_grad(s0)[1]
fref = fd(lambda s: mf.loss_and_grad(s)[0], s0)
report(NAME, "requires_grad", ad, ref, fad, fref)
