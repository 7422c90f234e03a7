"""Compacted contact lists held in a struct, with a slot allocator that replays in the backward pass."""

import warp as wp


@wp.struct
class ContactList:
    count: wp.array(dtype=int)
    particle: wp.array(dtype=int)
    depth: wp.array(dtype=float)
    slot_of: wp.array(dtype=int)


def contact_list(capacity):
    cl = ContactList()
    cl.count = wp.zeros(1, dtype=int)
    cl.particle = wp.full(capacity, -1, dtype=int)
    cl.depth = wp.zeros(capacity, dtype=float, requires_grad=True)
    cl.slot_of = wp.full(capacity, -1, dtype=int)
    return cl


@wp.func
def claim(cl: ContactList, tid: int):
    s = wp.atomic_add(cl.count, 0, 1)
    cl.slot_of[tid] = s
    return s


@wp.func_replay(claim)
def replay_claim(cl: ContactList, tid: int):
    return cl.slot_of[tid]


@wp.kernel
def penalty_energy(cl: ContactList, stiffness: float, energy: wp.array(dtype=float)):
    s = wp.tid()
    d = cl.depth[s]
    wp.atomic_add(energy, 0, stiffness * d * d * d / 3.0)
