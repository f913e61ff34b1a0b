"""The README's "Use in a ROS workspace" steps, run literally in a fresh workspace.

Proves what users do: the shell block of that section (source the wheels' venv and tf2_msgs,
clone into `~/ws/src/`, `colcon build`, `source install/setup.bash`, run the CLI and the node)
runs as written with HOME in a temporary directory, where `~/sdf_tools` is a git checkout of this
tree; then the interface package and the Python package both work from the install space.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterable
from pathlib import Path

import pytest
from support.tools import skip_or_fail

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ('sdf_tools', 'sdf_tools_interfaces')
# Not copied: the repo's own environment, workspace and caches.
TOP_LEVEL_SKIP = {'.git', '.venv', 'build', 'install', 'log', '.cache',
                  '.venv-jazzy', 'build-jazzy', 'install-jazzy', 'log-jazzy'}
ANYWHERE_SKIP = shutil.ignore_patterns(
    '__pycache__', '*.egg-info', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.hypothesis',
)
PATH_VARIABLES = (
    'AMENT_PREFIX_PATH', 'CMAKE_PREFIX_PATH', 'COLCON_PREFIX_PATH', 'PYTHONPATH',
    'LD_LIBRARY_PATH', 'PATH',
)
BUILD_TIMEOUT_S = 600


def _is_repo_install(entry: str) -> bool:
    """Tell whether a search-path entry belongs to an existing build of these packages."""
    path = Path(entry)
    inside_repo_ws = any(
        path == REPO / sub or REPO / sub in path.parents
        for sub in ('build', 'install', 'build-jazzy', 'install-jazzy')
    )
    return inside_repo_ws or path.name in PACKAGES


def _clean_env() -> dict[str, str]:
    """Return the calling environment without any existing build of these packages."""
    env = dict(os.environ)
    for name in PATH_VARIABLES:
        entries = [e for e in env.get(name, '').split(os.pathsep) if e and not _is_repo_install(e)]
        if entries:
            env[name] = os.pathsep.join(entries)
        else:
            env.pop(name, None)
    if 'AMENT_PREFIX_PATH' not in env and (Path(sys.prefix) / 'share' / 'ament_cmake').is_dir():
        env['AMENT_PREFIX_PATH'] = sys.prefix  # the ROS wheels' prefix in a venv
    return env


def _find_cmake_package(name: str, prefixes: Iterable[str]) -> bool:
    return any((Path(p) / 'share' / name / 'cmake').is_dir() for p in prefixes)


def _require_toolchain(env: dict[str, str]) -> None:
    for tool in ('colcon', 'cmake'):
        if shutil.which(tool, path=env.get('PATH')) is None:
            skip_or_fail(f'{tool} is not on PATH')
    if not any(shutil.which(cxx, path=env.get('PATH')) for cxx in ('c++', 'g++', 'clang++')):
        skip_or_fail('no C++ compiler on PATH')
    prefixes = [*env.get('AMENT_PREFIX_PATH', '').split(os.pathsep), sys.prefix]
    for package in ('ament_cmake', 'rosidl_default_generators'):
        if not _find_cmake_package(package, prefixes):
            skip_or_fail(f'{package} is not installed in any AMENT_PREFIX_PATH prefix')


def _copy_repo(dest: Path) -> None:
    def ignore(directory: str, names: list[str]) -> set[str]:
        skipped = set(ANYWHERE_SKIP(directory, names))
        if Path(directory) == REPO:
            skipped |= TOP_LEVEL_SKIP & set(names)
        return skipped

    shutil.copytree(REPO, dest, ignore=ignore, symlinks=True)


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, check=False,
        timeout=BUILD_TIMEOUT_S, stdin=subprocess.DEVNULL,
    )


CHECK_INSTALL_SPACE = textwrap.dedent("""
    import ament_index_python.packages as index
    import sdf_tools
    import sdf_tools_interfaces
    from sdf_tools_interfaces.srv import Convert

    request = Convert.Request(input_path='model://demo', xacro_args=['prefix:=a_'])
    assert request.xacro_args == ['prefix:=a_'], request
    response = Convert.Response(success=True, error_line=7)
    assert response.error_line == 7 and response.losses == [], response
    print(sdf_tools.__file__)
    print(sdf_tools_interfaces.__file__)
    print(index.get_package_share_directory('sdf_tools'))
    print(index.get_package_share_directory('sdf_tools_interfaces'))
""")


README = REPO / 'README.md'


def readme_steps() -> str:
    """Return the first ```bash block of the README's "Use in a ROS workspace" section."""
    text = README.read_text(encoding='utf-8')
    section = text[text.index('## Use in a ROS workspace'):]
    section = section[:section.index('\n## ', 1)]
    match = re.search(r'```bash\n(.*?)```', section, re.S)
    assert match, 'no ```bash block in "Use in a ROS workspace"'
    return match.group(1)


