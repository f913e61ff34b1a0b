#!/usr/bin/env python3
"""Benchmark: sdf_tools load+validate+resolve-all-frames vs ``ign sdf -k`` (libsdformat 12).

Generates SDFormat 1.9 worlds of N models x 10 links (default N = 10, 100, 1000) and, for each
N in the same run:

* ours: ``load_file`` (parse, read, validate, build frame graphs) + ``inspect_json`` (resolve
  every frame's world pose), each repetition in a fresh Python subprocess; best of ``--repeat``
  wall times (``time.perf_counter`` around the work only, imports excluded, plus the garbage
  collector passes the load leaves to its caller, shown as "(gc s)") and the end-to-end
  process time (interpreter start + imports + work, comparable to a whole ``ign`` process).
  Peak memory: the worker's peak resident set size (``VmHWM`` of /proc/self/status, falling back
  to ``getrusage(RUSAGE_SELF).ru_maxrss``), i.e. the whole process, interpreter and imported
  libraries included -- not just Python objects (tracemalloc would miss lxml's C memory).
* ign: ``ign sdf -k FILE`` under ``/usr/bin/time -v`` (its "Maximum resident set size"; without
  GNU time, a tiny Python wrapper reads RUSAGE_CHILDREN), with a timeout; on timeout the row shows
  ">timeout" and the ratio is a lower bound. A memory guard kills ign above ``--ign-max-rss-mb``
  (also reported as a lower bound) so a huge world cannot take the shared machine down.

Prints a table, a linearity check (our time per link at each N) and PASS/FAIL for the target
(the N=1000 world in <= 1 s and <= 300 MB). Always exits 0 unless the benchmark itself crashed.

    python3 bench/bench_load.py                        # N = 10,100,1000
    python3 bench/bench_load.py --sizes 10,100 --json out.json
    python3 bench/bench_load.py --skip-ign-above 100 --ign-timeout 120
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compiled_install import build_compiled, build_default, build_env  # noqa: E402

LINKS_PER_MODEL = 10
TARGET_N = 1000
# Targets at N=TARGET_N, whole processes measured in the same run (issue 19): the default
# build at most this many times lxml's bare parse of the same file ...
TARGET_LXML_RATIO = 2.0
# ... and at least this many times faster than Drake's parser (pydrake's Parser.AddModels).
TARGET_DRAKE_RATIO = 10.0
TARGET_MB = 300.0


# ---------------------------------------------------------------------------------------------
# World generator
# ---------------------------------------------------------------------------------------------

def _f(x: float) -> str:
    return f'{x:.6g}'


def _quat(rng: random.Random) -> tuple[float, float, float, float]:
    """A random unit quaternion, (x, y, z, w)."""
    while True:
        q = [rng.uniform(-1, 1) for _ in range(4)]
        n = math.sqrt(sum(c * c for c in q))
        if 0.1 < n <= 1.0:
            return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def _pose(rng: random.Random, style: str, relative_to: str | None = None,
          xyz: tuple[float, float, float] | None = None, indent: str = '') -> str:
    """A <pose> element in one of three styles: radians, degrees, quat_xyzw."""
    x, y, z = xyz if xyz is not None else (rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1),
                                           rng.uniform(0.05, 0.3))
    attrs = f' relative_to="{relative_to}"' if relative_to else ''
    if style == 'deg':
        rpy = ' '.join(_f(rng.uniform(-45, 45)) for _ in range(3))
        return f'{indent}<pose{attrs} degrees="true">{_f(x)} {_f(y)} {_f(z)} {rpy}</pose>\n'
    if style == 'quat':
        q = ' '.join(repr(c) for c in _quat(rng))
        return (f'{indent}<pose{attrs} rotation_format="quat_xyzw">'
                f'{_f(x)} {_f(y)} {_f(z)} {q}</pose>\n')
    rpy = ' '.join(_f(rng.uniform(-0.8, 0.8)) for _ in range(3))
    return f'{indent}<pose{attrs}>{_f(x)} {_f(y)} {_f(z)} {rpy}</pose>\n'


def _link(rng: random.Random, name: str, pose: str, ind: str) -> str:
    sx, sy, sz = (rng.uniform(0.05, 0.3) for _ in range(3))
    m = rng.uniform(0.5, 5.0)
    ixx = m * (sy * sy + sz * sz) / 12
    iyy = m * (sx * sx + sz * sz) / 12
    izz = m * (sx * sx + sy * sy) / 12
    size = f'{_f(sx)} {_f(sy)} {_f(sz)}'
    i2 = ind + '  '
    return (
        f'{ind}<link name="{name}">\n'
        + pose
        + f'{i2}<inertial>\n'
        f'{i2}  <pose>0 0 {_f(sz / 2)} 0 0 0</pose>\n'
        f'{i2}  <mass>{_f(m)}</mass>\n'
        f'{i2}  <inertia><ixx>{ixx:.9g}</ixx><ixy>0</ixy><ixz>0</ixz>'
        f'<iyy>{iyy:.9g}</iyy><iyz>0</iyz><izz>{izz:.9g}</izz></inertia>\n'
        f'{i2}</inertial>\n'
        f'{i2}<visual name="visual">\n'
        f'{i2}  <pose>0 0 {_f(sz / 2)} 0 0 0</pose>\n'
        f'{i2}  <geometry><box><size>{size}</size></box></geometry>\n'
        f'{i2}</visual>\n'
        f'{i2}<collision name="collision">\n'
        f'{i2}  <pose>0 0 {_f(sz / 2)} 0 0 0</pose>\n'
        f'{i2}  <geometry><box><size>{size}</size></box></geometry>\n'
        f'{i2}</collision>\n'
        f'{ind}</link>\n')


def _joint(rng: random.Random, name: str, parent: str, child: str, pose: str, ind: str,
           expressed_in_model: bool) -> str:
    axis = rng.choice(('1 0 0', '0 1 0', '0 0 1'))
    ei = ' expressed_in="__model__"' if expressed_in_model else ''
    lo = rng.uniform(-3.0, -0.5)
    i2 = ind + '  '
    return (
        f'{ind}<joint name="{name}" type="revolute">\n'
        + pose
        + f'{i2}<parent>{parent}</parent>\n'
        f'{i2}<child>{child}</child>\n'
        f'{i2}<axis>\n'
        f'{i2}  <xyz{ei}>{axis}</xyz>\n'
        f'{i2}  <limit><lower>{_f(lo)}</lower><upper>{_f(-lo)}</upper>'
        f'<effort>{_f(rng.uniform(5, 100))}</effort><velocity>{_f(rng.uniform(0.5, 5))}</velocity>'
        f'</limit>\n'
        f'{i2}  <dynamics><damping>{_f(rng.uniform(0, 0.5))}</damping>'
        f'<friction>{_f(rng.uniform(0, 0.1))}</friction></dynamics>\n'
        f'{i2}</axis>\n'
        f'{ind}</joint>\n')


STYLES = ('rad', 'deg', 'quat')


def model_sdf(i: int, rng: random.Random) -> str:
    """One model: a chain of 10 links and 9 revolute joints, 3 frames; every 4th model puts
    its last 4 links (and the joints between them) in a nested model ``arm``.

    Joint poses are relative_to the parent link, link poses relative_to their joint (inside the
    nested model, the first link sits at the nested model's frame, which is relative_to the
    joint that carries it). Pose styles rotate through radians, degrees and quat_xyzw.
    """
    nested = i % 4 == 0
    split = 6 if nested else LINKS_PER_MODEL   # links [split, 10) go into the nested model
    ind = '    '
    i2 = ind + '  '
    style = STYLES[i % 3]
    row, col = divmod(i, 40)
    out = [f'{ind}<model name="m{i}">\n',
           _pose(rng, style, None, (col * 2.0, row * 2.0, 0.0), i2)]
    for k in range(split):
        if k == 0:
            pose = _pose(rng, 'rad', None, (0.0, 0.0, 0.1), i2 + '  ')
        else:
            pose = _pose(rng, STYLES[(i + k) % 3], f'j{k}', (0.0, 0.0, 0.0), i2 + '  ')
        out.append(_link(rng, f'l{k}', pose, i2))
    for k in range(1, split):
        pose = _pose(rng, STYLES[(i + 2 * k) % 3], f'l{k - 1}', None, i2 + '  ')
        out.append(_joint(rng, f'j{k}', f'l{k - 1}', f'l{k}', pose, i2, k % 3 == 0))
    last = f'l{LINKS_PER_MODEL - 1}'
    if nested:
        # The joint into the nested model lives in the outer model and names arm::l6.
        pose = _pose(rng, 'deg', f'l{split - 1}', None, i2 + '  ')
        out.append(_joint(rng, f'j{split}', f'l{split - 1}', f'arm::l{split}', pose, i2, False))
        i3 = i2 + '  '
        out.append(f'{i2}<model name="arm">\n')
        out.append(_pose(rng, 'rad', f'j{split}', (0.0, 0.0, 0.0), i3))
        for k in range(split, LINKS_PER_MODEL):
            pose = ('' if k == split
                    else _pose(rng, STYLES[(i + k) % 3], f'j{k}', (0.0, 0.0, 0.0), i3 + '  '))
            out.append(_link(rng, f'l{k}', pose, i3))
        for k in range(split + 1, LINKS_PER_MODEL):
            pose = _pose(rng, STYLES[(i + 2 * k) % 3], f'l{k - 1}', None, i3 + '  ')
            out.append(_joint(rng, f'j{k}', f'l{k - 1}', f'l{k}', pose, i3, k % 2 == 0))
        out.append(f'{i3}<frame name="wrist" attached_to="l{split + 1}">\n'
                   + _pose(rng, 'quat', f'l{split + 1}', None, i3 + '  ')
                   + f'{i3}</frame>\n')
        out.append(f'{i2}</model>\n')
        last = f'arm::{last}'
    # Frames: one on the base (degrees, relative to the model frame), a tool frame on the last
    # link (quaternion) and a tip frame attached to the tool frame (a frame-to-frame chain).
    out.append(f'{i2}<frame name="base_mount" attached_to="l0">\n'
               + _pose(rng, 'deg', '__model__', None, i2 + '  ') + f'{i2}</frame>\n')
    out.append(f'{i2}<frame name="tool" attached_to="{last}">\n'
               + _pose(rng, 'quat', last, None, i2 + '  ') + f'{i2}</frame>\n')
    out.append(f'{i2}<frame name="tool_tip" attached_to="tool">\n'
               + _pose(rng, 'rad', None, (0.0, 0.0, 0.05), i2 + '  ') + f'{i2}</frame>\n')
    out.append(f'{ind}</model>\n')
    return ''.join(out)


def world_sdf(n_models: int, seed: int = 0) -> str:
    rng = random.Random(seed * 1_000_003 + n_models)
    parts = ['<?xml version="1.0"?>\n',
             f'<!-- sdf_tools bench: {n_models} models x {LINKS_PER_MODEL} links -->\n',
             '<sdf version="1.9">\n',
             f'  <world name="bench_{n_models}">\n',
             '    <frame name="arena">\n'
             '      <pose degrees="true">1 2 0 0 0 30</pose>\n'
             '    </frame>\n']
    for i in range(n_models):
        parts.append(model_sdf(i, rng))
    parts.append('  </world>\n</sdf>\n')
    return ''.join(parts)


def count_expected(n_models: int) -> dict[str, int]:
    nested = sum(1 for i in range(n_models) if i % 4 == 0)
    return {'links': n_models * LINKS_PER_MODEL,
            'joints': n_models * (LINKS_PER_MODEL - 1),
            'frames': n_models * 3 + nested + 1,
            'models': n_models + nested}


# ---------------------------------------------------------------------------------------------
# Our worker (runs in a fresh subprocess)
# ---------------------------------------------------------------------------------------------

def _vm_hwm_kb() -> int | None:
    try:
        with open('/proc/self/status', encoding='ascii') as fh:
            for line in fh:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _load_average() -> str:
    try:
        return ', '.join(f'{x:.1f}' for x in os.getloadavg())
    except OSError:
        return '?'


def worker(path: str, profile_out: str | None, profiler: str = 'cprofile') -> None:
    t_start = time.perf_counter()
    from sdf_tools.load import load_file
    from sdf_tools.resolved import resolve
    t_imported = time.perf_counter()
    base_kb = _vm_hwm_kb()
    prof = None
    if profile_out and profiler == 'pyinstrument':
        from pyinstrument import Profiler
        prof = Profiler(interval=0.0005)
        prof.start()
    elif profile_out:
        import cProfile
        prof = cProfile.Profile()
        prof.enable()
    cpu0 = os.times()
    t0 = time.perf_counter()
    r = load_file(path)
    t1 = time.perf_counter()
    out = resolve(r)
    t2 = time.perf_counter()
    # The cyclic GC's first passes after loading: a loader that pauses the collector (gc.disable)
    # leaves every object it made in generation 0, and the next collection must traverse them
    # all. That cost lands on the caller's next few thousand allocations, so it is measured here
    # (and counted) by making 10,000 small containers, which triggers those passes.
    probe = [[] for _ in range(10_000)]
    t3 = time.perf_counter()
    del probe
    if prof is not None and profiler == 'pyinstrument':
        prof.stop()
        Path(profile_out).write_text(prof.output_text(unicode=False, color=False),  # type: ignore
                                     encoding='utf-8')
    elif prof is not None:
        prof.disable()
        prof.dump_stats(profile_out)
    hwm = _vm_hwm_kb()
    cpu1 = os.times()
    from sdf_tools import _native
    print(json.dumps({
        # The hot modules compiled by mypyc (SDF_TOOLS_COMPILE=1, sdf_tools/_native.py) or not.
        'native': _native.in_use(), 'module': _native.__file__,
        'seconds': t3 - t0, 'load_seconds': t1 - t0, 'resolve_seconds': t2 - t1,
        'gc_after_seconds': t3 - t2,
        'import_seconds': t_imported - t_start,
        'hwm_kb': hwm, 'baseline_hwm_kb': base_kb,
        'ru_maxrss_kb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        # The spec-check worker of a large world (sdf/spec/parallel.py): its peak memory
        # and the CPU time of both processes (more than the wall time when both ran).
        'child_maxrss_kb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        'cpu_seconds': (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system),
        'child_cpu_seconds': ((cpu1.children_user - cpu0.children_user)
                              + (cpu1.children_system - cpu0.children_system)),
        'valid': r.valid, 'errors': [f'{d.code.name}: {d.message}' for d in r.errors][:5],
        'n_errors': len(r.errors), 'n_warnings': len(r.warnings),
        'links': len(out.links), 'joints': len(out.joints), 'frames': len(out.frames),
        'models': len(out.models),
        'unresolved': sum(1 for group in (out.links, out.joints, out.frames, out.models)
                          for e in group if e.world is None),
    }))


def ours_once(path: Path, env: dict[str, str]) -> dict:
    """One fresh worker process on ``path``: what it measured, and its whole-process time."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), '--_worker',
                           str(path)], env=env, capture_output=True, text=True, check=False)
    e2e = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f'our worker failed on {path} (exit {proc.returncode}):\n'
                           f'{proc.stderr[-4000:]}')
    data: dict = json.loads(proc.stdout.strip().splitlines()[-1])
    data['e2e_seconds'] = e2e
    return data


