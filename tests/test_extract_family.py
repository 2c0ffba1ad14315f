"""Relations from chat: "my sister Anna", "your mum", "my mom" unnamed, named later; their scoring."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import Store
from graphmem.cli import main
from graphmem.core.entity_kinds import ROLES
from graphmem.core.relations import RELATION_PREDICATES, relation_of
from graphmem.core.times import UTC
from graphmem.evaluation_relations import score_chat
from graphmem.extract import RuleExtractor
from graphmem.ingest import ingest, read_messages

AT = datetime(2024, 3, 1, 12, tzinfo=UTC)


def said(*lines: str, speaker: str = "Maya", other: str | None = "Rosa",
         extractor: RuleExtractor | None = None) -> list[tuple[str, str, str, str]]:
    """The relation and alias facts of each line, said in turn to one extractor."""
    extractor = extractor or RuleExtractor()
    found = []
    for line in lines:
        for f in extractor.extract(line, reference_time=AT, speaker=speaker, other=other):
            if f.predicate.endswith("_of"):
                found.append((f.op, f.subject, f.predicate, f.object or ""))
    return found


@pytest.mark.parametrize("line", [
    "My sister Anna just moved to Rome.",
    "Anna, my sister, says hi",
    "my sister's name is Anna",
    "Anna is my sister",
    "my little sister anna is coming over tonight",
])
def test_a_named_sister(line):
    assert ("assert", "Anna", "sister_of", "Maya") in [(o, s.capitalize(), p, ob) for o, s, p, ob in said(line)]


def test_a_relation_word_in_someone_elses_quoted_words_is_no_relative():
    """A new user's brother: 'her mum is already calling me "our son"' gave him a son of his own."""
    assert said('her mum is already calling me "our son"', 'my mum said "your sister is lovely" lol') == [
        ("assert", "Maya's mother", "mother_of", "Maya")]
    assert said('my sister Ada said "we\'re engaged!!"') == [("assert", "Ada", "sister_of", "Maya")]
    # the speaker's own words in quotes are the speaker's (a reviewer's)
    assert said('I wrote "my son Leo" on the form') == [("assert", "Leo", "son_of", "Maya")]
    assert said('"My brother Tom got engaged" is the text I woke up to!!') == [("assert", "Tom", "brother_of", "Maya")]


def test_each_word_keeps_its_sex_and_direction():
    facts = said("my brother Tom is visiting", "my mum says hi", "my hubby jake made dinner",
                 "my son Leo lost a tooth", "my gf Priya is the best")
    assert ("assert", "Tom", "brother_of", "Maya") in facts  # a brother, not a sister
    assert not any(p == "sister_of" for _, _, p, _ in facts)
    assert ("assert", "Maya's mother", "mother_of", "Maya") in facts  # the parent is the subject
    assert ("assert", "jake", "husband_of", "Maya") in facts
    assert ("assert", "Leo", "son_of", "Maya") in facts  # the child is the subject of son_of
    assert ("assert", "Priya", "girlfriend_of", "Maya") in facts


def test_an_unnamed_relative_is_the_subject_of_their_own_news():
    """A new user's trial: "my brother moved to london on sunday" wrote only that he is her brother. A relative
    of the words that mean one person at a time is the subject through the stand-in, or the one name given for
    a mother or a father; not someone of a wider word, a relative's someone, a sister once a sister was named,
    nor a plan, a question or a supposition."""
    def news(*lines: str) -> list[tuple[str, str, str]]:
        extractor, found = RuleExtractor(), []
        for line in lines:
            found += [(f.subject, f.predicate, f.object or "") for f in extractor.extract(
                line, reference_time=AT, speaker="Sam", other="Jo") if relation_of(f.predicate) is None
                and f.predicate != "alias_of"]
        return found

    assert news("my brother moved to London on Sunday") == [("Sam's brother", "lives_in", "London")]
    assert news("btw my mum's living in Leeds now", "my boss works at Google lol") == [
        ("Sam's mother", "lives_in", "Leeds"), ("Sam's boss", "works_at", "Google")]
    assert news("my mum Carmen is the best", "my mum moved to Vigo") == [("Carmen", "lives_in", "Vigo")]
    assert news("my sister Anna says hi", "my sister lives in Paris") == [("Anna", "lives_in", "Paris")]  # for review:
    # another sister, maybe (see test_extract_chat2's sister said by her word)
    assert news("my cousin moved to Perth", "my friend lives in Paris", "my kids live in Paris",
                "my brother's friend moved to London", "Jo and my brother moved to London",
                "if my brother moves to London", "is my brother moving to London?",
                "my brother might move to Leeds", "my brother wants to move to Leeds") == []


