"""Write MANIFEST.md from the measured results (results.json, fix_results.json), with the shared tables."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "_verify"))  # the shared ground-truth scripts
from manifest import write  # noqa: E402

TITLE = ("Set 24: bridge cables, wind farms, tyres, thermistors, pipe friction, battery packs, solar panels, heat "
         "exchangers, projectiles, offices, strain rosettes, RC snubbers, greenhouses, seat suspensions, lumber "
         "kilns, chimneys, sourdough, glaciers, bicycles and concrete — gradient bugs at the boundary between "
         "PyTorch and Warp, and correct look-alikes")
PROSE = [
    "All numbers below are copied by `_verify/make_manifest.py` (the shared `bench/accuracy/_verify/manifest.py`) "
    "from `_verify/results.json` (written by the shared `verify.py`) and `_verify/fix_results.json` (written by "
    "`check_fixes.py`); nothing is typed in by hand. Cold (empty kernel cache) times were not measured for this "
    "set, so that column shows `-`.\n",
    "Ground truth: the gradient the program's own code path produces (through `torch.autograd.Function`s wrapping "
    "Warp tapes, `wp.from_torch` / `wp.to_torch`, torch optimizers) vs central finite differences of the loss it "
    "reports (`rel_err = |ad - fd| / |fd|`, 2-norms; MATCH below 1e-2). Programs expose `PARAMS0` + "
    "`evaluate(p) -> (loss, grad)` or `verify() -> (ad, fd)` (the gradient used at a later call or inside an "
    "optimizer loop). Warp 1.19.0, PyTorch 2.13.0 (CPU build), CPU.\n",
    "Classes: `torch_interop` (b01-b16: the line to change at the PyTorch/Warp boundary, as the author judged "
    "it) and `missing_zero` (b17-b20: an optimisation loop that forgets to zero a gradient). The correct "
    "programs are the bug programs with `_verify/fixes.py` applied.\n",
]

if __name__ == "__main__":
    print("wrote", write(os.path.dirname(HERE), TITLE, PROSE))