def summarize_ours(runs: list[dict]) -> dict:
    """The best of several worker runs (times: the fastest; memory: the largest)."""
    best = min(runs, key=lambda d: d['seconds'])
    peak_kb = max((d['hwm_kb'] or d['ru_maxrss_kb']) for d in runs)
    return {
        'seconds': best['seconds'], 'load_seconds': best['load_seconds'],
        'resolve_seconds': best['resolve_seconds'], 'gc_after_seconds': best['gc_after_seconds'],
        'e2e_seconds': min(d['e2e_seconds'] for d in runs),
        'import_seconds': min(d['import_seconds'] for d in runs),
        'all_seconds': [d['seconds'] for d in runs],
        'peak_mb': peak_kb / 1024.0,
        'baseline_mb': max((d['baseline_hwm_kb'] or 0) for d in runs) / 1024.0,
        'ru_maxrss_mb': max(d['ru_maxrss_kb'] for d in runs) / 1024.0,
        'child_mb': max(d['child_maxrss_kb'] for d in runs) / 1024.0,
        'cpu_seconds': best['cpu_seconds'], 'child_cpu_seconds': best['child_cpu_seconds'],
        'native': best['native'], 'module': best['module'],
        'valid': best['valid'], 'n_errors': best['n_errors'], 'errors': best['errors'],
        'n_warnings': best['n_warnings'], 'links': best['links'], 'joints': best['joints'],
        'frames': best['frames'], 'models': best['models'], 'unresolved': best['unresolved'],
    }


