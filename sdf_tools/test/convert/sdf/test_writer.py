"""The SDFormat writer keeps pieces it carries verbatim (sensors, plugins, unknown elements)."""
from __future__ import annotations

from pathlib import Path

from lxml import etree
from support.custom_sensor import CUSTOM_SENSOR

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.resolved import resolve


def test_a_sensor_with_an_undeclared_prefix_is_written(tmp_path: Path) -> None:
    src, out = tmp_path / 'odo.sdf', tmp_path / 'out.sdf'
    src.write_text(CUSTOM_SENSOR)
    assert convert_file(src, to='sdf', output_path=out, options=ConversionOptions()).ok
    sensors = resolve(load_file(out)).sensors
    assert [(s.element.name, s.element.type) for s in sensors] == [('odo', 'custom')]
    kept = etree.fromstring(sensors[0].element.xml, etree.XMLParser(recover=True))
    assert kept.get('gz:type') == 'odometer'
    odometer = next(c for c in kept if c.tag == 'gz:odometer')
    assert odometer.findtext('noise/stddev') == '0.5'


# gz-sim's examples/worlds/sensors.sdf: a plugin setting <gz::system_priority>, a name with two
# colons that libsdformat's XML parser reads and libxml2 calls a bad QName.
PRIORITY = '''<sdf version="1.9"><world name="w">
  <plugin filename="gz-sim-forcetorque-system" name="gz::sim::systems::ForceTorque">
    <gz::system_priority>10</gz::system_priority>
  </plugin>
  <plugin filename="gz-sim-imu-system" name="gz::sim::systems::Imu"/>
</world></sdf>
'''


def test_a_plugin_with_a_double_colon_name_is_written(tmp_path: Path) -> None:
    src, out = tmp_path / 'w.sdf', tmp_path / 'out.sdf'
    src.write_text(PRIORITY)
    assert convert_file(src, to='sdf', output_path=out, options=ConversionOptions()).ok
    root = etree.parse(str(out), etree.XMLParser(recover=True)).getroot()
    plugins = {p.get('name'): p for p in root.iter('plugin')}
    assert set(plugins) == {'gz::sim::systems::ForceTorque', 'gz::sim::systems::Imu'}
    kept = [c for c in plugins['gz::sim::systems::ForceTorque'] if isinstance(c.tag, str)]
    assert [(c.tag, c.text) for c in kept] == [('gz::system_priority', '10')]
