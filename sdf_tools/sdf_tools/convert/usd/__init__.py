"""OpenUSD export and import with UsdPhysics (usd-core is imported only inside this package).

* :mod:`~sdf_tools.convert.usd.to_usd`: the writer walking the resolved
  description (links, joints, shapes, frames) into a stage;
* :mod:`~sdf_tools.convert.usd.names`, :mod:`~sdf_tools.convert.usd.xforms`,
  :mod:`~sdf_tools.convert.usd.mass`, :mod:`~sdf_tools.convert.usd.joints`,
  :mod:`~sdf_tools.convert.usd.drives`, :mod:`~sdf_tools.convert.usd.shapes`,
  :mod:`~sdf_tools.convert.usd.materials`: one concept each;
* :mod:`~sdf_tools.convert.usd.from_usd`: the reader, through usd-core's
  ``UsdPhysics.LoadUsdPhysicsFromRange``;
* :mod:`~sdf_tools.convert.usd.files`: ``.usda``/``.usd``/``.usdc`` files.
"""
