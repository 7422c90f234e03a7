"""A 4-panel Warren truss footbridge: geometry and member forces for two load cases.

The truss is statically determinate, so member forces follow from equilibrium
alone (computed here once with NumPy); member areas only change elongations.
"""
import numpy as np

E_STEEL = 210e3  # N/mm^2


def warren_truss(span=12000.0, height=1500.0):
    nb = 5  # bottom chord nodes
    bx = np.linspace(0.0, span, nb)
    tx = 0.5 * (bx[:-1] + bx[1:])
    nodes = np.vstack([np.stack([bx, np.zeros(nb)], 1), np.stack([tx, np.full(nb - 1, height)], 1)])
    mem = [(i, i + 1) for i in range(nb - 1)] + [(nb + i, nb + i + 1) for i in range(nb - 2)]
    for i in range(nb - 1):
        mem += [(i, nb + i), (nb + i, i + 1)]
    return nodes, np.array(mem)


def member_forces(nodes, mem, loads):
    """Solve the equilibrium equations for pinned support at node 0 and roller at node 4."""
    n = len(nodes)
    a = np.zeros((2 * n, len(mem) + 3))
    for k, (i, j) in enumerate(mem):
        d = nodes[j] - nodes[i]
        d = d / np.linalg.norm(d)
        a[2 * i:2 * i + 2, k] += d
        a[2 * j:2 * j + 2, k] -= d
    a[0, -3] = 1.0
    a[1, -2] = 1.0
    a[2 * 4 + 1, -1] = 1.0
    f = np.linalg.lstsq(a, -loads.ravel(), rcond=None)[0]
    return f[:len(mem)]


def load_cases():
    nodes, mem = warren_truss()
    lengths = np.linalg.norm(nodes[mem[:, 1]] - nodes[mem[:, 0]], axis=1)
    crowd = np.zeros((len(nodes), 2))
    crowd[1:4, 1] = -40e3  # N, pedestrians on the deck nodes
    vehicle = np.zeros((len(nodes), 2))
    vehicle[1, 1] = -90e3  # maintenance vehicle near the left support
    vehicle[2, 1] = -30e3
    forces = np.stack([member_forces(nodes, mem, crowd), member_forces(nodes, mem, vehicle)])
    return lengths.astype(np.float32), forces.astype(np.float32)
