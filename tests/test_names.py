"""One visible name is one entity: NFKC, case and spacing set aside; invisible names and bidirectional
controls refused; a new name that looks like another entity's is told."""

from __future__ import annotations

import unicodedata
import warnings

import pytest

from graphmem import InvalidInput, LookAlikeName, Store
from graphmem.core.gate import plan_assert
from graphmem.core.names import display_name, entity_key, redact
from graphmem.models import Assertion
from tests.conftest import ENGINE, Clock
from tests.test_purge import files_holding

COMPOSED = unicodedata.normalize("NFC", "José")
DECOMPOSED = unicodedata.normalize("NFD", "José")


@pytest.mark.parametrize(("a", "b"), [
    (COMPOSED, DECOMPOSED), ("Ｉｖａｎ", "ivan"), ("Ivan  Petrov", " ivan petrov "), ("Ivan\u200b", "IVAN"),
    ("Straße", "STRASSE"), ("ﬁsh", "fish"),
])
def test_names_that_look_alike_are_one_entity(store, a, b):
    store.add(a, "likes", "tea")
    store.add(b, "likes", "coffee")
    assert len([e for e in store.entities() if e.name not in ("tea", "coffee")]) == 1
    assert sorted(v.object for v in store.beliefs()) == ["coffee", "tea"]
    assert store.entity(a) == store.entity(b)


@pytest.mark.engine_free
def test_a_name_is_shown_without_the_invisible_characters_no_name_needs():
    """A new user's: `add $'Jo\\u200b' likes tea` showed the zero-width space in the name; the joiners stay."""
    assert display_name("Jo\u200b") == "Jo" and display_name("\ufeffAnn\u00ad a\u2060") == "Ann a"
    assert display_name("👨\u200d👩\u200d👧 club") == "👨\u200d👩\u200d👧 club"
    assert display_name("می\u200cخواهم") == "می\u200cخواهم"  # a Persian word's non-joiner


@pytest.mark.parametrize("name", ["", "   ", "\u200b", "\u200b\u200d\ufeff", "\u3164", "\x00", "\u0301"])
def test_a_name_with_nothing_visible_is_refused(store, name):
    with pytest.raises(InvalidInput, match="no visible character"):
        store.add(name, "likes", "tea")
    with pytest.raises(InvalidInput):
        store.add("Ana", "likes", name)
    assert store.decisions() == []


def old_style(store: Store, name: str, predicate: str, obj: str, at: str) -> None:
    """Write a fact as a release before normalised names did: the id is the name trimmed and case-folded."""
    key = " ".join(name.split()).casefold()
    with store._write(at) as txn:
        if not txn._entity_exists(key):
            txn.create_entity(key, name, "entity")
        object_id = txn.ensure_entity(obj)
        plan = plan_assert(store.kind_of(predicate), txn.believed(key, predicate), object_id, txn.at, None)
        txn.carry_out(plan, key, predicate)


def test_an_older_store_is_rekeyed_and_its_twins_merged_as_a_recorded_write(store_dir):
    with Store(store_dir, engine=ENGINE, clock=Clock("2026-06-01")) as store:
        store.add(COMPOSED, "lives_in", "Lisbon", recorded_at="2026-01-01")
        with pytest.warns(LookAlikeName, match="looks like the entity 'José'"):  # another entity then
            old_style(store, DECOMPOSED, "likes", "Porto wine", "2026-01-02")
        old_style(store, DECOMPOSED, "lives_in", "Porto", "2026-01-03")
        old_style(store, "Ｉｖａｎ", "knows", COMPOSED, "2026-01-04")
        store._db.run("store/meta_set", {"key": "schema", "value": "1"})  # made by the release before
        assert len(store.entities()) == 6
        before = {t: store.beliefs(as_of=t, valid_at="all") for t in ("2026-01-02T12:00Z", "2026-01-05")}
    with Store(store_dir, engine=ENGINE, clock=Clock("2026-06-01")) as store:
        assert store.check() == []
        for at, answer in before.items():  # the past is unchanged: ids move, names and facts do not
            again = store.beliefs(as_of=at, valid_at="all")
            assert [(v.id, v.subject, v.object, v.valid_from) for v in again] == \
                   [(v.id, v.subject, v.object, v.valid_from) for v in answer]
        merges = [d for d in store.decisions() if d.op == "MERGE"]
        assert merges and all("merged" in d.reason for d in merges)
        assert (merges[-1].at - merges[0].at).total_seconds() < 0.001  # one write, a decision a tick apart
        jose = store.entity(DECOMPOSED)
        assert jose == store.entity(COMPOSED) and jose.id == entity_key(COMPOSED)
        now = {(v.subject_id, v.predicate, v.object) for v in store.beliefs()}
        assert {(jose.id, "likes", "Porto wine"), (jose.id, "lives_in", "Porto")} <= now
        assert (jose.id, "lives_in", "Lisbon") not in now  # Porto, said later, took over
        assert ("ivan", "knows", COMPOSED) in {(v.subject_id, v.predicate, v.object) for v in store.beliefs()}
        assert store.entity("Ivan").name == "Ｉｖａｎ"
        assert [c.change for c in store.diff("2026-05-31", "2026-06-02")] and all(
            c.change == "merged" for c in store.diff("2026-05-31", "2026-06-02"))
        # purging the name purges every entity that carries it, and its text leaves the files
        store.purge("entity", "JOSÉ")
        assert [e for e in store.entities() if entity_key(e.name) == jose.id] == []
        assert store.check() == []
    for form in (COMPOSED, DECOMPOSED):
        assert files_holding(store_dir, form) == []
    with Store(store_dir, engine=ENGINE) as store:  # migrated once
        assert [d.op for d in store.decisions()].count("MERGE") == len(merges)


