"""OnceLog logs every severity through one rclpy logger without rclpy's ValueError (issue 21 §1)."""
from __future__ import annotations

import pytest

from ros.ros_available import ros_missing
from sdf_tools.ros.once_log import OnceLog

if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)


def test_every_severity_in_turn_through_one_logger(ros: None) -> None:
    """rclpy raised "Logger severity cannot be changed between calls" from _log_once's one line."""
    import rclpy
    node = rclpy.create_node('once_log_test')
    try:
        log = OnceLog(node.get_logger())
        for _ in range(2):  # a reload logs the other severities again
            log.error('e')
            log.warning('w')
            log.debug('d')
            log.info('i')
            log.clear()
    finally:
        node.destroy_node()


def test_a_message_is_logged_once_until_cleared() -> None:
    said: list[str] = []

    class Logger:
        def debug(self, m: str) -> None: said.append('debug ' + m)
        def info(self, m: str) -> None: said.append('info ' + m)
        def warning(self, m: str) -> None: said.append('warning ' + m)
        def error(self, m: str) -> None: said.append('error ' + m)

    log = OnceLog(Logger())
    log.error('x')
    log.error('x')
    log.warning('x')
    log.clear()
    log.warning('x')
    assert said == ['error x', 'warning x']
