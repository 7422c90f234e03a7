from _harness import load, fd, report

NAME = "cannon_launch_angle"
FIX = [(NAME, "        tape = wp.Tape()  # expect: missing_zero", "        tape = wp.Tape()\n        aim.grad.zero_()")]


def objective(m, a):
    import warp as wp
    aim = wp.array([a], dtype=wp.float64, requires_grad=True)
    pos = wp.zeros(1, dtype=wp.vec2d, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    wp.launch(m.fly, dim=1, inputs=[aim, 6.0, 0.05], outputs=[pos])
    wp.launch(m.miss_distance, dim=1, inputs=[pos, wp.vec2d(3.0, 0.5)], outputs=[loss])
    return float(loss.numpy()[0])


m = load(NAME)
a3, _, ad = m.train(3)[2]          # gradient used at the third iteration
ref = fd(lambda a: objective(m, a[0]), [a3])
mf = load(NAME, FIX, "fixed")
fa3, _, fad = mf.train(3)[2]
fref = fd(lambda a: objective(mf, a[0]), [fa3])
report(NAME, "missing_zero", [ad], ref, [fad], fref, note="3rd optimizer iteration")