@pytest.mark.engine_free
@pytest.mark.parametrize("text, redacted", [
    ("Ivan Petrov said hi", "[purged] said hi"),
    ("ivan\n  PETROV!", "[purged]!"),  # case and spacing set aside, as names are compared
    ("Ｉｖａｎ Ｐｅｔｒｏｖ wrote", "[purged] wrote"),  # full-width letters (NFKC)
    ("I saw Iv\u200ban Petrov's cat", "I saw [purged]'s cat"),  # a zero-width space inside
    ("Ivan Petrova and Ivan Petrovich are others", "Ivan Petrova and Ivan Petrovich are others"),  # whole words only
    ("Ivan and Petrov apart", "Ivan and Petrov apart"),
    ("xIvan Petrov, Ivan Petrov_2", "xIvan Petrov, Ivan Petrov_2"),
    ("José met JOSE\u0301 twice", "[purged] met [purged] twice"),  # composed here, decomposed there
    ("jose typed plain, Ivan Pétrov with one", "[purged] typed plain, [purged] with one"),  # accents set aside
    ("Josef and Joséphine stay", "Josef and Joséphine stay"),
])
def test_redact_replaces_the_name_as_whole_words_compared_as_names_are(text, redacted):
    keys = {entity_key("Ivan  Petrov"), entity_key("JOSE\u0301")}
    assert redact(text, keys) == redacted


@pytest.mark.engine_free
@pytest.mark.parametrize(("name", "text", "redacted"), [  # a reviewer's: each letter by all it stands for
    ("Þór", "the Tor browser, and Thor from work", "the Tor browser, and [purged] from work"),
    ("Sæther", "Saether Sæther Sather", "[purged] [purged] Sather"),
    ("İpek", "Ipek and İpek and ipek", "[purged] and [purged] and [purged]"),
    ("Adébáyọ̀", "Adebayo said hi", "[purged] said hi"),
])
def test_redact_takes_a_letter_by_all_it_stands_for_without_its_accents(name, text, redacted):
    assert redact(text, {entity_key(name)}) == redacted

# -- look-alike names: other entities shown alike (docs/semantics.md, "Names") -------------------------

CYRILLIC = "Iv\u0430n"  # а: U+0430 CYRILLIC SMALL LETTER A
GREEK = "\u0399VAN"  # Ι: U+0399 GREEK CAPITAL LETTER IOTA
BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e",
        "\u200f", "\u061c"]


@pytest.mark.parametrize("control", BIDI)
def test_a_name_with_a_bidirectional_control_is_refused(store, control):
    """U+202E shows "\\u202enavI" as "Ivan": a name holding a bidi control is another name shown."""
    store.add("Ivan", "likes", "tea")
    for name in (f"{control}navI", f"Iv{control}an"):
        for subject, obj in ((name, "tea"), ("Ivan", name)):
            with pytest.raises(InvalidInput, match=f"bidirectional controls.*U\\+{ord(control):04X}"):
                store.add(subject, "likes", obj)
    assert [d.op for d in store.decisions()] == ["ADD"]
    assert sorted(e.name for e in store.entities()) == ["Ivan", "tea"]


