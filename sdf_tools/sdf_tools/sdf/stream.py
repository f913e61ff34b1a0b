"""Read a world's models while the parser is still reading the file.

A world of 1,000 models is a 13 MB file whose lxml tree takes about 130 MB;
the description model we build from it takes less. ``WorldModelStreamer``
is called by the parser (``xmlsafe.parse_bytes(..., on_end=...)``) each time
a ``<model>`` element is complete. For a model that is a direct child of a
top-level ``<world>`` it reads the model at once, keeps the result and its
diagnostics for ``parse_world``, and drops the element's children, so the
tree never holds more than one model at a time and no freed tree has to be
handed back to the OS afterwards.

The result is the same as reading the whole tree: ``parse_world`` takes each
pre-read model in document order and adds its diagnostics at that point, so
diagnostics keep the order a whole-tree read gives.
"""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from lxml import etree

from sdf_tools.errors import Diagnostic
from sdf_tools.sdf.context import ReadContext, top_world_model_version
from sdf_tools.sdf.model import parse_model
from sdf_tools.sdf.spec.check import check_world_model
from sdf_tools.sdf.unflatten import unflatten_world_model

if TYPE_CHECKING:
    from sdf_tools.sdf.spec.parallel import CheckWorker


class WorldModelStreamer:
    """The ``on_end`` callback for ``<model>`` elements (see the module doc).

    With a ``worker`` (``sdf/spec/parallel.py``), the spec check of each model is left
    to a second process that parses the same bytes. A model read here keeps its subtree
    until the worker's verdict on it has come, and then gets that verdict in front of
    its own diagnostics, so the result is the one a check made here gives. This process
    never waits for the worker: when more than ``PENDING`` models wait (the worker is
    late: it started later, or has no core of its own), it checks the oldest itself, and
    at the end of the file it checks whatever is still pending.
    """

    tag = 'model'
    PENDING = 128  # models kept whole while their verdict is awaited (~130 KB each in the bench)
    # How long the end of the file waits for verdicts still on their way (tests set it
    # to see every verdict come from the worker; 0: check them here at once).
    FINAL_WAIT_S = 0.0

    def __init__(self, file: str | None, include_stack: tuple[str, ...],
                 worker: CheckWorker | None = None) -> None:
        self.file = file
        self.include_stack = include_stack
        self.ctx: ReadContext | None = None
        # The root of the tree the pre-read models came from: a parse that
        # fell back to a whole-tree parse has another root, and then nothing
        # pre-read applies (see context_for).
        self.root: etree._Element | None = None
        self.worker = worker
        # Models read here awaiting their check, in document order: index among the
        # world models (the worker counts the same way), element, unflatten problems.
        self.pending: deque[tuple[int, etree._Element, list[Diagnostic]]] = deque()
        self.count = 0

    def __call__(self, el: etree._Element) -> None:
        version = top_world_model_version(el)
        if version is None:
            return
        ctx = self.ctx
        if ctx is None:
            ctx = self.ctx = ReadContext(self.file, version, include_stack=self.include_stack)
            self.root = el.getparent().getparent()  # type: ignore[union-attr]  # checked above
        if self.worker is None:
            read_world_model(ctx, el)
            del el[:]  # the model is read: free its subtree now
            return
        self.pending.append((self.count, el, read_world_model(ctx, el, check=False)))
        self.count += 1
        self._settle(final=False)

    def _settle(self, final: bool) -> None:
        """Give pending models their verdicts: the worker's, or one made here."""
        ctx, worker, pending = self.ctx, self.worker, self.pending
        assert ctx is not None and worker is not None
        while pending:
            index, el, first = pending[0]
            verdict = worker.result(index, self.FINAL_WAIT_S if final else 0.0)
            if verdict is None:
                if not (final or worker.done or len(pending) > self.PENDING):
                    return  # it will come
                verdict = _check_here(ctx, el, first)
            ok, diagnostics = verdict
            model, read = ctx.preread[el]
            ctx.preread[el] = (model, diagnostics + read)
            ctx.spec_checked[el] = ok
            del el[:]
            pending.popleft()

    def context_for(self, root: etree._Element) -> ReadContext | None:
        """The context holding the pre-read models of ``root`` (None if none)."""
        worker = self.worker
        try:
            if self.root is not root or self.ctx is None:
                return None
            if worker is not None:
                self._settle(final=True)
            return self.ctx
        finally:
            if worker is not None:
                worker.cancel()  # done, or too late to be of use
                self.worker = None


def _check_here(ctx: ReadContext, el: etree._Element, first: list[Diagnostic]
                ) -> tuple[bool, list[Diagnostic]]:
    """The verdict on a world model the worker did not give: made here, as the worker would."""
    outer = ctx.diagnostics
    ctx.diagnostics = first
    try:
        check_world_model(ctx, el)
        return ctx.spec_checked[el], ctx.diagnostics
    finally:
        ctx.diagnostics = outer


def read_world_model(ctx: ReadContext, el: etree._Element, check: bool = True) -> list[Diagnostic]:
    """Check and read one model of a top-level world; keep it and its diagnostics aside.

    Without ``check`` the model is only read (its check is made elsewhere); returned are
    the problems of the 1.7 -> 1.8 step, which go in front of that check's diagnostics.
    """
    outer = ctx.diagnostics
    ctx.diagnostics = []
    try:
        unflatten_world_model(ctx, el)  # 1.7 -> 1.8; problems go with the check's
        if check:
            check_world_model(ctx, el)
        first, ctx.diagnostics = ctx.diagnostics, []
        model = parse_model(ctx, el)
        if check:
            ctx.preread[el] = (model, first + ctx.diagnostics)
            return []
        ctx.preread[el] = (model, ctx.diagnostics)
        return first
    finally:
        ctx.diagnostics = outer


def read_world_models(ctx: ReadContext, root: etree._Element) -> None:
    """Read the world models of a whole tree the way the streamer reads them.

    Diagnostics then come in the same order whether or not the file was
    streamed (the spec check of a model travels with the model's own).
    """
    for world in root.iterchildren('world'):
        for el in world.iterchildren('model'):
            if el not in ctx.preread:
                read_world_model(ctx, el)