LXML_PARSE = '''
import sys, time
from lxml import etree
t0 = time.perf_counter()
tree = etree.parse(sys.argv[1])
t1 = time.perf_counter()
del tree
print(t1 - t0)
'''


def lxml_once(path: Path, env: dict[str, str]) -> tuple[float, float]:
    """lxml's bare parse of ``path`` in a fresh process: its time in the process and the whole
    process's; any lxml-based reader's floor."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, '-c', LXML_PARSE, str(path)], env=env,
                          capture_output=True, text=True, check=True)
    return float(proc.stdout.strip().splitlines()[-1]), time.perf_counter() - t0


DRAKE_PARSE = '''
import sys, time
from pydrake.multibody.parsing import Parser
from pydrake.multibody.plant import MultibodyPlant
t0 = time.perf_counter()
plant = MultibodyPlant(0.0)
Parser(plant).AddModels(sys.argv[1])
print(time.perf_counter() - t0, plant.num_bodies())
'''


def drake_once(path: Path) -> dict:
    """Drake's parser (``Parser.AddModels`` into a ``MultibodyPlant``, its own libsdformat) on
    ``path`` in a fresh process: its time in the process and the whole process's."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, '-c', DRAKE_PARSE, str(path)],
                          capture_output=True, text=True, check=False, cwd=tempfile.gettempdir())
    e2e = time.perf_counter() - t0
    if proc.returncode != 0:
        return {'error': proc.stderr.strip()[-500:]}
    seconds, n = proc.stdout.split()[-2:]
    return {'seconds': float(seconds), 'e2e_seconds': e2e, 'bodies': int(n)}