def test_your_mum_is_the_other_participants():
    assert said("tell ur mom hi") == [("assert", "Rosa's mother", "mother_of", "Rosa")]
    assert said("she's your mum han", other="Hannah") == [("assert", "Hannah's mother", "mother_of", "Hannah")]
    assert said("tell ur mom hi", other=None) == []  # whom "your" means is not known


def test_unnamed_then_named_writes_an_alias_once():
    extractor = RuleExtractor()
    assert said("my sister is free", extractor=extractor) == [("assert", "Maya's sister", "sister_of", "Maya")]
    assert said("my sister mel says hi", extractor=extractor) == [
        ("assert", "mel", "sister_of", "Maya"), ("assert", "mel", "alias_of", "Maya's sister")]
    # a second named sister is another one: no alias, and "my sister" now says nothing new
    assert said("my sister Ana is here", "my sister is sick", extractor=extractor) == [
        ("assert", "Ana", "sister_of", "Maya")]
    # a friend is one of many: never an alias
    assert said("my cousin is here", "my cousin lucas is moving", extractor=extractor) == [
        ("assert", "Maya's cousin", "cousin_of", "Maya"), ("assert", "lucas", "cousin_of", "Maya")]


@pytest.mark.parametrize("line", [
    "my sister is free",
    "like my mom always says, measure twice",
    "my mom says hi",
    "my brother texted me",
    "my boss is on my last nerve",
    "my roommate situation got too weird",  # d10: a noun's ending no given name has
    "Bob99, my brother.",  # no digit in a name
])
def test_no_name_from_a_common_word(line):
    assert all(s.startswith("Maya's ") for _, s, _, _ in said(line))


@pytest.mark.parametrize("line", [
    "is your sister coming?",
    "if my brother comes we'll go",
    "imagine my husband cooking",
    "when my mom visits we'll go to the zoo",
    "his sister Anna lives in Rome",  # whose sister is not told
    "my kids are feral",  # a group, no entity
    "my friend is coming",  # which friend?
    "I don't have a sister",
])
def test_nothing_stated(line):
    assert said(line) == []


def test_breakup_makes_an_ex_and_ends_the_partner_word():
    extractor = RuleExtractor()
    said("my boyfriend Jake is sweet", extractor=extractor)
    facts = said("jake and i broke up", extractor=extractor)
    assert ("assert", "jake", "ex_of", "Maya") in facts and ("end", "jake", "boyfriend_of", "Maya") in facts
    assert said("also in sad news kat and i split up") == [("assert", "kat", "ex_of", "Maya")]


def test_kids_named():
    assert said("our kids, Leo and Sofia, say hi") == [("assert", "Leo", "child_of", "Maya"),
                                                        ("assert", "Sofia", "child_of", "Maya")]


def test_relation_predicates_are_between_people():
    assert all(ROLES[p] == ("person", "person") for p in RELATION_PREDICATES.values())


# --- through a store ------------------------------------------------------------------------

CHAT = [
    ("Maya", "2024-01-05T10:00:00Z", "my sister is free finally"),
    ("Rosa", "2024-01-05T10:01:00Z", "good for her! tell ur mom hi"),
    ("Maya", "2024-01-05T10:02:00Z", "will do. my cousin lucas is moving to portugal"),
    ("Rosa", "2024-01-05T10:03:00Z", "is your sister coming to the party?"),
    ("Maya", "2024-02-01T09:00:00Z", "my sister mel says she's coming"),
    ("Rosa", "2024-02-01T09:01:00Z", "my boss is the worst"),
]


