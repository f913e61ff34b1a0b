"""``sdf_tools verify OUT --source IN``: load a conversion in its own engine, compare with the source.

::

    verdict = verify_files('robot.xml', 'robot.urdf')
    if not verdict.ok:
        for d in verdict.differences:
            print(d)

MJCF is compiled by MuJoCo, USD parsed by usd-core's ``UsdPhysics`` (and
imported by Newton), SDFormat and URDF read by our reader; the source is the
resolved description (:mod:`sdf_tools.resolved`).
"""
from __future__ import annotations

from sdf_tools.verify.compare import MEASURES, Difference, Measure, Verdict, compare
from sdf_tools.verify.run import UnusableError, verify_files

__all__ = ['MEASURES', 'Difference', 'Measure', 'UnusableError', 'Verdict', 'compare', 'verify_files']
