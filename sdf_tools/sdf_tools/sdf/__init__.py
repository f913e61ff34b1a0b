"""The SDFormat reader: XML in, :class:`sdf_tools.model.Document` out."""
