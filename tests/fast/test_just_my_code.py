"""Installed packages are not the user's code: never linted, never a finding's primary location."""

from __future__ import annotations

import ast
import os

from tapewatch import installed
from tapewatch.probe.core import naming, user_code


def _install_location(root, package="mylib"):
    (root / ("%s-1.0.dist-info" % package)).mkdir(parents=True)
    (root / package).mkdir()
    module = root / package / "__init__.py"
    module.write_text("X = 1\n")
    return module


def test_a_pip_target_folder_is_installed_code(tmp_path):
    """``pip install --target DIR`` on PYTHONPATH: no "site-packages" in the path, a .dist-info beside it."""
    module = _install_location(tmp_path / "site")
    project = tmp_path / "proj" / "train.py"
    project.parent.mkdir()
    project.write_text("")
    assert installed.is_installed(str(module))
    assert not installed.is_installed(str(project))
    assert installed.is_installed(os.path.join(os.sep, "x", "lib", "site-packages", "pkg", "m.py"))


def test_a_source_tree_with_egg_info_is_not(tmp_path):
    (tmp_path / "src" / "pkg.egg-info").mkdir(parents=True)  # left by an editable install
    module = tmp_path / "src" / "pkg" / "m.py"
    module.parent.mkdir()
    module.write_text("")
    assert not installed.is_installed(str(module))


def test_a_script_inside_an_installed_package_is_the_users_and_its_neighbours_are_not(tmp_path):
    module = _install_location(tmp_path / "site", "vendor")
    examples = module.parent / "examples"
    examples.mkdir()
    script, neighbour = examples / "example_fit.py", examples / "_shared.py"
    script.write_text("")
    neighbour.write_text("")
    user_code.user_script(str(script))
    assert user_code.is_user_file(str(script))
    assert not user_code.is_user_file(str(neighbour)) and not user_code.is_user_file(str(module))
    assert user_code.is_library_file(str(module))


def test_a_number_is_never_an_array_name():
    assert naming.user_expression(ast.parse("8", mode="eval").body, []) is None
    assert naming.user_expression(ast.parse("-1", mode="eval").body, []) is None
    assert naming.user_expression(ast.parse("state.q", mode="eval").body, []) == "state.q"
