"""SDFormat -> URDF (:mod:`.to_urdf`): one model, every frame resolved first.

Data flows one way: :mod:`sdf_tools.convert.flatten` names and locates every
link, joint and frame of the model; :mod:`.tree` chooses the tree a URDF can
hold; :mod:`.joints`, :mod:`.shapes` and :mod:`.extensions` turn elements into
URDF records; :mod:`.writer` turns the records into text.
"""
