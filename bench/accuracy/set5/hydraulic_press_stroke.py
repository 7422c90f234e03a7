"""Shape the valve-command profile of a hydraulic press so the ram follows a reference stroke."""
import numpy as np
import warp as wp

T = 30


@wp.kernel(enable_backward=False)  # expect: adjoint_disabled
def valve_flow(command: wp.array(dtype=wp.float32), flow: wp.array(dtype=wp.float32)):
    t = wp.tid()
    u = command[t]
    flow[t] = 2.0 * u / wp.sqrt(1.0 + u * u)


@wp.kernel
def ram_step(flow: wp.array(dtype=wp.float32), pos: wp.array(dtype=wp.float32), vel: wp.array(dtype=wp.float32),
             dt: wp.float32, t: int):
    a = flow[t] - 0.8 * vel[t] - 0.5 * pos[t]
    vel[t + 1] = vel[t] + dt * a
    pos[t + 1] = pos[t] + dt * vel[t + 1]


@wp.kernel
def stroke_error(pos: wp.array(dtype=wp.float32), ref: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    t = wp.tid()
    d = pos[t] - ref[t]
    wp.atomic_add(loss, 0, d * d)


def reference():
    s = np.linspace(0.0, 1.0, T + 1)
    return wp.array((0.5 * (1.0 - np.cos(np.pi * s))).astype(np.float32), dtype=wp.float32)


def tracking_error(command, ref, dt=0.1):
    flow = wp.zeros(T, dtype=wp.float32, requires_grad=True)
    pos = wp.zeros(T + 1, dtype=wp.float32, requires_grad=True)
    vel = wp.zeros(T + 1, dtype=wp.float32, requires_grad=True)
    wp.launch(valve_flow, dim=T, inputs=[command], outputs=[flow])
    for t in range(T):
        wp.launch(ram_step, dim=1, inputs=[flow, pos, vel, dt, t])
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(stroke_error, dim=T + 1, inputs=[pos, ref], outputs=[loss])
    return loss


def shape(iters=40, lr=0.05):
    ref = reference()
    command = wp.array(np.full(T, 0.2, dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = tracking_error(command, ref)
        tape.backward(loss)
        g = command.grad.numpy().copy()
        history.append((command.numpy().copy(), g))
        command.assign(command.numpy() - lr * g)
        tape.zero()
    print("stroke error", loss.numpy()[0])
    return history


if __name__ == "__main__":
    shape()
