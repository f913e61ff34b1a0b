"""A custom sensor whose namespace prefix the file never declares, for the writer and USD tests.

From gz-sim's examples/plugin/custom_sensor_system/odometer.sdf: the sensor's type and its
element carry a `gz:` prefix the file never declares (libsdformat reads it, so do we).
"""

CUSTOM_SENSOR = '''<sdf version="1.9"><model name="m"><link name="link">
  <inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>
  <sensor name="odo" type="custom" gz:type="odometer"><pose>0.1 0.2 0.3 0 0 0.4</pose>
    <update_rate>30</update_rate>
    <gz:odometer><noise type="gaussian"><mean>0.25</mean><stddev>0.5</stddev></noise></gz:odometer>
  </sensor></link></model></sdf>
'''
