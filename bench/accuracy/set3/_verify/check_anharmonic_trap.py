from common import *

g = run_prog("anharmonic_trap.py")
sim = g["sim"]
x0 = sim.x0.astype(np.float64); v0 = sim.v0.astype(np.float64)
goal = g["goal"].numpy().astype(np.float64)
STEPS = g["STEPS"]

def objective(k):
    x = x0.copy(); v = v0.copy()
    for t in range(STEPS):
        r2 = np.sum(x * x, axis=1, keepdims=True)
        f = -(k[0] + sim.k4 * r2) * x - sim.drag * v
        v = v + sim.dt * f
        x = x + sim.dt * v
    return np.sum((x - goal) ** 2)

print("forward np", objective([2.0]), "warp", g["loss_value"])
fd = cfd(objective, [2.0], 1e-4)
record("anharmonic_trap.py", "overwrite", [g["stiffness_grad"]], fd, note="struct fields updated in place each step")

# fix: a fresh Beads struct per step
gf = run_patched("anharmonic_trap.py", [
    ("def advance(beads: Beads, stiffness", "def advance(beads: Beads, out: Beads, stiffness"),
    ("    beads.vel[i] = v\n    beads.pos[i] = x + dt * v", "    out.vel[i] = v\n    out.pos[i] = x + dt * v"),
    ("        wp.launch(advance, dim=self.n, inputs=[self.state, self.stiffness, self.k4, self.drag, self.dt])",
     "        nxt = Beads()\n        nxt.pos = wp.zeros_like(self.state.pos)\n        nxt.vel = wp.zeros_like(self.state.vel)\n        wp.launch(advance, dim=self.n, inputs=[self.state, nxt, self.stiffness, self.k4, self.drag, self.dt])\n        self.state = nxt"),
])
record("anharmonic_trap.py[fixed]", "correct", [gf["stiffness_grad"]], fd, note="fixed variant")