def measure_round_robin(path: Path, repeat: int, env: dict[str, str],
                        compiled_env: dict[str, str] | None, serial: bool,
                        drake: bool) -> dict:
    """Every contender once per round, ``repeat`` rounds; the best of each.

    Round by round rather than one contender after the other: on a shared machine whose
    speed swings within minutes, each ratio then compares runs made in the same minutes.
    """
    runs: dict[str, list] = {'ours': [], 'compiled': [], 'serial': [], 'lxml': [], 'drake': []}
    for _ in range(repeat):
        runs['ours'].append(ours_once(path, env))
        if compiled_env is not None:
            runs['compiled'].append(ours_once(path, compiled_env))
        if serial:  # the spec check in this process (no second core used)
            runs['serial'].append(ours_once(path, {**env, 'SDF_TOOLS_PARALLEL_CHECK': '0'}))
        runs['lxml'].append(lxml_once(path, env))
        if drake and not any('error' in d for d in runs['drake']):
            runs['drake'].append(drake_once(path))
    ok = [d for d in runs['drake'] if 'error' not in d]
    drake_best = None
    if ok:
        drake_best = {'seconds': min(d['seconds'] for d in ok),
                      'e2e_seconds': min(d['e2e_seconds'] for d in ok), 'bodies': ok[0]['bodies']}
    elif runs['drake']:
        drake_best = runs['drake'][-1]  # its error
    return {
        'ours': summarize_ours(runs['ours']),
        'compiled': summarize_ours(runs['compiled']) if runs['compiled'] else None,
        'serial': summarize_ours(runs['serial']) if runs['serial'] else None,
        'lxml_seconds': min(t for t, _ in runs['lxml']),
        'lxml_e2e_seconds': min(e for _, e in runs['lxml']),
        'drake': drake_best,
    }


# ---------------------------------------------------------------------------------------------
# ign sdf -k
# ---------------------------------------------------------------------------------------------

IGN_WRAPPER = r'''
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:])
sys.stderr.write("\n\tMaximum resident set size (kbytes): %d\n"
                 % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(p.returncode)
'''


def _mem_total_gb() -> float:
    try:
        with open('/proc/meminfo', encoding='ascii') as fh:
            for line in fh:
                if line.startswith('MemTotal:'):
                    return int(line.split()[1]) / 1024.0 / 1024.0
    except OSError:
        pass
    return float('nan')


def default_ign_mem_guard_mb() -> float:
    try:
        with open('/proc/meminfo', encoding='ascii') as fh:
            for line in fh:
                if line.startswith('MemAvailable:'):
                    return min(16000.0, 0.6 * int(line.split()[1]) / 1024.0)
    except OSError:
        pass
    return 8000.0


def ign_command() -> list[str] | None:
    ign = shutil.which('ign')
    return [ign, 'sdf', '-k'] if ign else None


def ign_env() -> dict[str, str]:
    env = dict(os.environ)
    # ign (ignition-tools 1.x) finds the sdformat12 command through the yaml files in
    # /usr/share/ignition/ (the default), or in IGN_CONFIG_PATH when that is set. A stale
    # IGN_CONFIG_PATH without sdformat12.yaml breaks `ign sdf`, so make sure it is reachable.
    sys_dir = '/usr/share/ignition'
    cur = env.get('IGN_CONFIG_PATH')
    if cur and Path(sys_dir, 'sdformat12.yaml').exists() and not any(
            Path(d, 'sdformat12.yaml').exists() for d in cur.split(':') if d):
        env['IGN_CONFIG_PATH'] = f'{cur}:{sys_dir}'
    return env


