"""A synthetic contact network of a retirement village (residents of three
care homes and the surrounding households), stored in ELL format: every
node has MAX_DEG neighbour slots, unused slots carry weight 0."""
import numpy as np
import warp as wp

N_NODE = 60
MAX_DEG = 12
_rng = np.random.default_rng(31)
_adj = [set() for _ in range(N_NODE)]
for i in range(N_NODE):
    for j in _rng.choice(N_NODE, size=3, replace=False):
        if i != j and len(_adj[i]) < MAX_DEG and len(_adj[j]) < MAX_DEG:
            _adj[i].add(int(j))
            _adj[j].add(i)
for i in range(N_NODE - 1):
    if len(_adj[i]) < MAX_DEG and len(_adj[i + 1]) < MAX_DEG:
        _adj[i].add(i + 1)
        _adj[i + 1].add(i)
NEIGH = np.zeros((N_NODE, MAX_DEG), dtype=np.int32)
CONTACT_W = np.zeros((N_NODE, MAX_DEG), dtype=np.float32)
for i in range(N_NODE):
    for s, j in enumerate(sorted(_adj[i])):
        NEIGH[i, s] = j
        CONTACT_W[i, s] = 0.3 + 0.7 * ((7 * i + 3 * j) % 10) / 10.0
CARE_HOME = np.zeros(N_NODE, dtype=np.float32)
CARE_HOME[[3, 4, 5, 17, 18, 19, 20, 41, 42, 43]] = 1.0
I0 = np.zeros(N_NODE, dtype=np.float32)
I0[[0, 29, 52]] = 0.3


def device_arrays():
    return (wp.array(NEIGH, dtype=int), wp.array(CONTACT_W, dtype=float))
