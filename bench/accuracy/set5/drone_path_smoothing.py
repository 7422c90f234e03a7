"""Smooth a drone flight path through waypoints; the path gradient is kept for a heat-map overlay."""
import numpy as np
import warp as wp

NP = 16
NW = 4


@wp.kernel
def interpolate_path(waypoints: wp.array(dtype=wp.vec3), path: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    s = wp.float32(i) * wp.float32(NW - 1) / wp.float32(NP - 1)
    k = wp.min(wp.int32(s), NW - 2)
    u = s - wp.float32(k)
    h = u * u * (3.0 - 2.0 * u)
    path[i] = waypoints[k] * (1.0 - h) + waypoints[k + 1] * h


@wp.kernel
def path_cost(path: wp.array(dtype=wp.vec3), obstacle: wp.vec3, loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    if i > 0 and i < NP - 1:
        acc = path[i + 1] - 2.0 * path[i] + path[i - 1]
        wp.atomic_add(loss, 0, wp.dot(acc, acc))
    d = path[i] - obstacle
    wp.atomic_add(loss, 0, 0.2 * wp.exp(-wp.dot(d, d)))


class Planner:
    def __init__(self):
        self.path = wp.zeros(NP, dtype=wp.vec3, requires_grad=True, retain_grad=True)  # expect: retain_grad
        self.obstacle = wp.vec3(1.5, 1.0, 0.5)

    def preview(self, waypoints):
        wp.launch(interpolate_path, dim=NP, inputs=[waypoints], outputs=[self.path])
        return self.path.numpy().copy()

    def cost(self, waypoints):
        wp.launch(interpolate_path, dim=NP, inputs=[waypoints], outputs=[self.path])
        loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        wp.launch(path_cost, dim=NP, inputs=[self.path, self.obstacle], outputs=[loss])
        return loss


def smooth(iters=30, lr=0.05):
    planner = Planner()
    waypoints = wp.array(np.array([[0.0, 0.0, 0.0], [1.0, 1.5, 0.2], [2.0, 0.5, 1.0], [3.0, 1.0, 0.0]], dtype=np.float32),
                         dtype=wp.vec3, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            preview = planner.preview(waypoints)
            loss = planner.cost(waypoints)
        tape.backward(loss)
        heat = np.linalg.norm(planner.path.grad.numpy(), axis=1)
        g = waypoints.grad.numpy().copy()
        g[0] = 0.0
        g[-1] = 0.0
        history.append((waypoints.numpy().copy(), g))
        waypoints.assign(waypoints.numpy() - lr * g)
        tape.zero()
    print("cost", loss.numpy()[0], "max path sensitivity", heat.max())
    return history


if __name__ == "__main__":
    smooth()
