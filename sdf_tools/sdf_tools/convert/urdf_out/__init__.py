"""The parts of the SDFormat -> URDF converter (:mod:`sdf_tools.convert.to_urdf`).

Data flows one way: :mod:`.flatten` names and locates every link, joint and
frame of the model; :mod:`.tree` chooses the tree a URDF can hold;
:mod:`.joints`, :mod:`.shapes` and :mod:`.extensions` turn elements into
URDF records; :mod:`.writer` turns the records into text.
"""
