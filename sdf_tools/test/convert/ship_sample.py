"""The real robots the shipping tests take (MJCF: mjcf/test_ship_corpus.py, USD:
usd/test_ship_corpus.py): a representative few of example-robot-data and pybullet_data, each
chosen for what stopped users (see the tests), found in the corpus (:mod:`differential.corpus`)."""
from __future__ import annotations

from differential.corpus import RobotFile, corpus

ROBOTS = ('anymal_c_simple_description/urdf/anymal.urdf', 'b1_description/urdf/b1.urdf',
          'tiago_description/robots/tiago.urdf', 'ur_description/urdf/ur5_robot.urdf',
          'panda_description/urdf/panda.urdf', 'solo_description/robots/solo.urdf',
          'quadruped/minitaur.urdf', 'kuka_iiwa/model.urdf')


def picked(ends: tuple[str, ...] = ROBOTS) -> list[RobotFile]:
    """Return the corpus entry of each path ending; fail when its package is missing."""
    by_end = {str(e.path).replace('\\', '/'): e for e in corpus()}
    out = []
    for end in ends:
        found = [e for path, e in by_end.items() if path.endswith('/' + end)]
        assert found, f'{end} is not in the corpus: is its registry package installed?'
        out.append(found[0])
    return out
