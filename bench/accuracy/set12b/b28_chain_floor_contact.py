import numpy as np
import warp as wp

from _cloth import Chain, integrate, spring_forces
from _ground import floor_contact

wp.init()

STEPS = 40
FLOOR_Y = -0.12
PARAMS0 = [60.0, 0.8]
FD_EPS = [1e-2, 1e-3]


class FloorChain(Chain):
    def step_with_floor(self, params, x, v):
        f = wp.zeros(self.n, dtype=wp.vec3, requires_grad=True)
        wp.launch(spring_forces, dim=self.n - 1, inputs=[x, v, self.springs, self.rest, params], outputs=[f])
        wp.launch(floor_contact, dim=self.n, inputs=[x, FLOOR_Y, 2.0e4], outputs=[f])
        x_new, v_new = self.new_state()
        wp.launch(integrate, dim=self.n, inputs=[x, v, f, self.inv_mass, self.dt], outputs=[x_new, v_new])
        return x_new, v_new


chain = FloorChain(n=8)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x, v = chain.x0, chain.v0
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            x, v = chain.step_with_floor(params, x, v)
        chain.loss(x, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