def _session_rss_kb(pgid: int) -> int:
    """Sum of VmRSS over the processes of process group ``pgid`` (our ign run)."""
    total = 0
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open(f'/proc/{d}/stat', encoding='ascii', errors='replace') as fh:
                stat = fh.read()
            fields = stat[stat.rindex(')') + 2:].split()
            if int(fields[2]) != pgid:
                continue
            with open(f'/proc/{d}/status', encoding='ascii', errors='replace') as fh:
                for line in fh:
                    if line.startswith('VmRSS:'):
                        total += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return total


def _parse_time_v(stderr: str) -> tuple[float | None, str]:
    kb = None
    rest = []
    for line in stderr.splitlines():
        s = line.strip()
        if s.startswith('Maximum resident set size (kbytes):'):
            kb = float(s.rsplit(':', 1)[1])
        elif line.startswith('\t') or s.startswith(('Command being timed',
                                                       'Command exited with non-zero status')):
            continue
        else:
            rest.append(line)
    return (kb / 1024.0 if kb is not None else None), '\n'.join(rest)


def run_ign_once(path: Path, timeout: float, max_rss_mb: float) -> dict:
    cmd = ign_command()
    assert cmd is not None
    gnu_time = '/usr/bin/time'
    if os.access(gnu_time, os.X_OK):
        full = [gnu_time, '-v', *cmd, str(path)]
        mem_source = '/usr/bin/time -v'
    else:
        full = [sys.executable, '-c', IGN_WRAPPER, *cmd, str(path)]
        mem_source = 'RUSAGE_CHILDREN'
    t0 = time.perf_counter()
    proc = subprocess.Popen(full, env=ign_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    peak_sampled_kb = 0
    status = 'done'
    deadline = t0 + timeout
    next_sample = 0.0
    while True:
        try:
            out, err = proc.communicate(timeout=0.25)
            break
        except subprocess.TimeoutExpired:
            pass
        now = time.perf_counter()
        if now >= next_sample:
            peak_sampled_kb = max(peak_sampled_kb, _session_rss_kb(proc.pid))
            next_sample = now + 0.5
        if now >= deadline or peak_sampled_kb / 1024.0 > max_rss_mb:
            status = 'timeout' if now >= deadline else 'memlimit'
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)   # our own process group only
            out, err = proc.communicate()
            break
    seconds = time.perf_counter() - t0
    mb, rest = _parse_time_v(err)
    if status != 'done':
        mb = max(mb or 0.0, peak_sampled_kb / 1024.0)
    return {
        'status': status, 'seconds': seconds, 'peak_mb': mb, 'mem_source': mem_source,
        'returncode': proc.returncode,
        'valid': status == 'done' and proc.returncode == 0 and 'Valid.' in out,
        'output': (out.strip() + '\n' + rest.strip()).strip()[-2000:],
    }


def run_ign(path: Path, repeat: int, timeout: float, max_rss_mb: float) -> dict:
    """Best of ``repeat`` runs, but only one run once a run takes over 30 s (or fails to end)."""
    runs = []
    for _ in range(repeat):
        r = run_ign_once(path, timeout, max_rss_mb)
        runs.append(r)
        if r['status'] != 'done' or r['seconds'] > 30:
            break
    done = [r for r in runs if r['status'] == 'done']
    best = min(done, key=lambda r: r['seconds']) if done else runs[0]
    best = dict(best)
    best['all_seconds'] = [r['seconds'] for r in runs]
    best['peak_mb'] = max((r['peak_mb'] or 0.0) for r in runs) or None
    return best


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

def _fmt_s(x: float | None, lower: bool = False) -> str:
    if x is None:
        return '-'
    s = f'{x:.3f}' if x < 10 else f'{x:.1f}'
    return f'>{s}' if lower else s


