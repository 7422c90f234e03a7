"""Pinhole camera helpers (camera looks down +z)."""

import warp as wp


@wp.func
def world_to_camera(p: wp.vec3, t: wp.vec3):
    return p - t


@wp.func
def project(pc: wp.vec3, focal: float, near: float):
    pc.z = wp.max(pc.z, near)  # expect: component_reassign
    return wp.vec2(focal * pc.x / pc.z, focal * pc.y / pc.z)
