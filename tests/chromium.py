"""Headless Chromium driven through the DevTools protocol over a pipe (`--remote-debugging-pipe`:
JSON messages ended by NUL on file descriptors 3 and 4), with nothing but the standard library:
open a page, read its DOM as it changes, take a screenshot.

    with Chromium() as browser:
        tab = browser.open("http://127.0.0.1:8000/")
        tab.wait_for("document.body.dataset.seq == '12'")
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

EXECUTABLE = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
         "--disable-background-networking", "--disable-component-update", "--hide-scrollbars",
         "--disable-extensions", "--mute-audio", "--remote-debugging-pipe"]


class BrowserError(RuntimeError):
    pass


class Chromium:
    def __init__(self, size: tuple[int, int] = (1280, 800), timeout: float = 20.0):
        if EXECUTABLE is None:
            raise BrowserError("chromium is not installed")
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory(prefix="banco-chromium-")
        to_child, self._out = os.pipe()  # we write, chromium reads fd 3
        self._in, from_child = os.pipe()  # chromium writes fd 4, we read

        def fds():  # in the child: its ends of the pipes as fds 3 and 4
            a, b = os.dup(to_child), os.dup(from_child)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [EXECUTABLE, *FLAGS, f"--user-data-dir={self.profile.name}",
             f"--window-size={size[0]},{size[1]}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=fds, pass_fds=(3, 4))
        os.close(to_child)
        os.close(from_child)
        self._buffer = b""
        self._id = 0
        self.console: list[str] = []

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._out, self._in):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.proc.stderr:
            self.proc.stderr.close()
        self.profile.cleanup()

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("chromium did not answer in time")
            ready, _, _ = select.select([self._in], [], [], left)
            if ready:
                chunk = os.read(self._in, 1 << 16)
                if not chunk:
                    raise BrowserError("chromium closed the pipe")
                self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("method") == "Runtime.consoleAPICalled":
                args = reply["params"].get("args", [])
                self.console.append(" ".join(str(a.get("value", a.get("description")))
                                             for a in args))
            elif reply.get("method") == "Runtime.exceptionThrown":
                self.console.append(reply["params"]["exceptionDetails"].get("text", "exception"))
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def open(self, url: str) -> Tab:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})
        tab = Tab(self, session["sessionId"])
        tab.send("Runtime.enable")
        tab.send("Page.enable")
        tab.send("Page.navigate", {"url": url})
        tab.wait_for("document.readyState == 'complete'")
        return tab


class Tab:
    def __init__(self, browser: Chromium, session: str):
        self.browser = browser
        self.session = session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def eval(self, expression: str):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 10.0, every: float = 0.02):
        """Evaluate until true; returns the seconds it took.  BrowserError after `timeout`."""
        start = time.monotonic()
        while True:
            try:
                if self.eval(expression):
                    return time.monotonic() - start
            except BrowserError:
                pass  # the page is still loading
            if time.monotonic() - start > timeout:
                raise BrowserError(f"still not true after {timeout} s: {expression}")
            time.sleep(every)

    def screenshot(self, path: str, width: int, height: int) -> None:
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
