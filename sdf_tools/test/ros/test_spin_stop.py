"""A signalled node stops even when something it runs does not end (ros/spin.py)."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

CHILD = '''
import threading, time, sys
from sdf_tools.ros import spin
spin.STOP_GRACE_S = 0.5
stop = spin.stop_on_signals()
threading.Thread(target=time.sleep, args=(3600,)).start()  # a thread that never ends
print('ready', flush=True)
stop.wait()
'''


def test_a_hung_stop_ends_after_the_grace_period() -> None:
    proc = subprocess.Popen([sys.executable, '-c', CHILD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == 'ready'
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=20)
        assert code == 0 and time.monotonic() - start < 10
        assert 'did not stop within 0.5 s' in (proc.stderr.read() if proc.stderr else '')
    finally:
        if proc.poll() is None:
            proc.kill()
