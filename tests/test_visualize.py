"""visualize: page builders over hand-built models, without a browser."""

import base64
import hashlib
import json
import re
from datetime import datetime
from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

import visualize
from graphmem.core.as_known import believed as believed_at
from graphmem.core.temporal import status, status_at
from graphmem.core.times import UTC
from graphmem.models import Decision, Entity, Episode, Version
from visualize._page import inline_script, script_json

pytestmark = pytest.mark.engine_free

HOSTILE = "<img src=x onerror=window.__pwned=1>"
SCRIPTY = "Bad</script><script>window.__pwned=1</script>"
NOW = "2026-11-25"


def t(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _version(id, obj, object_id, valid, recorded, predicate="lives_in", **more) -> Version:
    valid_from, valid_to = valid
    recorded_at, superseded_at = recorded
    return Version(id=id, subject="Ivan", subject_id="ivan", predicate=predicate, object=obj,
                   object_id=object_id, valid_from=t(valid_from),
                   valid_to=t(valid_to) if valid_to else None, recorded_at=t(recorded_at),
                   superseded_at=t(superseded_at) if superseded_at else None, **more)


def late_move():
    """The late move and segment of docs/semantics.md, plus a hostile fact and a retracted hostile name."""
    entities = [Entity(id="ivan", name="Ivan", kind="person"),
                Entity(id="prague", name="Prague", kind="place"),
                Entity(id="berlin", name="Berlin", kind="place"),
                Entity(id="munich", name="Munich", kind="place"),
                Entity(id="hostile", name=HOSTILE, kind="value"),
                Entity(id="scripty", name=SCRIPTY, kind="organisation")]
    episodes = [
        Episode(id="ep1", kind="chat", text="I live in Prague.", actor="Ivan",
                reference_time=t("2026-01-10"), received_at=t("2026-01-10")),
        Episode(id="ep2", kind="chat", text="I moved to Berlin on October 15.", actor="Ivan",
                reference_time=t("2026-11-01"), received_at=t("2026-11-01")),
        Episode(id="ep3", kind="chat", text=f"I was in Munich from Oct 1 {SCRIPTY}",
                reference_time=t("2026-11-20"), received_at=t("2026-11-20")),
        Episode(id="ep4", kind="manual", text=f"likes {HOSTILE}",
                reference_time=t("2026-11-21"), received_at=t("2026-11-21")),
    ]
    versions = [
        _version("v1", "Prague", "prague", ("2020-01-01", None), ("2026-01-10", "2026-11-01"),
                 episodes=["ep1"]),
        _version("v2", "Prague", "prague", ("2020-01-01", "2026-10-15"),
                 ("2026-11-01", "2026-11-20"), episodes=["ep1"]),
        _version("v3", "Berlin", "berlin", ("2026-10-15", None), ("2026-11-01", None),
                 episodes=["ep2"]),
        _version("v4", "Prague", "prague", ("2020-01-01", "2026-10-01"), ("2026-11-20", None),
                 episodes=["ep1"]),
        _version("v5", "Munich", "munich", ("2026-10-01", "2026-10-15"), ("2026-11-20", None),
                 episodes=["ep3"]),
        _version("v6", HOSTILE, "hostile", ("2026-11-21", None), ("2026-11-21", None),
                 predicate="likes", episodes=["ep4"]),
        _version("v7", SCRIPTY, "scripty", ("2025-01-01", None), ("2026-11-22", "2026-11-23"),
                 predicate="works_at", reason=f"typo: {HOSTILE}"),
    ]
    decisions = [
        Decision(id="d1", op="ADD", at=t("2026-01-10"), created=["v1"], episode="ep1"),
        Decision(id="d2", op="UPDATE", at=t("2026-11-01"), created=["v2", "v3"], closed=["v1"],
                 episode="ep2"),
        Decision(id="d3", op="SEGMENT", at=t("2026-11-20"), created=["v4", "v5"],
                 closed=["v2"], episode="ep3"),
        Decision(id="d4", op="ADD", at=t("2026-11-21"), created=["v6"], episode="ep4"),
        Decision(id="dx", op="NOOP", at=t("2026-11-21T12:00:00"), episode="ep4"),
        Decision(id="d5", op="ADD", at=t("2026-11-22"), created=["v7"]),
        Decision(id="d6", op="RETRACT", at=t("2026-11-23"), closed=["v7"],
                 reason=f"typo: {HOSTILE}"),
    ]
    return ({e.id: e for e in entities}, {e.id: e for e in episodes}, versions, decisions)


def beliefs(versions, as_of, valid_at=None):
    """What a store would answer: believed at as_of, valid at valid_at, status filled."""
    valid_at = as_of if valid_at is None else valid_at
    return [v.model_copy(update={"status": status_at(v, as_of, valid_at)}) for v in versions
            if believed_at(v.recorded_at, v.superseded_at, as_of)
            and v.valid_from <= valid_at and (v.valid_to is None or valid_at < v.valid_to)]


def sample_pages() -> dict[str, str]:
    """The three pages of the sample, by name."""
    entities, episodes, versions, decisions = late_move()
    now = t(NOW)
    return {
        "snapshot": visualize.snapshot_html(beliefs(versions, now), entities, episodes,
                                            title=f"Knowledge graph {HOSTILE}", as_of=now,
                                            valid_at=now),
        "evolution": visualize.evolution_html(versions, decisions, entities, episodes),
        "timeline": visualize.timeline_html(entities["ivan"], versions, episodes, as_of=now),
        "timeline-zone": _in_a_long_zone(lambda: visualize.timeline_html(entities["ivan"], versions, episodes,
                                                                           as_of=now)),
    }


def _in_a_long_zone(draw):
    """A page drawn as a store in a zone of a long name draws it (a new user's: over the first year's label)."""
    from zoneinfo import ZoneInfo

    from graphmem.pages.palette import shown_in

    with shown_in(ZoneInfo("America/Argentina/Cordoba"), "America/Argentina/Cordoba"):
        return draw()


@pytest.fixture(scope="module")
def pages():
    return sample_pages()


def page_data(html: str) -> dict:
    found = re.search(r'<script id="graphmem-data" type="application/json">(.*?)</script>',
                      html, re.S)
    return json.loads(found.group(1))


class _Resources(HTMLParser):
    """Collects what a browser would fetch, and inline script and style texts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.fetched, self.inline, self.styles, self.csp, self._open = [], [], [], None, None
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("src", "href", "xlink:href", "action", "poster", "data", "srcset"):
            if attrs.get(name) is not None:
                self.fetched.append(f"{tag} {name}={attrs[name]}")
        if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy":
            self.csp = attrs["content"]
        self.scripts += tag == "script"
        self._open = tag if tag in ("script", "style") and "type" not in attrs else None

    def handle_data(self, data):
        if self._open == "script":
            self.inline.append(data)
        elif self._open == "style":
            self.styles.append(data)

    def handle_endtag(self, tag):
        self._open = None


def test_public_api():
    assert sorted(visualize.__all__) == sorted([
        "snapshot_html", "evolution_html", "timeline_html",
        "render_snapshot", "render_evolution", "render_timeline"])
    for name in visualize.__all__:
        assert callable(getattr(visualize, name))


@pytest.mark.parametrize("name", ["snapshot", "evolution", "timeline"])
def test_page_fetches_nothing(pages, name):
    html = pages[name]
    found = _Resources()
    found.feed(html)
    assert found.fetched == []
    assert not re.search(r"url\(\s*(?!['\"]?data:)", "".join(found.styles))
    assert "@import" not in "".join(found.styles)
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)


@pytest.mark.parametrize("name", ["snapshot", "evolution", "timeline"])
def test_content_policy_allows_exactly_our_inline_code(pages, name):
    found = _Resources()
    found.feed(pages[name])
    policy = dict(part.strip().split(" ", 1) for part in found.csp.split(";"))
    assert policy["default-src"] == "'none'"
    assert "unsafe-inline" not in found.csp and "unsafe-eval" not in found.csp

    def digest(text):
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    assert found.inline and set(policy["script-src"].split()) == {digest(s) for s in found.inline}
    assert set(policy["style-src"].split()) == {digest(s) for s in found.styles}


@pytest.mark.parametrize("name", ["snapshot", "evolution", "timeline"])
def test_user_text_is_never_markup(pages, name):
    html = pages[name]
    assert "<img" not in html.lower()
    assert "<script>window.__pwned" not in html
    found = _Resources()
    found.feed(html)
    assert found.scripts == len(found.inline) + 1
    assert len(found.inline) == {"timeline": 3}.get(name, 4)
    if name == "snapshot":  # its fact table is HTML; the other pages build theirs from the data
        assert "&lt;img src=x onerror=window.__pwned=1&gt;" in html
    assert HOSTILE in json.dumps(page_data(html), ensure_ascii=False)


def test_snapshot_graph(pages):
    data = page_data(pages["snapshot"])
    graph = data["graph"]
    assert sorted(e["id"] for e in graph["edges"]) == ["v3", "v6"]
    sizes = {n["id"]: n["size"] for n in graph["nodes"]}
    assert sizes["ivan"] > sizes["berlin"]
    assert {e["label"] for e in graph["edges"]} == {"lives_in", "likes"}
    berlin = data["facts"]["v3"]
    assert dict(berlin["rows"])["valid"] == "2026-10-15 → open"
    assert dict(berlin["rows"])["believed"] == "2026-11-01 → still believed"
    assert berlin["sources"][0]["text"] == "I moved to Berlin on October 15."
    colours = {n["id"]: n["color"]["background"] for n in graph["nodes"]}
    assert colours["berlin"] != colours["ivan"]


def replay(data: dict, index: int) -> dict[str, str]:
    """What the page shows at stop ``index`` (1-based), rebuilt from its deltas as the page
    does: version id -> status at that write."""
    born = dict.fromkeys(data["start"], 0)
    died: dict[str, int] = {}
    for number, step in enumerate(data["steps"], 1):
        for vid in step["created"]:
            born.setdefault(vid, number)
        for vid in step["closed"]:
            died.setdefault(vid, number)
    at = datetime.fromtimestamp(data["steps"][index - 1]["at"] / 1000, UTC)
    shown = {}
    for vid, (vf, vt, _recorded, sa, retracted) in data["times"].items():
        if born.get(vid, 10**9) <= index < died.get(vid, 10**9) or died.get(vid) == index:
            def ms(x):
                return None if x is None else datetime.fromtimestamp(x / 1000, UTC)
            shown[vid] = status(ms(vf), ms(vt), ms(sa), "r" if retracted else None, at)
    return shown


def test_evolution_stores_deltas_that_rebuild_every_stop(pages):
    entities, episodes, versions, decisions = late_move()
    data = page_data(pages["evolution"])
    steps = data["steps"]
    assert [s["id"] for s in steps] == ["d1", "d2", "d3", "d4", "d5", "d6"]
    assert data["start"] == [] and set(data["times"]) == {v.id for v in versions}
    for index, decision in enumerate([d for d in decisions if d.id != "dx"], 1):
        believed = {v.id for v in versions if believed_at(v.recorded_at, v.superseded_at, decision.at)}
        shown = replay(data, index)
        assert set(shown) == believed | set(decision.closed)
        for version in versions:
            if version.id in shown:
                assert shown[version.id] == status_at(version, decision.at)
    update = steps[1]
    assert update["headline"].startswith("UPDATE: Ivan lives_in Berlin")
    assert (update["closed"], update["created"]) == (["v1"], ["v2", "v3"])
    assert data["episodes"][update["episode"]]["text"] == "I moved to Berlin on October 15."
    assert steps[-1]["op"] == "RETRACT" and steps[-1]["reason"] == f"typo: {HOSTILE}"


def test_evolution_page_grows_linearly_with_the_writes():
    """Each version is stored once and each write names only what it changed."""
    def page(writes: int) -> int:
        versions, decisions = [], []
        for i in range(1, writes + 1):
            versions.append(_version(f"v{i}", f"City {i}", f"city {i}", ("2020-01-01", None),
                                     (f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}", None)))
            decisions.append(Decision(id=f"d{i}", op="ADD", at=versions[-1].recorded_at, created=[f"v{i}"]))
        return len(visualize.evolution_html(versions, decisions, {}, {}))
    base = page(1)
    growth = [page(n) - base for n in (100, 200, 400)]
    assert growth[2] < 2.3 * growth[1] and growth[1] < 2.3 * growth[0]


def test_evolution_without_decisions_steps_at_each_write_time():
    entities, episodes, versions, _ = late_move()
    steps = page_data(visualize.evolution_html(versions, [], entities, episodes))["steps"]
    assert len(steps) == len({v.recorded_at for v in versions}
                             | {v.superseded_at for v in versions if v.superseded_at})


def test_timeline_sends_every_version_once_with_its_writes(pages):
    data = page_data(pages["timeline"])
    assert [v["id"] for v in data["versions"]] == ["v1", "v2", "v4", "v7", "v5", "v3", "v6"]
    bars = {v["id"]: v for v in data["versions"]}
    assert bars["v5"]["other"] == "Munich" and bars["v5"]["incoming"] is False
    assert bars["v7"]["retracted"] and not bars["v3"]["retracted"]
    assert bars["v3"]["valid_to"] is None
    assert data["writes"] == sorted({v["recorded_at"] for v in data["versions"]}
                                    | {v["superseded_at"] for v in data["versions"] if v["superseded_at"]})
    episode = data["facts"]["v5"]["episodes"][0]
    assert data["episodes"][episode]["text"].endswith(SCRIPTY)


def test_timeline_opens_at_its_as_of_time():
    entities, episodes, versions, _ = late_move()
    html = visualize.timeline_html(entities["ivan"], versions, episodes, as_of=t("2026-10-20"),
                                   now=t(NOW))
    data = page_data(html)
    assert data["as_of"] == int(t("2026-10-20").timestamp() * 1000)
    assert [v["id"] for v in data["versions"] if v["recorded_at"] <= data["as_of"]] == ["v1"]
    assert "(6 recorded later)" in html


@pytest.mark.parametrize("builder", ["snapshot", "evolution", "timeline"])
def test_empty_pages(builder):
    entity = Entity(id="nobody", name="Nobody")
    html = {
        "snapshot": lambda: visualize.snapshot_html([], {}, {}, title="Empty"),
        "evolution": lambda: visualize.evolution_html([], [], {}, {}),
        "timeline": lambda: visualize.timeline_html(entity, [], {}, as_of=t(NOW)),
    }[builder]()
    assert 'class="empty"' in html


@given(st.recursive(st.text() | st.integers() | st.none(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)))
def test_script_json_round_trips_and_hides_markup(value):
    text = script_json(value)
    assert json.loads(text) == value
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}


def test_inline_script_cannot_close_or_escape_its_element():
    code = inline_script("var a = '<!--<script></script><b>'; // </SCRIPT >")
    assert "</script" not in code.lower() and "<!--" not in code


def test_an_alias_on_a_timeline_is_labelled_by_the_name_it_gives():
    """A twenty-second new user's timeline of Tomás Ferreira had two alias rows both labelled "Tomás Ferreira" (the
    entity's own name); each is labelled by the name it gives, "Tomi" and "Tomás"."""
    from visualize._timeline import bar_record

    names = (Entity(id="tomas ferreira", name="Tomás Ferreira", kind="person"),
             Entity(id="tomi", name="Tomi", kind="person"), Entity(id="tomás", name="Tomás", kind="person"))
    for alias in ("Tomi", "Tomás"):
        version = Version(id="v1", subject=alias, subject_id=alias.lower(), predicate="alias_of",
                          object="Tomás Ferreira", object_id="tomas ferreira", valid_from=t("2026-01-01"),
                          recorded_at=t("2026-01-01"))
        assert bar_record(names, version)["other"] == alias
    works = Version(id="v2", subject="Tomi", subject_id="tomi", predicate="works_at", object="Hansa",
                    object_id="hansa", valid_from=t("2026-01-01"), recorded_at=t("2026-01-01"))
    assert bar_record(names, works)["other"] == "Hansa"
