from _harness import load, fd, report

NAME = "heat_rod_reaction"
FIX = [(NAME, "wp.copy(self.u, self.u_next)", "self.u, self.u_next = self.u_next, wp.zeros_like(self.u_next)")]
r0 = 2.0
m = load(NAME)
ad = m.loss_and_grad(r0)[1]
ref = fd(lambda r: m.loss_and_grad(r[0])[0], [r0])
mf = load(NAME, FIX, "fixed")
fad = mf.loss_and_grad(r0)[1]
fref = fd(lambda r: mf.loss_and_grad(r[0])[0], [r0])
report(NAME, "overwrite", [ad], ref, [fad], fref)
