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

from typing import TYPE_CHECKING

from lxml import etree

from sdf_tools.sdf.context import ReadContext, top_world_model_version
from sdf_tools.sdf.model import parse_model
from sdf_tools.sdf.spec.check import check_world_model
from sdf_tools.sdf.unflatten import unflatten_world_model

if TYPE_CHECKING:
    from sdf_tools.sdf.spec.parallel import CheckWorker


class WorldModelStreamer:
    """The ``on_end`` callback for ``<model>`` elements (see the module doc).

    With a ``worker`` (``sdf/spec/parallel.py``), the spec check of each model is left
    to a second process that parses the same bytes; :meth:`context_for` puts its
    verdicts back in place, so the diagnostics are the same as without it.
    """

    tag = 'model'

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
        # Models read here whose check the worker does, in document order.
        self.unchecked: list[etree._Element] = []

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
        else:
            read_world_model(ctx, el, check=False)
            self.unchecked.append(el)
        del el[:]  # the model is read: free its subtree now

    def context_for(self, root: etree._Element) -> ReadContext | None:
        """The context holding the pre-read models of ``root`` (None if none)."""
        worker, self.worker = self.worker, None
        if self.root is not root or self.ctx is None:
            if worker is not None:
                worker.cancel()
            return None
        if worker is not None:
            outcomes = worker.outcomes(len(self.unchecked))
            ctx = self.ctx
            for el, (ok, diagnostics) in zip(self.unchecked, outcomes, strict=True):
                model, read = ctx.preread[el]
                ctx.preread[el] = (model, diagnostics + read)
                ctx.spec_checked[el] = ok
        return self.ctx


def read_world_model(ctx: ReadContext, el: etree._Element, check: bool = True) -> None:
    """Check and read one model of a top-level world; keep it and its diagnostics aside."""
    outer = ctx.diagnostics
    ctx.diagnostics = []
    try:
        unflatten_world_model(ctx, el, report=check)  # 1.7 -> 1.8; problems go with the check's
        if check:
            check_world_model(ctx, el)
        model = parse_model(ctx, el)
        ctx.preread[el] = (model, ctx.diagnostics)
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
