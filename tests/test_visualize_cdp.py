"""The headless-Chromium harness for visualize's browser tests, and proof that it sees problems.

Chromium runs with networking off and is driven over the DevTools protocol through a
WebSocket written with the standard library (no extra package). Tests skip when no Chromium
is installed; CI installs Debian's with ``apt-get install -y chromium``.
"""

import base64
import contextlib
import json
import os
import shutil
import socket
import struct
import subprocess
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.engine_free

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--mute-audio",
         "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
         "--window-size=1400,1000", "--remote-debugging-port=0"]
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_binary() -> str | None:
    """The Chromium to use: $GRAPHMEM_CHROMIUM, else the first one on PATH."""
    return os.environ.get("GRAPHMEM_CHROMIUM") or next(filter(None, map(shutil.which, NAMES)),
                                                         None)


#: For pages served from this machine (the explorer): loopback reachable, nothing else.
LOOPBACK_ONLY = {"--host-resolver-rules=MAP * ~NOTFOUND": "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"}


def start_browser(tmp_path_factory, loopback: bool = False) -> "Browser":
    """A fresh headless Chromium, or a skip naming how to install one.

    With ``loopback``, 127.0.0.1 stays reachable (every other host still resolves to nothing
    and every other request goes to a dead proxy)."""
    binary = chromium_binary()
    if binary is None:
        message = ("headless Chromium not found: `apt-get install -y chromium` "
                   "(or set GRAPHMEM_CHROMIUM to a Chrome/Chromium binary)")
        if os.environ.get("GRAPHMEM_REQUIRE_BROWSER"):
            pytest.fail(message)  # CI installs Chromium: a missing one must not pass as a skip
        pytest.skip(message)
    return Browser(binary, str(tmp_path_factory.mktemp("chromium-profile")),
                   flags=[LOOPBACK_ONLY.get(f, f) for f in FLAGS] if loopback else FLAGS)


def screenshot_dir(tmp_path_factory) -> Path:
    """Where screenshots of failing pages go: $GRAPHMEM_SCREENSHOTS, else a temporary dir."""
    if os.environ.get("GRAPHMEM_SCREENSHOTS"):
        path = Path(os.environ["GRAPHMEM_SCREENSHOTS"])
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("visualize-screenshots")


