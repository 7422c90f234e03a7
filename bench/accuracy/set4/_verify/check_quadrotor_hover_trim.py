import warp as wp
from _harness import load, fd, report

NAME = "quadrotor_hover_trim"
m = load(NAME)
s = m.TrimSolver()
s.iterate(0.05)
s.iterate(0.05)
th, _, ad = s.iterate(0.05)


def obj(q):
    t = m.TrimSolver()
    t.thrust.assign([q[0]])
    wp.launch(m.hover, dim=1, inputs=[t.thrust, 1.0], outputs=[t.z])
    wp.launch(m.altitude_error, dim=1, inputs=[t.z, 0.4], outputs=[t.loss])
    return float(t.loss.numpy()[0])


report(NAME, "correct", [ad], fd(obj, [th]), note="3rd optimizer iteration")
