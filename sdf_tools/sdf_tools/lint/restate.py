"""Which diagnostics of the reader a lint finding restates: one fact, one line.

The reader reports what libsdformat assumes where it reads it (a ``<limit>``
left out, a URDF link of mass 0), without knowing what the model does with it
(a joint that moves without end; a link lumped away, or dropped with its
subtree). A lint finding that says the consequence of the same fact replaces
those lines in the report and in ``check --strict``, and so does the reader's
own refusal of a robot whose root link has no mass: a reader can see each
fact once, under the code that names its cause.

Matched by the element the finding is about: the same file, the line of that
element (or the name it carries in the reader's message) and the reader's
wording of the fact.
"""
from __future__ import annotations

from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.lint.finding import Finding
from sdf_tools.resolved import Resolved
from sdf_tools.urdf.conversion import MASSLESS_ROOT, is_massless_root

_LINK_MASS = ('has no <inertial>', 'has mass ', 'has a mass value ')


def _about_link(d: Diagnostic, name: str) -> bool:
    codes = (ErrorCode.DEFAULT_ASSUMED, ErrorCode.MASSLESS_LINK, ErrorCode.LINK_INERTIA_INVALID)
    return d.code in codes and d.severity is Severity.WARNING and any(
        d.message.startswith(f'link [{name}] {fact}') for fact in _LINK_MASS)


def _about_limits(d: Diagnostic, lines: set[int | None]) -> bool:
    return d.code is ErrorCode.DEFAULT_ASSUMED and d.line in lines and 'limit' in d.message


def restated(resolved: Resolved, findings: list[Finding]) -> list[Diagnostic]:
    """The reader's diagnostics that ``findings`` say again (each with its consequence)."""
    out: list[Diagnostic] = []
    for f in findings:
        if f.code is ErrorCode.MASSLESS_LINK:
            link = resolved.links_by_name.get(f.subject)
            if link is not None:
                out += [d for d in resolved.diagnostics
                        if d.file == f.file and _about_link(d, link.element.name)]
        elif f.code is ErrorCode.JOINT_NO_LIMITS:
            joint = resolved.joints_by_name.get(f.subject)
            axis = joint.element.axis if joint is not None else None
            if axis is not None and axis.loc is not None:
                out += [d for d in resolved.diagnostics
                        if d.file == axis.loc.file and _about_limits(d, {axis.loc.line})]
    # The reader's own refusal of a massless URDF root (MODEL_WITHOUT_LINK) says what its
    # "no <inertial>" warning says, and more: the refusal is the one line.
    for root in (d for d in resolved.diagnostics if is_massless_root(d)):
        name = root.message[len(MASSLESS_ROOT):].split(']', 1)[0]
        out += [d for d in resolved.diagnostics if d.file == root.file and _about_link(d, name)]
    unique: dict[int, Diagnostic] = {}
    for d in out:
        unique.setdefault(id(d), d)
    return list(unique.values())
