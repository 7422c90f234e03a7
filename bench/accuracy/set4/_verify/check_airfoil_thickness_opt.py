import numpy as np
from _harness import load, fd, report

NAME = "airfoil_thickness_opt"
FIX = [(NAME, "        d_thick = self.thick.grad.numpy().copy()  # expect: grad_read\n        self.tape.backward(self.loss)\n",
        "        self.tape.backward(self.loss)\n        d_thick = self.thick.grad.numpy().copy()\n")]
c0 = np.array([0.2, 0.0, 0.05])


def run(m):
    opt = m.ShapeOptimizer()
    opt.grad(c0)
    ad = opt.grad(c0)[1]
    return ad, fd(lambda c: opt.grad(c)[0], c0)


m = load(NAME)
ad, ref = run(m)
mf = load(NAME, FIX, "fixed")
fad, fref = run(mf)
report(NAME, "grad_read", ad, ref, fad, fref, note="2nd call")
