"""Drive Debian's headless Chromium over the DevTools protocol, through a pipe.

The viewer's tests open a report in a real browser and ask it what it shows:
console errors, a screenshot, the result of a script. Chromium is started
with ``--remote-debugging-pipe``: it reads NUL-terminated JSON commands from
fd 3 and writes replies and events to fd 4, so no port and no extra package
is needed. Each browser gets a fresh ``--user-data-dir`` and never reaches
the network on its own.
"""
from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

CHROMIUM = '/usr/bin/chromium'
FLAGS = ('--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
         '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync',
         # WebGL without a GPU: Chromium's software renderer, which it only offers
         # when asked (the page is ours, so "unsafe" does not apply).
         '--use-angle=swiftshader', '--enable-unsafe-swiftshader')

Json = dict[str, Any]


def chromium_path() -> str | None:
    """Return Chromium's path when it is installed."""
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which('chromium')


class BrowserError(RuntimeError):
    """The browser answered a command with an error, or did not answer."""


class Browser:
    """One headless Chromium and one page in it."""

    def __init__(self, width: int = 1280, height: int = 800) -> None:
        exe = chromium_path()
        if exe is None:
            raise BrowserError('chromium is not installed')
        self._profile = tempfile.mkdtemp(prefix='sdf_tools_chromium_')
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        args = [exe, *FLAGS, f'--user-data-dir={self._profile}', '--remote-debugging-pipe',
                'about:blank']
        # bash puts our pipe ends on the fds Chromium expects (3 and 4); dash
        # cannot redirect from an fd above 9.
        cmd = f'exec "$@" 3<&{to_browser_r} 4>&{from_browser_w}'
        self._log = Path(self._profile) / 'chromium.log'
        with self._log.open('wb') as log:
            self._proc = subprocess.Popen(['bash', '-c', cmd, 'bash', *args],
                                          pass_fds=(to_browser_r, from_browser_w),
                                          stdout=log, stderr=subprocess.STDOUT)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id = 0
        self._replies: dict[int, Json] = {}
        self._messages: queue.Queue[Json | None] = queue.Queue()
        self.events: list[Json] = []
        threading.Thread(target=self._read, daemon=True).start()
        target = self.send('Target.createTarget', {'url': 'about:blank'})['targetId']
        self._session = self.send('Target.attachToTarget',
                                  {'targetId': target, 'flatten': True})['sessionId']
        for domain in ('Page', 'Runtime', 'Log'):
            self.send(f'{domain}.enable', session=True)
        self.send('Emulation.setDeviceMetricsOverride',
                  {'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': False},
                  session=True)

    def _read(self) -> None:
        buf = b''
        while True:
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                self._messages.put(None)
                return
            buf += chunk
            *whole, buf = buf.split(b'\0')
            for raw in whole:
                self._messages.put(json.loads(raw))

    def _pump(self, deadline: float) -> None:
        msg = self._messages.get(timeout=max(0.01, deadline - time.monotonic()))
        if msg is None:
            tail = self._log.read_text(errors='replace')[-2000:] if self._log.exists() else ''
            raise BrowserError(f'chromium closed the pipe; its output ends:\n{tail}')
        if 'id' in msg:
            self._replies[msg['id']] = msg
        else:
            self.events.append(msg)

    def send(self, method: str, params: Json | None = None, *, session: bool = False,
             timeout: float = 60.0) -> Json:
        """Send one command and return its result."""
        self._next_id += 1
        msg: Json = {'id': self._next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = self._session
        os.write(self._to_browser, json.dumps(msg).encode() + b'\0')
        deadline = time.monotonic() + timeout
        while self._next_id not in self._replies:
            try:
                self._pump(deadline)
            except queue.Empty:
                raise BrowserError(f'no answer to {method} in {timeout} s') from None
        reply = self._replies.pop(self._next_id)
        if 'error' in reply:
            raise BrowserError(f'{method}: {reply["error"]}')
        result: Json = reply.get('result', {})
        return result

    def evaluate(self, expression: str) -> Any:
        """Evaluate a JavaScript expression in the page; return its value."""
        res = self.send('Runtime.evaluate', {'expression': expression, 'returnByValue': True,
                                             'awaitPromise': True}, session=True)
        if 'exceptionDetails' in res:
            raise BrowserError(f'{expression}: {res["exceptionDetails"]}')
        return res['result'].get('value')

    def open(self, path: Path, ready: str = 'window.sdfReportReady === true',
             timeout: float = 120.0) -> None:
        """Load a file and wait until ``ready`` evaluates true in it."""
        self.send('Page.navigate', {'url': path.resolve().as_uri()}, session=True)
        deadline = time.monotonic() + timeout
        while not self.evaluate(f'Boolean({ready})'):
            if time.monotonic() > deadline:
                raise BrowserError(f'{path}: not ready after {timeout} s: {self.console_errors()}')
            time.sleep(0.2)

    def console_errors(self) -> list[str]:
        """Every console error, uncaught exception and error log entry so far."""
        out: list[str] = []
        for ev in self.events:
            p = ev.get('params', {})
            if ev.get('method') == 'Runtime.consoleAPICalled' and p.get('type') in ('error', 'assert'):
                out.append(' '.join(str(a.get('value', a.get('description', ''))) for a in p['args']))
            elif ev.get('method') == 'Runtime.exceptionThrown':
                d = p['exceptionDetails']
                out.append(str(d.get('exception', {}).get('description', d.get('text'))))
            elif ev.get('method') == 'Log.entryAdded' and p['entry'].get('level') == 'error':
                out.append(f'{p["entry"].get("text")} ({p["entry"].get("url", "")})')
        return out

    def screenshot(self, path: Path, clip: Json | None = None) -> Path:
        """Save a PNG screenshot of the page (or of ``clip``) to ``path``."""
        params: Json = {'format': 'png'}
        if clip is not None:
            params['clip'] = {**clip, 'scale': 1}
        data = self.send('Page.captureScreenshot', params, session=True)['data']
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        """Stop the browser and remove its profile."""
        with contextlib.suppress(BrowserError):
            self.send('Browser.close', timeout=10)
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