def for_this_distro(steps: str) -> str:
    """The Jazzy variant the README names under the block: .venv-jazzy, ros_extra-jazzy."""
    if os.environ.get('ROS_DISTRO', 'kilted') != 'jazzy':
        return steps
    return (steps.replace('/.venv/', '/.venv-jazzy/').replace('/ros_extra/', '/ros_extra-jazzy/')
            .replace('ROS_DISTRO=kilted', 'ROS_DISTRO=jazzy'))


def _checkout(home: Path) -> None:
    """Make ~/sdf_tools a git checkout of this tree, set up as `./dev setup` leaves it."""
    checkout = home / 'sdf_tools'
    _copy_repo(checkout)
    git = ['git', '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main']
    for args in (['init', '-q'], ['add', '-A'], ['commit', '-q', '-m', 'checkout']):
        subprocess.run([*git, *args], cwd=checkout, check=True, capture_output=True)
    (checkout / '.cache').mkdir()
    for name in ('.venv', '.venv-jazzy'):
        if (REPO / name).exists():
            (checkout / name).symlink_to((REPO / name).resolve())
    for name in ('ros_extra', 'ros_extra-jazzy'):
        if (REPO / '.cache' / name).exists():
            (checkout / '.cache' / name).symlink_to((REPO / '.cache' / name).resolve())


@pytest.fixture(scope='module')
def readme_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """Run the README's block, as written, with HOME in a fresh temporary directory."""
    if not (REPO / 'sdf_tools_interfaces' / 'package.xml').is_file():
        pytest.skip(f'{REPO} is not the sdf_tools source repository')
    env = _clean_env()
    _require_toolchain(env)
    home = tmp_path_factory.mktemp('home')
    _checkout(home)
    for name in ('VIRTUAL_ENV', 'ROS_DISTRO'):
        env.pop(name, None)
    env['HOME'] = str(home)
    result = _run(['bash', '-e', '-c', for_this_distro(readme_steps())], home, env)
    assert result.returncode == 0, (
        f'the README steps failed:\n{result.stdout[-6000:]}\n{result.stderr[-6000:]}')
    return home / 'ws', result


@pytest.fixture(scope='module')
def workspace(readme_run: tuple[Path, subprocess.CompletedProcess[str]]) -> Path:
    return readme_run[0]


def test_the_readme_steps_run_the_cli_and_the_node(
        readme_run: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """Issue 21 §5: the section left out which ROS to source, tf2_msgs, and had a placeholder."""
    _, result = readme_run
    assert 'demo_world.sdf' not in result.stderr or 'Traceback' not in result.stderr, result.stderr
    assert 'world' in result.stdout, result.stdout  # the frame tree
    assert ': publishing' in result.stdout + result.stderr, result.stdout + result.stderr
    assert 'ModuleNotFoundError' not in result.stderr, result.stderr
    assert '<this repository>' not in README.read_text(encoding='utf-8')


def test_colcon_build_installs_both_packages(workspace: Path) -> None:
    for package in PACKAGES:
        share = workspace / 'install' / package / 'share' / package
        assert (share / 'package.xml').is_file(), f'{package} is not in the install space'


def test_install_space_has_the_sdf_tools_console_script(workspace: Path) -> None:
    script = workspace / 'install' / 'sdf_tools' / 'lib' / 'sdf_tools' / 'sdf_tools'
    assert script.is_file(), f'no console script at {script}'
    assert os.access(script, os.X_OK), f'{script} is not executable'


def test_sourced_install_space_provides_convert_service_and_package(workspace: Path) -> None:
    install = workspace / 'install'
    command = f'source {install / "setup.bash"} && python3 -c "$CHECK"'
    env = {**_clean_env(), 'CHECK': CHECK_INSTALL_SPACE}
    result = _run(['bash', '-c', command], workspace, env)
    assert result.returncode == 0, f'import from the install space failed:\n{result.stderr}'
    locations = result.stdout.split()
    assert len(locations) == 4, result.stdout
    for location in locations:
        assert Path(location).is_relative_to(install), f'{location} is not in {install}'


def test_installed_console_script_runs(workspace: Path) -> None:
    install = workspace / 'install'
    script = install / 'sdf_tools' / 'lib' / 'sdf_tools' / 'sdf_tools'
    command = f'source {install / "setup.bash"} && {script} --help'
    result = _run(['bash', '-c', command], workspace, _clean_env())
    assert result.returncode == 0, f'sdf_tools --help failed:\n{result.stdout}{result.stderr}'
    assert 'frames' in result.stdout, result.stdout
