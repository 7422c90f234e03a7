"""Warp's own differentiable examples are correct programs: Tapewatch must not accuse them.

They are copied out of the installed Warp (so that they are the user's
code, not a library's), shrunk through their own command-line options, and
run under the probe with every check on.  Information findings are allowed
(harmless scratch reuse in the FFT solver, a linear CG solve): warnings and
errors are not.  Newest Warp only: the examples change between releases.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

from tapewatch.runner import RunRequest, run_probe

warp = pytest.importorskip("warp")
EXAMPLES = Path(warp.__file__).parent / "examples"

CASES = [
    ("optim/example_particle_repulsion.py", ["--num-frames", "20", "--headless"]),
    ("optim/example_fluid_checkpoint.py", ["--train-iters", "2", "--num-frames", "24", "--pressure-iterations", "8",
                                           "--headless"]),
    ("optim/example_fluid_checkpoint_custom_backward.py",
     ["--train-iters", "2", "--num-frames", "24", "--pressure-iterations", "8", "--headless"]),
    ("optim/example_navier_stokes_perturbation.py", ["--spin-up-steps", "10", "--lead-steps", "8",
                                                     "--train-iters", "3", "--headless"]),
    ("fem/example_cantilever_topology_optimization.py", ["--nx", "8", "--ny", "4", "--max-evals", "3",
                                                         "--headless"]),
    ("fem/example_darcy_ls_optimization.py", ["--resolution", "10", "--num-iters", "3", "--headless"]),
    ("fem/example_elastic_shape_optimization.py", ["--resolution", "6", "--num-iters", "3", "--headless"]),
    # PyTorch interop: a torch.autograd.Function whose backward launches the kernel's adjoint itself
    ("core/example_torch.py", ["--num-frames", "3", "--train-iters", "2", "--headless"]),
]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("example,args", CASES, ids=[c[0].split("/")[-1][8:-3] for c in CASES])
def test_warps_own_examples_are_clean(tmp_path, example, args):
    source = EXAMPLES / example
    if not source.exists():
        pytest.skip("this Warp has no %s" % example)
    script = tmp_path / source.name
    shutil.copy(source, script)
    result = asyncio.run(run_probe(RunRequest(script=str(script), python=sys.executable, args=args,
                                              timeout=540)))
    assert result.outcome == "ok", (result.findings, result.stderr_tail[-2000:])
    assert not result.incomplete
    accused = [(f.code, f.location.line if f.location else None, f.message[:200]) for f in result.findings
               if f.severity in ("warning", "error")]
    assert accused == []
