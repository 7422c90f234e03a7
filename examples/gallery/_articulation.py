"""Joint-space model of a chain of coupled pendulums."""

import warp as wp


@wp.struct
class JointState:
    q: wp.array(dtype=float)
    qd: wp.array(dtype=float)
    tau: wp.array(dtype=float)


@wp.struct
class ChainModel:
    stiffness: wp.array(dtype=float)
    damping: float
    gravity_over_length: float


@wp.kernel
def joint_torques(state: JointState, model: ChainModel):
    i = wp.tid()
    n = state.q.shape[0]
    q = state.q[i]
    left = q
    right = q
    if i > 0:
        left = state.q[i - 1]
    if i < n - 1:
        right = state.q[i + 1]
    coupling = model.stiffness[i] * (left - 2.0 * q + right)
    state.tau[i] = -model.gravity_over_length * wp.sin(q) + coupling - model.damping * state.qd[i]


@wp.kernel
def semi_implicit_euler(state: JointState, dt: float):
    i = wp.tid()
    qd = state.qd[i] + dt * state.tau[i]
    state.qd[i] = qd  # note: TW104
    state.q[i] = state.q[i] + dt * qd  # note: TW104


def new_state(q0, requires_grad=True) -> JointState:
    s = JointState()
    s.q = wp.array(q0, dtype=float, requires_grad=requires_grad)
    s.qd = wp.zeros(len(q0), dtype=float, requires_grad=requires_grad)
    s.tau = wp.zeros(len(q0), dtype=float, requires_grad=requires_grad)
    return s


def step(state: JointState, model: ChainModel, dt: float):
    n = state.q.shape[0]
    wp.launch(joint_torques, dim=n, inputs=[state, model])  # note: TW101
    wp.launch(semi_implicit_euler, dim=n, inputs=[state, dt])  # expect: TW101  # note: TW101
