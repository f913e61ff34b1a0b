"""``<plugin>``: kept verbatim (its body belongs to the plugin).

Its own module so that reading a model or world with plugins does not import the
``<include>`` machinery (file lookup, ``<experimental:params>``) a file without includes
never uses.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.sdf.context import ReadContext
from sdf_tools.xmlsafe import to_xml

if TYPE_CHECKING:
    from sdf_tools.model.verbatim import Plugin


def parse_plugin(ctx: ReadContext, el: etree._Element) -> Plugin:
    """Keep a ``<plugin>`` verbatim."""
    from sdf_tools.model.verbatim import Plugin  # made on first use: see model/__init__.py

    # The name is optional from 1.10 (gazebosim/sdformat#1101), and libsdformat 13+ reads
    # every file as its newest version: only Fortress (12.3) still needs it in 1.9 files.
    name_optional = ctx.read_as >= (1, 10)
    for attr in ('name', 'filename'):
        if el.get(attr) is None and not (attr == 'name' and name_optional):
            ctx.error(ErrorCode.ATTRIBUTE_MISSING,
                      f'Required attribute[{attr}] in element[plugin] is not specified', el)
    return Plugin(el.get('name', ''), el.get('filename', ''), to_xml(el), ctx.loc(el))