@contextlib.contextmanager
def screenshot_on_failure(page: "Page", path: Path):
    """Keep a screenshot of the page when the block fails, and print where it is."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(Exception):
            page.screenshot(str(path))
            print(f"screenshot of the failing page: {path}")
        raise


class WebSocket:
    """Just enough of RFC 6455 for DevTools: text frames out (masked), frames in."""

    def __init__(self, url: str, timeout: float = 30):
        parts = urlparse(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"DevTools refused the WebSocket: {head[:200]!r}")

    def _exact(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                raise ConnectionError("DevTools connection closed")
            data += chunk
        return data

    def send(self, text: str) -> None:
        payload = text.encode()
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            header = struct.pack("!BB", 0x81, 0x80 | size)
        elif size < 1 << 16:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, size)
        else:
            header = struct.pack("!BBQ", 0x81, 0x80 | 127, size)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def recv(self) -> str:
        message = b""
        while True:
            first, second = self._exact(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", self._exact(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", self._exact(8))[0]
            payload = self._exact(size)
            opcode = first & 0x0F
            if opcode == 8:
                raise ConnectionError("DevTools closed the WebSocket")
            if opcode in (0, 1, 2):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self) -> None:
        self.sock.close()


class Browser:
    """One headless Chromium with networking off; pages are opened as DevTools sessions."""

    def __init__(self, binary: str, profile: str, timeout: float = 30, flags: list[str] = FLAGS):
        self.timeout = timeout
        self.log = open(os.path.join(profile, "chromium.log"), "w")  # noqa: SIM115
        self.proc = subprocess.Popen([binary, *flags, f"--user-data-dir={profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=self.log,
                                     env={**os.environ, "TMPDIR": profile})  # its scratch files go with the profile
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.monotonic() + timeout
        while not (os.path.exists(port_file) and len(open(port_file).read().split()) >= 2):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"chromium did not start; see {self.log.name}")
            time.sleep(0.05)
        port, path = open(port_file).read().split()[:2]
        self.ws = WebSocket(f"ws://127.0.0.1:{port}{path}", timeout)
        self.ids = 0
        self.events: list[dict] = []

    def send(self, method: str, session: str | None = None, **params) -> int:
        self.ids += 1
        message = {"id": self.ids, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        return self.ids

    def call(self, method: str, session: str | None = None, **params) -> dict:
        wanted = self.send(method, session, **params)
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self._event(message)

    def _event(self, message: dict) -> None:
        self.events.append(message)
        if message["method"] == "Page.javascriptDialogOpening":
            self.send("Page.handleJavaScriptDialog", message.get("sessionId"), accept=True)

    def open(self, url: str) -> "Page":
        """A new tab showing ``url``, loaded."""
        return Page(self, url)

    def close(self) -> None:
        if getattr(self, "ws", None):
            self.ws.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


class Page:
    """One tab: navigate, evaluate, wait, collect problems, screenshot."""

    def __init__(self, browser: Browser, url: str):
        self.browser = browser
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = browser.call("Target.attachToTarget", targetId=target,
                                    flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        self.call("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete'")

    def call(self, method: str, **params) -> dict:
        return self.browser.call(method, self.session, **params)

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 20) -> object:
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value or time.monotonic() > deadline:
                return value
            time.sleep(0.05)

    def status(self) -> dict:
        """What the page reports about itself (graphmem pages only)."""
        return json.loads(self.evaluate("JSON.stringify(window.graphmem ? graphmem.status : null)")
                          or "null")

    def problems(self) -> list[str]:
        """Exceptions, console errors, failed loads and dialogs seen so far on this page."""
        self.evaluate("0")  # a round trip delivers the events already sent
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event["method"], event["params"]
            if method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                found.append("exception: " + details.get("exception", {}).get(
                    "description", details.get("text", "")))
            elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
                found.append("console: " + " ".join(str(a.get("value", a.get("description")))
                                                    for a in params["args"]))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append("log: " + params["entry"]["text"] + " " + params["entry"].get("url", ""))
            elif method == "Page.javascriptDialogOpening":
                found.append("dialog: " + params["message"])
        return found

    def screenshot(self, path: str) -> str:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))
        return path

    def close(self) -> None:
        self.browser.call("Target.detachFromTarget", sessionId=self.session)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    started = start_browser(tmp_path_factory)
    yield started
    started.close()


def _open(browser, tmp_path, body: str) -> Page:
    path = tmp_path / "page.html"
    path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{body}"
                    "</body></html>")
    return browser.open(path.as_uri())


def test_harness_sees_network_attempts_and_they_fail(browser, tmp_path):
    page = _open(browser, tmp_path, '<link rel="stylesheet" href="https://example.com/x.css">'
                                    '<img src="http://example.org/a.png" alt="">')
    problems = page.problems()
    assert any("example.com/x.css" in p for p in problems), problems
    assert any("example.org/a.png" in p for p in problems), problems
    assert page.evaluate("performance.getEntriesByType('resource').length") == 2


def test_harness_sees_console_errors_and_exceptions(browser, tmp_path):
    page = _open(browser, tmp_path, "<script>console.error('boom')</script>"
                                    "<script>notDefinedAnywhere()</script>")
    problems = page.problems()
    assert any(p.startswith("console: boom") for p in problems), problems
    assert any(p.startswith("exception:") and "notDefinedAnywhere" in p for p in problems)


def test_harness_sees_injected_markup_run(browser, tmp_path):
    page = _open(browser, tmp_path, "<img src=x onerror=window.__pwned=1>"
                                    "<script>alert('hello')</script>")
    assert page.wait_for("window.__pwned === 1", timeout=5)
    assert any(p == "dialog: hello" for p in page.problems())
