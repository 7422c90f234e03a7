from _harness import load, fd, report

NAME = "pendulum_damping_fit"
FIX = [(NAME, "    bank.reset()  # expect: untaped_write", "    pass")]
c0 = 0.5
m = load(NAME)
bank = m.PendulumBank()
ad = m.loss_and_grad(bank, c0)[1]
ref = fd(lambda c: m.loss_and_grad(bank, c[0])[0], [c0])
mf = load(NAME, FIX, "fixed")
fbank = mf.PendulumBank()
fad = mf.loss_and_grad(fbank, c0)[1]
fref = fd(lambda c: mf.loss_and_grad(fbank, c[0])[0], [c0])
report(NAME, "untaped_write", [ad], ref, [fad], fref)
