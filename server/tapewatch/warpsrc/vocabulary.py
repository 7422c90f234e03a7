"""What Warp's kernel builtins do, one table per question.

The probe's run-time checks and the static lints both answer "does this
call write its array", "does its adjoint need its arguments' values" and
"where is its derivative infinite" from these tables, so the two never give
different answers to one question.  Names are Warp's unqualified builtin
names (``atomic_add``, not ``wp.atomic_add``).
"""

from __future__ import annotations

# Builtins that write their first argument in place.
ATOMICS = frozenset({
    "atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_cas", "atomic_exch",
    "atomic_and", "atomic_or", "atomic_xor",
})
# The atomics that add their value into the array: linear in it, and what a gradient accumulates with.
ACCUMULATING_ATOMICS = frozenset({"atomic_add", "atomic_sub"})
# Everything that stores into an array argument (Warp counts these as writes).
WRITERS = ATOMICS | {"tile_store", "tile_atomic_add", "array_store"}

# Uses of an array that do not read its data.
METADATA_ATTRS = frozenset({"shape", "ndim", "size", "dtype", "strides", "ptr"})
METADATA_CALLS = frozenset({"len", "address", "view"})

# Value constructors and float casts: the result is linear in every argument.
CONSTRUCTORS = frozenset({
    "vec2", "vec3", "vec4", "vector", "mat22", "mat33", "mat44", "matrix", "quat", "quaternion",
    "vec2f", "vec3f", "vec4f", "vec2d", "vec3d", "vec4d", "spatial_vector",
})
FLOAT_CASTS = frozenset({"float", "float16", "float32", "float64"})
INT_CASTS = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})
# Sums and signs: linear, and their adjoint needs no argument's value.
ADDITIVE = frozenset({"add", "sub", "neg", "pos"})
# Tile operations that move or linearly combine values (an FFT is linear, a transpose moves values).
TILE_LINEAR = frozenset({
    "tile_load", "tile_store", "tile_atomic_add", "array_store", "tile_fft", "tile_ifft", "tile_transpose",
    "tile_broadcast", "tile_view", "tile_reshape", "tile_squeeze", "tile_sum", "tile_add", "tile_assign",
    "tile", "untile", "tile_extract",
})
# Calls whose result is linear in every argument: a value flowing through them keeps its gradient's form.
LINEAR_CALLS = CONSTRUCTORS | FLOAT_CASTS | TILE_LINEAR | {"add", "sub", "neg", "transpose", "transform_vector"}
# Calls whose adjoint never needs an argument's value (casts, sums, accumulating atomics): an argument
# overwritten after the call leaves its gradient unchanged.
VALUE_FREE_ADJOINTS = ADDITIVE | ACCUMULATING_ATOMICS | FLOAT_CASTS | INT_CASTS
# Calls linear in each argument separately (bilinear): like a product.
BILINEAR_CALLS = frozenset({"mul", "dot", "cross", "outer", "ddot", "cw_mul", "quat_rotate", "transform_point",
                            "tile_matmul"})

# Which side of its domain makes an operation overflow or its derivative infinite, i.e. which guard
# keeps it finite: LOW (``wp.max``/``clamp``/``+ eps`` below), HIGH (``wp.min``/``clamp`` above), ANY.
LOW, HIGH, ANY = "low", "high", "any"
HAZARDS = {
    "exp": HIGH, "sinh": HIGH, "cosh": HIGH, "tan": ANY,
    "log": LOW, "log2": LOW, "log10": LOW, "sqrt": LOW, "cbrt": LOW,
    "acos": ANY, "asin": ANY, "atan2": ANY, "length": LOW, "normalize": LOW,
    "inverse": ANY, "erfinv": ANY, "erfcinv": ANY, "pow": LOW,
}
# Operations whose derivative is infinite at a point an argument reaches, and why: the ones the probe
# counts at run time (it tests the argument against the hazard's side before the statement runs).
SINGULAR_DERIVATIVES = {
    "sqrt": "the derivative of sqrt(x), 1/(2·sqrt(x)), is infinite at x = 0 (NaN below)",
    "log": "the derivative of log(x), 1/x, is infinite at x = 0 (NaN below)",
    "log2": "the derivative of log2(x) is infinite at x = 0",
    "log10": "the derivative of log10(x) is infinite at x = 0",
    "acos": "the derivative of acos(x), -1/sqrt(1-x²), is infinite at x = ±1",
    "asin": "the derivative of asin(x), 1/sqrt(1-x²), is infinite at x = ±1",
    "pow": "the derivative of pow(b, e) is infinite or NaN for a base b ≤ 0",
}
# Divisions as calls (the second argument is the divisor).
DIVISIONS = ("div", "cw_div")

# Decorators that make a function Warp device code (``@wp.kernel``, ``@wp.func``...): its body runs per thread,
# not on the host.
DEVICE_DECORATORS = frozenset({"kernel", "func", "func_grad", "func_replay", "func_native"})