def _fmt_ratio(x: float | None, lower: bool = False) -> str:
    if x is None:
        return '-'
    s = f'{x:.1f}x' if x < 100 else f'{x:.0f}x'
    return f'>{s}' if lower else s


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--sizes', default='10,100,1000',
                    help='comma-separated model counts N (each model has 10 links)')
    ap.add_argument('--repeat', type=int, default=3, help='runs per measurement (best is kept)')
    ap.add_argument('--ign-timeout', type=float, default=600.0, help='seconds per ign run')
    ap.add_argument('--skip-ign-above', type=int, default=None,
                    help='do not run ign for N above this')
    ap.add_argument('--no-ign', action='store_true', help='do not run ign at all')
    ap.add_argument('--ign-max-rss-mb', type=float, default=None,
                    help='kill ign when its resident memory exceeds this many MB (reported as a '
                         'lower bound); protects the machine. Default: 60%% of MemAvailable at '
                         'start, at most 16000')
    ap.add_argument('--json', metavar='FILE', nargs='?', const='-',
                    help="also write the results as JSON to FILE ('-' or no value: stdout, "
                         'after the table)')
    ap.add_argument('--keep', metavar='DIR', help='write the generated worlds to DIR and keep them')
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--profile', metavar='FILE',
                    help='also profile our loader once (see --profiler) on the largest world and write '
                         'the stats to FILE')
    ap.add_argument('--profiler', choices=('cprofile', 'pyinstrument'), default='cprofile',
                    help='cprofile: pstats dump (python3 -m pstats FILE); pyinstrument '
                         '(pip install pyinstrument): a text call tree, less distorted by '
                         'per-call overhead')
    ap.add_argument('--no-compiled', action='store_true',
                    help='measure only the default build, not the mypyc-compiled install')
    ap.add_argument('--default-prefix', metavar='DIR',
                    help='use this `pip install` prefix as the default build instead of '
                         'building one')
    ap.add_argument('--compiled-prefix', metavar='DIR',
                    help='use this SDF_TOOLS_COMPILE=1 install instead of building one')
    ap.add_argument('--no-drake', action='store_true', help="do not run Drake's parser")
    ap.add_argument('--_worker', metavar='PATH', help=argparse.SUPPRESS)
    ap.add_argument('--_profile_out', metavar='PATH', help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args._worker:
        worker(args._worker, args._profile_out, args.profiler)
        return 0

    sizes = [int(s) for s in args.sizes.split(',') if s.strip()]
    if args.ign_max_rss_mb is None:
        args.ign_max_rss_mb = default_ign_mem_guard_mb()
    cmd = ign_command()
    run_ign_at_all = not args.no_ign and cmd is not None
    if not args.no_ign and cmd is None:
        print('note: `ign` not found (apt-get install ignition-tools libsdformat-dev '
              'sdformat-sdf time); ign columns are empty', file=sys.stderr)

    tmp = None
    if args.keep:
        out_dir = Path(args.keep)
        out_dir.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix='sdf_bench_')
        out_dir = Path(tmp.name)

    rows = []
    compiled_env = None
    build_note = 'compiled build: not measured (--no-compiled)'
    default_note = ''
    load_before = _load_average()
    try:
        # The default build as users get it: `pip install` (byte-compiled) into a scratch prefix.
        if args.default_prefix:
            default_prefix: Path | None = Path(args.default_prefix)
            default_note = f'default build: {args.default_prefix} (--default-prefix)'
        else:
            (out_dir / 'default').mkdir(exist_ok=True)
            default_prefix, default_note = build_default(out_dir / 'default')
        if default_prefix is None:
            print(default_note, file=sys.stderr)
            return 1
        env = build_env(default_prefix)
        if args.compiled_prefix:
            compiled_env = build_env(Path(args.compiled_prefix))
            build_note = f'compiled build: {args.compiled_prefix} (--compiled-prefix)'
        elif not args.no_compiled:
            print('[bench] building the compiled install (SDF_TOOLS_COMPILE=1 pip install) ...',
                  file=sys.stderr, flush=True)
            scratch = out_dir / 'compiled'
            scratch.mkdir(exist_ok=True)
            prefix, build_note = build_compiled(scratch)
            compiled_env = build_env(prefix) if prefix is not None else None
        for n in sizes:
            path = out_dir / f'world_{n}x{LINKS_PER_MODEL}.sdf'
            path.write_text(world_sdf(n, args.seed), encoding='utf-8')
            size_mb = path.stat().st_size / 1e6
            print(f'[bench] N={n}: {path} ({size_mb:.1f} MB); {args.repeat} rounds of ours '
                  f'(default{", compiled" if compiled_env else ""}), lxml, Drake ...',
                  file=sys.stderr, flush=True)
            drake_here = not args.no_drake and importlib.util.find_spec('pydrake') is not None
            m = measure_round_robin(path, args.repeat, env, compiled_env, n == TARGET_N,
                                    drake_here)
            ours, compiled, serial, drake = m['ours'], m['compiled'], m['serial'], m['drake']
            lxml_s, lxml_e2e = m['lxml_seconds'], m['lxml_e2e_seconds']
            exp = count_expected(n)
            mismatch = {k: (ours[k], v) for k, v in exp.items() if ours[k] != v}
            ign = None
            if run_ign_at_all and not (args.skip_ign_above is not None
                                       and n > args.skip_ign_above):
                print(f'[bench] N={n}: ign sdf -k (timeout {args.ign_timeout:.0f} s) ...',
                      file=sys.stderr, flush=True)
                ign = run_ign(path, args.repeat, args.ign_timeout, args.ign_max_rss_mb)
            row = {'n': n, 'links': n * LINKS_PER_MODEL, 'file_mb': size_mb, 'ours': ours,
                   'ign': ign, 'count_mismatch': mismatch, 'lxml_seconds': lxml_s,
                   'lxml_e2e_seconds': lxml_e2e, 'drake': drake,
                   'serial': serial, 'compiled': compiled,
                   'lxml_ratio': ours['seconds'] / lxml_s}
            if ign is not None:
                lower = ign['status'] != 'done'
                row['speed_ratio'] = ign['seconds'] / ours['seconds']
                row['speed_ratio_e2e'] = ign['seconds'] / ours['e2e_seconds']
                row['memory_ratio'] = (ign['peak_mb'] / ours['peak_mb']
                                       if ign['peak_mb'] else None)
                row['ratio_is_lower_bound'] = lower
            rows.append(row)
        if args.profile and sizes:
            n = max(sizes)
            path = out_dir / f'world_{n}x{LINKS_PER_MODEL}.sdf'
            subprocess.run([sys.executable, str(Path(__file__).resolve()), '--_worker',
                            str(path), '--_profile_out', args.profile, '--profiler',
                            args.profiler], env=env, check=True, capture_output=True)
            how = ('a text call tree' if args.profiler == 'pyinstrument'
                   else f'read it with python3 -m pstats {args.profile}')
            print(f'[bench] profile of N={n} written to {args.profile} ({how})',
                  file=sys.stderr)
    finally:
        if tmp is not None:
            tmp.cleanup()

    # Table ---------------------------------------------------------------------------------
    hdr = (f'{"N":>6} {"links":>7} {"ours s":>8} {"(gc s)":>7} {"ours e2e s":>10} {"ours MB":>8} '
           f'{"ign s":>9} {"ign MB":>8} {"speed x":>9} {"spd e2e x":>9} {"mem x":>8}')
    print()
    print('sdf_tools load+validate+resolve-all vs `ign sdf -k` (libsdformat 12)')
    print(f'python {sys.version.split()[0]}, {os.cpu_count()} CPUs; best of {args.repeat}; '
          '"ours s" = in-process load+validate+resolve-all incl. "(gc s)", the garbage\n'
          'collector passes it leaves to the caller; "e2e" = whole process incl. interpreter '
          'start + imports;\n'
          '"speed x" = ign s / ours s, "spd e2e x" = ign s / ours e2e s, "mem x" = ign MB / ours MB')
    if rows:
        print('ours: the default build, as `pip install` / `colcon build` install it (pure Python'
              + (', BUT THE HOT MODULES ARE COMPILED HERE' if rows[0]['ours']['native'] else '')
              + f'; {rows[0]["ours"]["module"].rsplit("/sdf_tools/", 1)[0]}); '
              + build_note.split(chr(10))[0])
        print(f'{default_note}; load average {load_before} before, {_load_average()} after')
    print(hdr)
    print('-' * len(hdr))
    for row in rows:
        o, g = row['ours'], row['ign']
        lower = bool(g and g['status'] != 'done')
        if g is None:
            ign_s = 'skipped' if run_ign_at_all else '-'
            ign_mb = sp = spe = mr = '-'
        else:
            ign_s = '>timeout' if g['status'] == 'timeout' else _fmt_s(g['seconds'], lower)
            ign_mb = (f'{">" if lower else ""}{g["peak_mb"]:.0f}' if g['peak_mb'] else '-')
            sp = _fmt_ratio(row['speed_ratio'], lower)
            spe = _fmt_ratio(row['speed_ratio_e2e'], lower)
            mr = _fmt_ratio(row['memory_ratio'], lower)
        print(f'{row["n"]:>6} {row["links"]:>7} {_fmt_s(o["seconds"]):>8} '
              f'{_fmt_s(o["gc_after_seconds"]):>7} '
              f'{_fmt_s(o["e2e_seconds"]):>10} {o["peak_mb"]:>8.1f} {ign_s:>9} {ign_mb:>8} '
              f'{sp:>9} {spe:>9} {mr:>8}')
    timeouts = [r for r in rows if r['ign'] and r['ign']['status'] == 'timeout']
    for r in timeouts:
        print(f'  N={r["n"]}: ign timed out after {r["ign"]["seconds"]:.0f} s; ratios are lower '
              'bounds (">")')
    for r in rows:
        if r['ign'] and r['ign']['status'] == 'memlimit':
            print(f'  N={r["n"]}: ign killed above {args.ign_max_rss_mb:.0f} MB resident after '
                  f'{r["ign"]["seconds"]:.0f} s; ratios are lower bounds (">")')
    done = [r for r in rows if r['ign'] and r['ign']['status'] == 'done' and r['ign']['peak_mb']]
    for r in rows:
        if r['ign'] and r['ign']['status'] != 'done' and done:
            ref = max(done, key=lambda d: d['n'])
            scale = r['n'] / ref['n']
            print(f'  N={r["n"]}: linear extrapolation from ign at N={ref["n"]}: about '
                  f'{ref["ign"]["seconds"] * scale:.0f} s and {ref["ign"]["peak_mb"] * scale / 1024:.0f}'
                  f' GB (an estimate, not a measurement; this machine has '
                  f'{_mem_total_gb():.0f} GB)')
    print(f'  memory: peak resident set of the whole process (ours: VmHWM of the worker, which '
          f'includes ~{rows[0]["ours"]["baseline_mb"]:.0f} MB of interpreter + lxml/numpy/'
          f'transforms3d before loading; ign: /usr/bin/time -v max RSS)' if rows else '')
    for r in rows:
        o, sr = r['ours'], r.get('serial')
        if o['child_mb'] > 0:
            print(f'  N={r["n"]}: the spec check ran in a second process (sdf/spec/parallel.py): '
                  f'its peak {o["child_mb"]:.1f} MB, CPU {o["child_cpu_seconds"]:.3f} s beside '
                  f'ours {o["cpu_seconds"]:.3f} s')
        co = r.get('compiled')
        if co is not None:
            print(f'  N={r["n"]}: compiled (SDF_TOOLS_COMPILE=1): {_fmt_s(co["seconds"])} s, whole '
                  f'process {_fmt_s(co["e2e_seconds"])} s, {co["peak_mb"]:.1f} MB; the compiled '
                  f'modules save {o["seconds"] - co["seconds"]:.3f} s')
        if sr is not None:
            print(f'  N={r["n"]}: with the check in the same process '
                  f'(SDF_TOOLS_PARALLEL_CHECK=0): {_fmt_s(sr["seconds"])} s, '
                  f'{sr["peak_mb"]:.1f} MB; the second process saves '
                  f'{sr["seconds"] - o["seconds"]:.3f} s')

    print()
    print(f'whole processes, same run (best of {args.repeat}): ours = interpreter start, imports, '
          'load + validate against the whole spec + resolve every frame, exit; lxml = '
          '`etree.parse` of the same file; Drake = `Parser.AddModels` into a MultibodyPlant')
    for r in rows:
        d = r['drake']
        builds = [('default', r['ours'])] + ([('compiled', r['compiled'])] if r['compiled'] else [])
        for name, o in builds:
            text = (f'  N={r["n"]:>5} {name:>8}: ours {_fmt_s(o["e2e_seconds"])} s = '
                    f'{o["e2e_seconds"] / r["lxml_e2e_seconds"]:.2f} x lxml '
                    f'({_fmt_s(r["lxml_e2e_seconds"])} s)')
            if d and 'e2e_seconds' in d:
                text += (f'; Drake {_fmt_s(d["e2e_seconds"])} s = '
                         f'{d["e2e_seconds"] / o["e2e_seconds"]:.1f} x ours')
            elif d:
                text += f'; Drake failed: {d["error"][-200:]}'
            print(text)
        print(f'  N={r["n"]:>5} in-process: lxml parse {_fmt_s(r["lxml_seconds"])} s; ours '
              f'{_fmt_s(r["ours"]["seconds"])} s = {r["lxml_ratio"]:.1f} x'
              + (f'; Drake {_fmt_s(d["seconds"])} s' if d and 'seconds' in d else ''))

    # Verdicts --------------------------------------------------------------------------------
    print()
    print('verdicts')
    for r in rows:
        o, g = r['ours'], r['ign']
        ours_v = 'valid' if o['valid'] else f'INVALID ({o["n_errors"]} errors: {o["errors"][:2]})'
        ign_v = ('-' if g is None else 'valid' if g['valid'] else
                 g['status'] if g['status'] != 'done' else f'INVALID: {g["output"][-300:]}')
        extra = ''
        if o['unresolved']:
            extra += f'; {o["unresolved"]} poses unresolved'
        if r['count_mismatch']:
            extra += f'; counts (got, expected) {r["count_mismatch"]}'
        print(f'  N={r["n"]}: ours {ours_v} ({o["links"]} links, {o["joints"]} joints, '
              f'{o["frames"]} frames, {o["models"]} models resolved{extra}); ign {ign_v}')

    # Linearity -------------------------------------------------------------------------------
    print()
    print('linearity (ours, in-process time per link)')
    for r in rows:
        o = r['ours']
        print(f'  N={r["n"]:>5}: {1e6 * o["seconds"] / r["links"]:8.1f} us/link '
              f'(load {1e6 * o["load_seconds"] / r["links"]:.1f}, '
              f'resolve {1e6 * o["resolve_seconds"] / r["links"]:.1f}, '
              f'deferred gc {1e6 * o["gc_after_seconds"] / r["links"]:.1f}), '
              f'{o["peak_mb"] - o["baseline_mb"]:.1f} MB above baseline')
    checks: list[tuple[str, bool]] = []
    big = sorted(rows, key=lambda r: r['n'])
    if len(big) >= 2 and big[-1]['n'] > big[-2]['n']:
        a, b = big[-2], big[-1]
        pa = a['ours']['seconds'] / a['links']
        pb = b['ours']['seconds'] / b['links']
        growth = pb / pa
        checks.append((f'linear growth: time/link at N={b["n"]} is {growth:.2f}x that at '
                       f'N={a["n"]} (<= 1.5x)', growth <= 1.5))

    # Target ----------------------------------------------------------------------------------
    tgt = next((r for r in rows if r['n'] == TARGET_N), None)
    if tgt is not None:
        o = tgt['ours']
        lx = o['e2e_seconds'] / tgt['lxml_e2e_seconds']
        checks.append((f'N={TARGET_N} default build, whole process: {o["e2e_seconds"]:.3f} s = '
                       f"{lx:.2f} x lxml's bare parse <= {TARGET_LXML_RATIO:.1f} x",
                       lx <= TARGET_LXML_RATIO))
        d = tgt['drake']
        if d and 'e2e_seconds' in d:
            dr = d['e2e_seconds'] / o['e2e_seconds']
            checks.append((f'N={TARGET_N} default build, whole process: {dr:.1f} x faster than '
                           f'Drake\'s parser ({d["e2e_seconds"]:.2f} s) >= {TARGET_DRAKE_RATIO:.0f} x',
                           dr >= TARGET_DRAKE_RATIO))
        both = o['peak_mb'] + o['child_mb']  # both processes at their peaks at once: an upper bound
        checks.append((f'N={TARGET_N} peak memory {o["peak_mb"]:.1f} MB + check worker '
                       f'{o["child_mb"]:.1f} MB = {both:.1f} MB <= {TARGET_MB:.0f} MB',
                       both <= TARGET_MB))
    for r in rows:
        checks.append((f'N={r["n"]} world valid and every pose resolved',
                       r['ours']['valid'] and not r['ours']['unresolved']
                       and not r['count_mismatch']))
        if r['ign'] is not None and r['ign']['status'] == 'done':
            checks.append((f'N={r["n"]} libsdformat 12 agrees the world is valid',
                           r['ign']['valid'] == r['ours']['valid']))
    print()
    for text, ok in checks:
        print(f'{"PASS" if ok else "FAIL"}: {text}')
    if tgt is None:
        print(f'note: N={TARGET_N} not in --sizes; target not checked')

    if args.json:
        payload = {'python': sys.version.split()[0], 'cpus': os.cpu_count(),
                   'repeat': args.repeat, 'ign_timeout': args.ign_timeout,
                   'target': {'n': TARGET_N, 'lxml_ratio': TARGET_LXML_RATIO,
                              'drake_ratio': TARGET_DRAKE_RATIO, 'mb': TARGET_MB},
                   'compiled_build': build_note,
                   'rows': rows, 'checks': [{'text': t, 'pass': ok} for t, ok in checks]}
        text = json.dumps(payload, indent=2)
        if args.json == '-':
            print(text)
        else:
            Path(args.json).write_text(text + '\n', encoding='utf-8')
            print(f'\nJSON written to {args.json}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