@pytest.mark.parametrize(("name", "code"), [(CYRILLIC, "U\\+0430 CYRILLIC SMALL LETTER A"),
                                            (GREEK, "U\\+0399 GREEK CAPITAL LETTER IOTA"),
                                            ("lvan", "U\\+006C LATIN SMALL LETTER L")])
def test_a_new_name_that_looks_like_another_is_kept_and_warned_of(store, name, code):
    store.add("Ivan", "lives_in", "Prague")
    with pytest.warns(LookAlikeName, match=f"the new entity '{name}' \\(it has {code}\\) looks like the entity "
                                           "'Ivan' but is another one"):
        store.add(name, "lives_in", "Berlin")
    assert sorted(v.subject for v in store.beliefs()) == sorted(["Ivan", name])  # two entities, the write kept
    assert store.entity(name).id != store.entity("Ivan").id
    assert [[e.name for e in group] for group in store.look_alikes()] == [sorted(["Ivan", name], key=entity_key)]


def test_no_warning_for_the_same_entity_an_existing_one_or_an_unlike_name(store):
    store.add("Ivan", "lives_in", "Prague")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        store.add("ＩＶＡＮ", "likes", "tea")  # one entity with Ivan: nothing new
        store.add("Ivana", "likes", "tea")
        store.add_many([Assertion("Olga", "knows", "Ivan"), Assertion("Олег", "knows", "Olga")])
        with pytest.warns(LookAlikeName):
            store.add(CYRILLIC, "likes", "tea")
        store.add(CYRILLIC, "likes", "coffee")  # it exists now: said once, when it was made
    assert [[e.name for e in g] for g in store.look_alikes()] == [["Ivan", CYRILLIC]]


def test_names_made_in_one_write_are_compared_with_each_other(store):
    with pytest.warns(LookAlikeName) as told:
        store.add_many([Assertion("Ivan", "knows", CYRILLIC), Assertion(GREEK, "knows", "Olga")])
    assert [str(w.message) for w in told] == [
        f"the new entity '{CYRILLIC}' (it has U+0430 CYRILLIC SMALL LETTER A) looks like the entity 'Ivan' but is "
        "another one; to mean that one, write its name as it is written",
        f"the new entity '{GREEK}' (it has U+0399 GREEK CAPITAL LETTER IOTA) looks like the entity 'Ivan' and "
        f"'{CYRILLIC}' but is another one; to mean one of those, write its name as it is written"]


def test_the_names_index_follows_other_writers_and_purges(store_dir):
    """Built once per open store, kept in step with its writes; read again after another Store
    object wrote (as another process would), and a purged entity is no longer matched."""
    with Store(store_dir, engine=ENGINE) as first:
        first.add("Olga", "likes", "tea")  # builds the index
    with Store(store_dir, engine=ENGINE) as other:
        other.add("Ivan", "likes", "tea")
    with Store(store_dir, engine=ENGINE) as again:
        with pytest.warns(LookAlikeName, match="'Ivan'"):
            again.add(CYRILLIC, "likes", "tea")
        again.purge("entity", "Ivan")
        with pytest.warns(LookAlikeName) as told:
            again.add(GREEK, "likes", "tea")
        assert [str(w.message).split(" looks like ")[1] for w in told] == [
            f"the entity '{CYRILLIC}' but is another one; to mean that one, write its name as it is written"]


@pytest.mark.engine_free
def test_skeletons_are_unicodes():
    from graphmem.core.lookalike import _DATA, differing, skeleton

    text = _DATA.read_text(encoding="utf-8-sig")
    assert "Unicode Security Mechanisms for UTS #39" in text and "# total: 6311" in text
    assert "UNICODE, INC. LICENSE AGREEMENT" in (_DATA.parent / "LICENSE-unicode.txt").read_text(encoding="utf-8")
    assert skeleton(entity_key(CYRILLIC)) == skeleton(entity_key(GREEK)) == skeleton("ivan") == "ivan"
    assert skeleton("m") == skeleton("rn") and skeleton("Al") == skeleton("AI") and skeleton("0") == skeleton("O")
    assert skeleton("José") == skeleton(unicodedata.normalize("NFD", "José")) != skeleton("Jose")
    assert differing("ΙVAN", "Ivan") == ["U+0399 GREEK CAPITAL LETTER IOTA"]


