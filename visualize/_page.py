"""Self-contained pages: assets inlined, user data escaped, and a policy that forbids fetching.

Every script and stylesheet is written into the page, so it opens from disk with no network.
User data reaches the page in two ways only: HTML-escaped by Jinja's autoescape, or as JSON in
a ``<script type="application/json">`` block with ``<``, ``>`` and ``&`` written as ``\\u003c``
and friends, which the page reads with ``JSON.parse`` and shows with ``textContent``.
The Content-Security-Policy allows exactly the inline scripts and styles we wrote (by hash), so
even markup that slipped through could neither run nor load anything.

Internal: draw pages with the functions :mod:`visualize` exports.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from graphmem.pages import shared_asset_path, vis_network_dir
from graphmem.pages.palette import zone_name

__all__ = ["render", "vis_network_dir"]

HERE = Path(__file__).parent
_SCRIPT_END = re.compile(r"</(script)", re.IGNORECASE)
_COMMENT_OPEN = "<!--"

_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


@cache
def asset(name: str) -> str:
    """The text of one of our static files: the pictures' own (``visualize/static``) or one they share
    with the explorer (:mod:`graphmem.pages`)."""
    own = HERE / "static" / name
    return (own if own.is_file() else shared_asset_path(name)).read_text(encoding="utf-8")


@cache
def vis_network() -> tuple[str, str]:
    """vis-network's JavaScript and CSS, as bundled inside the installed pyvis package."""
    folder = vis_network_dir()
    return ((folder / "vis-network.min.js").read_text(encoding="utf-8"),
            (folder / "vis-network.css").read_text(encoding="utf-8"))


def inline_script(code: str) -> str:
    """JavaScript made safe to sit inside a <script> element.

    No ``</script`` may end it early, and no ``<!--`` may switch the HTML parser into the
    escaped state where a later ``<script`` hides the real end tag. Both rewrites keep the
    meaning of the JavaScript (in strings, regular expressions and comments alike).
    """
    return _SCRIPT_END.sub(r"<\\/\1", code).replace(_COMMENT_OPEN, "<\\!--")


def script_json(data: Any) -> str:
    """JSON safe to embed in a <script> element: no ``<``, ``>`` or ``&`` left as such."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def content_policy(scripts: list[str], styles: list[str]) -> str:
    """A CSP that allows only these inline scripts and styles, and no fetching at all."""
    return "; ".join([
        "default-src 'none'",
        "script-src " + " ".join(_digest(s) for s in scripts),
        "style-src " + " ".join(_digest(s) for s in styles),
        "img-src data:",
        "base-uri 'none'",
        "form-action 'none'",
    ])


def render(template: str, *, title: str, data: Any, scripts: list[str], graph: bool = False,
           css: str = "", **context: Any) -> str:
    """Render a page template with its data, our scripts and (for graphs) vis-network inlined.

    ``scripts`` names files in ``visualize/static`` run at the end of the body, in order;
    ``css`` is extra generated CSS (never user text).
    """
    head_scripts = [inline_script(asset("common.js"))]
    styles = [asset("style.css")] + ([css] if css else [])
    body_scripts = [inline_script(asset(name)) for name in scripts]
    if graph:
        js, css = vis_network()
        head_scripts.append(inline_script(js))
        styles.insert(0, css)
    if isinstance(data, dict):
        data = {**data, "zone": zone_name()}  # the page's script shows its times in it too (common.js)
    html = _env.get_template(template).render(
        title=title,
        zone=zone_name(),
        data=Markup(script_json(data)),
        csp=content_policy(head_scripts + body_scripts, styles),
        head_scripts=[Markup(s) for s in head_scripts],
        body_scripts=[Markup(s) for s in body_scripts],
        styles=[Markup(s) for s in styles],
        **context,
    )
    return html
