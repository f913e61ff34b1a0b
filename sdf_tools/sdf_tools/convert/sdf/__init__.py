"""URDF/xacro or SDFormat -> SDFormat 1.9+ (:mod:`.to_sdf`).

* URDF input is prepared as libsdformat's URDF parser does it
  (:mod:`.from_urdf`): ``<gazebo>`` tags (:mod:`.gazebo_tags`,
  :mod:`.gazebo_apply`, :mod:`.gazebo_model`, :mod:`.plugin_frames`), joint
  types SDFormat lacks and mimic joints (:mod:`.joint_types`), materials
  (:mod:`.material_colors`).
* SDFormat input of any version is brought up to date (:mod:`.upgrade`).
* :mod:`.elements` builds one SDFormat element kind each; :mod:`.writer`
  writes the document.
"""
