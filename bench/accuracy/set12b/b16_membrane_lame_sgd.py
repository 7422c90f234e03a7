import numpy as np
import warp as wp
from warp.optim import SGD

from _fem import Mesh, element_stress

wp.init()

ITERS = 4
P_MEAS = np.array([[1.1, 0.1], [0.05, -0.35]], dtype=np.float32)


@wp.kernel
def stress_misfit(P: wp.array(dtype=wp.mat22), area: wp.array(dtype=float), target: wp.mat22,
                  loss: wp.array(dtype=float)):
    t = wp.tid()
    R = P[t] - target
    wp.atomic_add(loss, 0, area[t] * wp.ddot(R, R))


mesh = Mesh(nx=4, ny=2)
x_obs = mesh.stretched(sx=1.2, sy=0.9, bend=0.05)


def record(mat):
    P = wp.zeros(mesh.m, dtype=wp.mat22, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(element_stress, dim=mesh.m, inputs=[x_obs, mesh.tris, mesh.Dm_inv, mat], outputs=[P])
    wp.launch(stress_misfit, dim=mesh.m, inputs=[P, mesh.area, wp.mat22(P_MEAS)], outputs=[loss])
    return loss


def objective(p):
    return float(record(wp.array(np.asarray(p, dtype=np.float32), dtype=float)).numpy()[0])


def train(mat0=(1.5, 4.0), lr=0.5):
    mat = wp.array(np.array(mat0, dtype=np.float32), dtype=float, requires_grad=True)
    opt = SGD([mat], lr=lr, momentum=0.5)
    trace = []
    for it in range(ITERS):
        tape = wp.Tape()
        with tape:
            loss = record(mat)
        grads = [wp.clone(mat.grad)]  # expect: grad_read
        tape.backward(loss)
        trace.append((mat.numpy().copy(), grads[0].numpy().copy(), float(loss.numpy()[0])))
        opt.step(grads)
        tape.zero()
    return trace


def verify():
    p, g, _ = train()[-1]
    eps = 1e-3
    fd = np.array([(objective(p + eps * e) - objective(p - eps * e)) / (2 * eps) for e in np.eye(2)])
    return g, fd


if __name__ == "__main__":
    for row in train():
        print(*row)
