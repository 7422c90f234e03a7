import numpy as np
from _harness import load, fd, report

NAME = "split_encoder_training"
FIX = [(NAME, "    dec_tape.zero()\n    dh = wp.clone(h.grad)", "    dh = wp.clone(h.grad)\n    dec_tape.zero()")]
m = load(NAME)
x, y = m.make_data()
w0 = m.init_weights(m.H, m.D).astype(np.float64)
v0 = np.full(m.H, 0.3)
ad = m.encoder_grad(w0, v0, x, y)[1]
ref = fd(lambda w: m.encoder_grad(w, v0, x, y)[0], w0)
mf = load(NAME, FIX, "fixed")
fad = mf.encoder_grad(w0, v0, x, y)[1]
report(NAME, "grad_read", ad, ref, fad, ref)
