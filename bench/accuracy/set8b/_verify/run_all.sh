#!/bin/bash
# Run every program standalone (exit code, wall time), then the FD check, then the fixed variants.
cd "$(dirname "$0")/.."
PY=${PY:-python}
mkdir -p _scratch
for f in b*.py c*.py; do
  s=$(date +%s.%N); $PY $f > _scratch/run_${f%.py}.log 2>&1; rc=$?; e=$(date +%s.%N)
  printf "%-45s rc=%d  %.1fs\n" $f $rc $(echo "$e - $s" | bc)
done
$PY _verify/verify.py --json _verify/results.json b*.py c*.py
$PY _verify/check_fixes.py
