import numpy as np
import warp as wp
from _harness import load, fd, report

NAME = "spring_mass_calibration"
FIX = [(NAME, "        tape.zero()  # expect: missing_zero", "        self.k.grad.zero_()\n        self.c.grad.zero_()")]


def run(m):
    cal = m.Calibrator()
    cal.step(0.05)
    cal.step(0.05)
    p = np.concatenate([cal.k.numpy(), cal.c.numpy()])
    _, gk, gc = cal.step(0.05)
    ad = np.concatenate([gk, gc])

    def obj(q):
        c2 = m.Calibrator()
        c2.k.assign(q[:3])
        c2.c.assign(q[3:])
        c2.loss.zero_()
        wp.launch(m.oscillate, dim=3, inputs=[c2.k, c2.c, c2.x0], outputs=[c2.traj])
        wp.launch(m.traj_loss, dim=(3, m.STEPS), inputs=[c2.traj, c2.meas], outputs=[c2.loss])
        return float(c2.loss.numpy()[0])

    return ad, fd(obj, p)


m = load(NAME)
ad, ref = run(m)
mf = load(NAME, FIX, "fixed")
fad, fref = run(mf)
report(NAME, "missing_zero", ad, ref, fad, fref, note="3rd optimizer iteration")
