import numpy as np
from _harness import load, fd, report

NAME = "rope_wind_estimation"
FIX = [(NAME, "    for t in range(SETTLE):\n        rope.advance(wind, t)  # expect: truncation\n    tape = wp.Tape()\n    with tape:\n",
        "    tape = wp.Tape()\n    with tape:\n        for t in range(SETTLE):\n            rope.advance(wind, t)\n")]
w0 = np.array([0.5, 0.0, 0.5])
m = load(NAME)
ad = m.loss_and_grad(w0)[1]
ref = fd(lambda w: m.loss_and_grad(w)[0], w0)
mf = load(NAME, FIX, "fixed")
fad = mf.loss_and_grad(w0)[1]
report(NAME, "truncation", ad, ref, fad, ref)