def test_the_cli_warns_of_a_look_alike_and_check_lists_them_without_failing(tmp_path):
    from click.testing import CliRunner

    from graphmem.cli import main

    def gm(*args: str):
        return CliRunner().invoke(main, ["--store", str(tmp_path / "s"), "--engine", ENGINE, *args])

    assert gm("init").exit_code == 0 and gm("add", "Ivan", "likes", "tea").stderr == ""
    added = gm("add", CYRILLIC, "likes", "tea")
    assert added.exit_code == 0 and added.stdout.startswith("ADD ")
    assert added.stderr == (f"warning: the new entity '{CYRILLIC}' (it has U+0430 CYRILLIC SMALL LETTER A) looks "
                            "like the entity 'Ivan' but is another one; to mean that one, write its name as it is "
                            "written\n")
    refused = gm("add", "\u202enavI", "likes", "tea")
    assert refused.exit_code == 1 and refused.stderr.startswith("error: an entity name cannot hold bidirectional")
    assert "\u202e" not in refused.stderr  # shown escaped
    for args in (("check",), ("check", "--json")):
        checked = gm(*args)
        assert checked.exit_code == 0, checked.output
        assert checked.stderr == (f"warning: look-alike names, each another entity: 'Ivan', '{CYRILLIC}' "
                                  "(U+0430 CYRILLIC SMALL LETTER A)\n")
    assert gm("check").stdout == "ok: no invariant is broken\n"


def test_a_look_alike_made_an_error_refuses_the_write(store):
    store.add("Ivan", "likes", "tea")
    with warnings.catch_warnings():
        warnings.simplefilter("error", LookAlikeName)
        with pytest.raises(LookAlikeName, match="looks like the entity 'Ivan'"):
            store.add(CYRILLIC, "likes", "coffee")
    assert [e.name for e in store.entities()] == ["Ivan", "tea"] and len(store.decisions()) == 1
    with pytest.warns(LookAlikeName):  # the undone write left the index sound
        store.add(CYRILLIC, "likes", "coffee")


def test_the_names_are_read_once_per_open_store_not_per_write(store_dir, monkeypatch):
    """A write compares a new name with the index, not with every name read again; the index is
    read again only when another writer moved the store on."""
    from graphmem.engine import Engine

    reads: list[str] = []
    run = Engine.run

    def counted(self, name, params=None):
        reads.append(name)
        return run(self, name, params)

    monkeypatch.setattr(Engine, "run", counted)
    with Store(store_dir, engine=ENGINE) as store:
        for i in range(5):
            store.add(f"Person {i}", "knows", f"Place {i}")
        store.add("Person 0", "likes", "tea")
        assert reads.count("store/entity_names") == 1
        with Store(store_dir, engine=ENGINE) as same:  # another Store on the path shares the index
            same.add("Person 9", "likes", "tea")
        assert reads.count("store/entity_names") == 1
        store._shared.skeletons_at = "another writer's time"  # as after a write from another process
        store.add("Person 10", "likes", "tea")
        assert reads.count("store/entity_names") == 2


@pytest.mark.parametrize("hidden", ["\ufe0f", "\u034f", "\U000e0100", "\u180b", "\u3164"])
def test_a_character_unicode_says_to_ignore_makes_no_second_entity(store, hidden):
    """A variation selector, the combining grapheme joiner, a Hangul filler...: shown as nothing, so
    "Ivan" with one is shown as "Ivan" and is the entity Ivan (found by the attacker's re-run)."""
    store.add("Ivan", "lives_in", "Prague")
    store.add(f"Ivan{hidden}", "likes", "tea")
    assert len({v.subject_id for v in store.beliefs()}) == 1
    assert store.entity(f"Iv{hidden}an").id == store.entity("Ivan").id


def test_a_lone_surrogate_in_a_name_is_one_clear_error(store):
    with pytest.raises(InvalidInput, match="lone surrogate"):
        store.add("Iv\ud800an", "likes", "tea")
    assert store.decisions() == []


def test_a_predicate_in_camel_case_is_pointed_at_its_snake_case():
    """A developer's "LivesIn" was told "did you mean 'livesin'"."""
    from graphmem.core.names import check_predicate
    from graphmem.errors import InvalidPredicate

    for given, meant in (("LivesIn", "lives_in"), ("worksAt", "works_at"), ("lives in", "lives_in")):
        with pytest.raises(InvalidPredicate, match=f"did you mean '{meant}'"):
            check_predicate(given)
