import warp as wp
from _harness import load, fd, report

NAME = "orbit_thrust_tuning"
FIX = [(NAME, "        wp.launch(accumulate_radius,", "        self.total.zero_()\n        wp.launch(accumulate_radius,")]


def run(m):
    tuner = m.OrbitTuner()
    tuner.step(0.5)
    th, _, g = tuner.step(0.5)

    def obj(q):
        t2 = m.OrbitTuner()
        t2.thrust.assign([q[0]])
        t2.forward()
        return float(t2.loss.numpy()[0])

    return [g], fd(obj, [th])


m = load(NAME)
ad, ref = run(m)
mf = load(NAME, FIX, "fixed")
fad, fref = run(mf)
report(NAME, "atomic_replay", ad, ref, fad, fref, note="2nd optimizer iteration")