def write_chat(folder: Path, labels: list[dict], entities: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    chat = folder / "c1.jsonl"
    chat.write_text("".join(json.dumps({"id": f"c1-{n:04d}", "role": "user", "actor": who, "chat_time": at,
                                        "content": text}) + "\n" for n, (who, at, text) in enumerate(CHAT, 1)))
    (folder / "c1.relations.jsonl").write_text("".join(json.dumps(line) + "\n" for line in labels))
    (folder / "c1.entities.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entities))
    return chat


def test_ingested_relations_and_alias(tmp_path):
    chat = write_chat(tmp_path / "chats", [], [])
    with Store(tmp_path / "store") as store:
        ingest(store, read_messages(chat, tz=store.tz), replay=True, approve=True)
        facts = {(v.subject, v.predicate, v.object) for v in store.beliefs(valid_at="all")}
        mother = next(v for v in store.beliefs(valid_at="all") if v.predicate == "mother_of")
        assert store.kind(mother.subject) == "person"
    assert ("Maya's sister", "sister_of", "Maya") in facts
    assert ("mel", "alias_of", "Maya's sister") in facts
    assert ("Maya's mother", "mother_of", "Maya") in facts  # Rosa's "ur mom" is Maya's
    assert ("lucas", "cousin_of", "Maya") in facts
    assert ("Rosa's boss", "boss_of", "Rosa") in facts
    assert mother.valid_from == datetime(2024, 1, 5, 10, 1, tzinfo=UTC)  # from the message's time
    assert not any(s == "Maya's sister" and o == "Rosa" for s, _, o in facts)  # the question said nothing


def test_scoring(tmp_path):
    labels = [
        {"person": "Mel", "relation": "sister", "of": "Maya", "message": "c1-0001"},
        {"person": "Maya", "relation": "sister", "of": "Mel", "message": "c1-0001"},
        {"person": "Maya's mother", "relation": "mother", "of": "Maya", "message": "c1-0002"},
        {"person": "Lucas", "relation": "friend", "of": "Maya", "message": "c1-0003"},  # labelled otherwise
        {"person": "Maya", "relation": "friend", "of": "Lucas", "message": "c1-0003"},
    ]
    entities = [{"entity": "c1-e1", "kind": "person", "canonical": "Melanie Ortiz", "names": ["Mel", "Melanie"]}]
    chat = write_chat(tmp_path / "chats", labels, entities)
    score = score_chat(chat)
    assert sorted(score.right) == ["Maya's mother mother_of Maya", "Maya's sister sister_of Maya"]
    assert sorted(score.wrong) == ["Rosa's boss boss_of Rosa", "lucas cousin_of Maya"]
    assert score.unnamed == []  # the sister matched through her alias, Mel
    assert (score.labelled, score.found) == (3, 2)
    result = CliRunner().invoke(main, ["eval", "relations", str(tmp_path / "chats"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)[0]
    assert (data["facts"], data["right"], data["precision"], data["labelled"], data["found"]) == (4, 2, 0.5, 3, 2)
    one = CliRunner().invoke(main, ["eval", "relations", str(chat), "--json"])  # one chat, named by its file
    assert one.exit_code == 0 and json.loads(one.output)[0]["right"] == 2, one.output
    labels_file = chat.with_name(chat.name.replace(".jsonl", ".relations.jsonl"))
    refused = CliRunner().invoke(main, ["eval", "relations", str(labels_file)])
    assert refused.exit_code != 0 and "is no chat" in refused.output


def test_relations_beside_the_other_facts():
    found = RuleExtractor().extract("My sister Ana just started at Google.", reference_time=AT, speaker="user")
    assert {(f.subject, f.predicate, f.object) for f in found} == {("Ana", "works_at", "Google"),
                                                                     ("Ana", "sister_of", "user")}
    found = RuleExtractor().extract("I live in New York City with my wife.", reference_time=AT, speaker="user")
    assert {(f.subject, f.predicate, f.object) for f in found} == {("user", "lives_in", "New York City"),
                                                                     ("user's wife", "wife_of", "user")}


def test_a_named_relative_of_someone_named():
    """h9: "Tommy's wife Bríd" is Tommy's wife, and the two are married; a relative of someone
    named is recorded only when named too ("Tom's sister" alone is nobody's entity)."""
    assert said("Tommy's wife Bríd teaches it") == [("assert", "Bríd", "wife_of", "Tommy")]
    assert said("Kojo's daughter Akosua started school") == [("assert", "Akosua", "daughter_of", "Kojo")]
    assert said("Tom's sister is visiting", "Tom's sister's boyfriend Jake called") == []
    couple = RuleExtractor().extract("Tommy's wife Bríd teaches it", reference_time=AT, speaker="Maya", other="Rosa")
    assert ("Tommy", "married_to", "Bríd") in [(f.subject, f.predicate, f.object) for f in couple]


def test_a_relative_s_name_in_lower_case_is_no_chat_spelling():
    """The twenty-sixth session: "my mum alredy lives in leeds" named her mother Alredy; a word that is a plain
    word with a letter left out or mistyped, or chat shorthand, is no name; a name a letter more than a word
    ("sizwe", "tunde") and a name that is a word ("grace") still are."""
    assert said("my mum alredy lives in leeds") == [("assert", "Maya's mother", "mother_of", "Maya")]
    assert said("my bf yaar lives in leeds")[0][1] == "Maya's boyfriend"
    assert said("my brother sizwe moved to cape town") == [("assert", "sizwe", "brother_of", "Maya")]
    assert said("my sister grace moved to leeds") == [("assert", "grace", "sister_of", "Maya")]
    assert said("my sister bex is visiting") == [("assert", "bex", "sister_of", "Maya")]  # too short to judge
    for adverb in ("supposedly", "almost", "nearly"):  # a reviewer's: an adverb is no name
        assert said(f"my brother {adverb} moved to Leeds") == [("assert", "Maya's brother", "brother_of", "Maya")]
    # a new user's: "yes marcus" was read as a full name, and the boyfriend left unnamed
    assert said("dont call him that lol. but yes marcus is my boyfriend")[0] == (
        "assert", "marcus", "boyfriend_of", "Maya")


def test_a_relative_named_in_lower_case_is_the_subject_of_later_news():
    """A third new user's: "my sister bex" (a name too short to read by its letters), then "bex moved to london on
    saturday" wrote nothing: a name the chat gave a relative is a subject in lower case afterwards."""
    x = RuleExtractor()
    first = x.extract("my sister bex is visiting", reference_time=AT, speaker="Chloe")
    assert [(f.subject, f.predicate) for f in first] == [("bex", "sister_of")]
    later = x.extract("bex moved to london on saturday", reference_time=AT, speaker="Chloe")
    assert [(f.subject, f.predicate, f.object) for f in later] == [("bex", "lives_in", "london")]
    assert RuleExtractor().extract("bex moved to london on saturday", reference_time=AT, speaker="Chloe") == []


def test_a_name_with_a_noun_s_ending_that_the_nickname_data_knows():
    assert said("my brother clement said hi") == [("assert", "clement", "brother_of", "Maya")]
    assert said("same kind of job as my sister Ann") == [("assert", "Ann", "sister_of", "Maya")]  # no hedge


def test_a_company_s_partner_is_no_one_s_partner():
    assert said("Google's partner Microsoft is big") == []
    assert said("Tom's wife Élodie came") == [("assert", "Élodie", "wife_of", "Tom")]


@pytest.mark.parametrize(("line", "owner"), [
    ("my mother fell and broke her hip", "Maya"),  # b63 (dev): "fell" named her, and was an alias of her
    ("tell your mom congratulations from the turkish girl", "Rosa"),  # b31 (dev)
    ("what about montreal, your mum, soph", "Rosa"),  # a5 (dev): a place before the relation word
])
def test_a_word_of_english_or_a_place_names_no_relative(line, owner):
    """The thirtieth session: three alias facts of the aliases set's dev chats named a mother "fell",
    "congratulations" and "montreal". A plain English word after the relation word is a name only with a verb after
    it ("my sister grace lives in leeds"), and a place said before it is no name of it."""
    assert said(line) == [("assert", f"{owner}'s mother", "mother_of", owner)]
    assert ("assert", "grace", "sister_of", "Maya") in said("my sister grace lives in leeds")


@pytest.mark.engine_free
@pytest.mark.parametrize("text", ["proud of you my daughter", "thank you my son, God bless",
                                  "well done my dear daughter!!", "Karibu Otieno. You are our son now",
                                  "I miss you my husband. come home"])
def test_a_relation_word_said_to_the_one_spoken_to_names_no_stand_in(text):
    """A new user's family group: "proud of you my daughter" made a "Joseph's daughter" linked to no one (the group's
    "you" names no one), "You are our son now", welcoming a son-in-law, a son; "my daughter is …" still reads one."""
    at = datetime(2026, 3, 2, tzinfo=UTC)
    found = RuleExtractor().extract(text, reference_time=at, speaker="Joseph")
    assert not [f for f in found if f.predicate in ("son_of", "daughter_of", "husband_of")], found
    for said in ("I told you my daughter is a nurse", "I'll send you my son's number", "I showed you my wife!"):
        (told,) = RuleExtractor().extract(said, reference_time=at, speaker="Joseph")  # (a reviewer's: kept)
        assert told.subject.startswith("Joseph's "), said
