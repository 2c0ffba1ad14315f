"""The offline rule-based extractor: first-person facts from English chat messages."""

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from graphmem.core.aliases import ALIAS
from graphmem.core.relations import relation_of
from graphmem.errors import InvalidInput
from graphmem.extract_rules import ExtractedFact, Extractor, RuleExtractor, split_sentences

pytestmark = pytest.mark.engine_free

#: A Friday.
REF = datetime(2026, 5, 8, 10, 0, tzinfo=UTC)


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def extracted(text: str, reference: datetime = REF, speaker: str = "user") -> list:
    """The facts of ``text`` other than relations ("my wife", "my sister Ana"), which
    tests/test_extract_family.py tests."""
    return [f for f in RuleExtractor().extract(text, reference_time=reference, speaker=speaker)
            if relation_of(f.predicate) is None and f.predicate != ALIAS]


def facts(text: str, reference: datetime = REF, speaker: str = "user") -> list[tuple]:
    """The facts as (op, predicate, object, valid_from, valid_to) with dates as ISO text."""
    found = extracted(text, reference, speaker)
    for fact in found:
        assert fact.quote in text
        assert fact.subject == speaker
    return [
        (f.op, f.predicate, f.object,
         f.valid_from and f.valid_from.isoformat()[:10], f.valid_to and f.valid_to.isoformat()[:10])
        for f in found
    ]


@pytest.mark.parametrize(
    ("text", "chat_time", "expected"),
    [
        ("I live in Beijing.", "2025-01-10", [("assert", "lives_in", "Beijing", None, None)]),
        ("I moved to Shanghai.", "2025-06-01", [("assert", "lives_in", "Shanghai", None, None)]),
        ("I like apples.", "2025-09-12", [("assert", "likes", "apples", None, None)]),
        ("I don't like apples anymore.", "2025-09-25", [("end", "likes", "apples", None, None)]),
        ("I travelled to Xi'an last October.", "2025-03-08",
         [("assert", "traveled_to", "Xi'an", "2024-10-01", "2024-11-01")]),
        ("I travelled to Hangzhou last week.", "2026-05-08",
         [("assert", "traveled_to", "Hangzhou", "2026-04-27", "2026-05-04")]),
    ],
)
def test_chat_time_example(text, chat_time, expected):
    assert facts(text, at(chat_time)) == expected


def test_relative_phrases_resolve_against_the_given_reference():
    text = "I travelled to Xi'an last October."
    assert facts(text, at("2025-03-08"))[0][3:] == ("2024-10-01", "2024-11-01")
    assert facts(text, at("2025-12-01"))[0][3:] == ("2025-10-01", "2025-11-01")
    assert facts("I moved to Berlin yesterday.", at("2024-02-01")) == [
        ("assert", "lives_in", "Berlin", "2024-01-31", None)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # lives_in
        ("I live in New York City with my wife.",
         [("assert", "lives_in", "New York City", None, None)]),
        ("i live in beijing", [("assert", "lives_in", "beijing", None, None)]),
        ("I'm living in Lyon now.", [("assert", "lives_in", "Lyon", None, None)]),
        ("I relocated to Singapore in March.",
         [("assert", "lives_in", "Singapore", "2026-03-01", None)]),
        ("In 2019, I moved to Berlin.", [("assert", "lives_in", "Berlin", "2019-01-01", None)]),
        ("I've lived in Paris since 2019.", [("assert", "lives_in", "Paris", "2019-01-01", None)]),
        ("I lived in Paris from 2015 to 2019.",
         [("assert", "lives_in", "Paris", "2015-01-01", "2020-01-01")]),
        ("I stayed in Prague from October 1 to 14.",
         [("assert", "traveled_to", "Prague", "2025-10-01", "2025-10-15")]),
        ("We live in Rome.", [("assert", "lives_in", "Rome", None, None)]),
        ("I lived in Paris.", [("end", "lives_in", "Paris", None, None)]),
        ("I don't live in Paris anymore.", [("end", "lives_in", "Paris", None, None)]),
        ("I no longer live in Paris.", [("end", "lives_in", "Paris", None, None)]),
        # works_at
        ("I work at Google as an engineer.", [("assert", "works_at", "Google", None, None)]),
        ("I work for the BBC.", [("assert", "works_at", "BBC", None, None)]),
        ("I joined Microsoft on 8 May 2023.",
         [("assert", "works_at", "Microsoft", "2023-05-08", None)]),
        ("I started working at SAP last week.",
         [("assert", "works_at", "SAP", "2026-04-27", None)]),
        ("I started at Stripe in 2021.", [("assert", "works_at", "Stripe", "2021-01-01", None)]),
        ("I left Google in 2024.", [("end", "works_at", "Google", None, "2024-01-01")]),
        ("I quit my job at Acme Corp.", [("end", "works_at", "Acme Corp", None, None)]),
        ("I stopped working at Google yesterday.",
         [("end", "works_at", "Google", None, "2026-05-07")]),
        ("I don't work at IBM anymore.", [("end", "works_at", "IBM", None, None)]),
        # likes and dislikes
        ("I love hiking, painting and swimming!",
         [("assert", "likes", "hiking", None, None), ("assert", "likes", "painting", None, None),
          ("assert", "likes", "swimming", None, None)]),
        ("I really enjoy jazz.", [("assert", "likes", "jazz", None, None)]),
        ("I no longer like coffee.", [("end", "likes", "coffee", None, None)]),
        ("I stopped liking football last year.",
         [("end", "likes", "football", None, "2025-01-01")]),
        ("I hate mornings.", [("assert", "dislikes", "mornings", None, None)]),
        ("I don't like cheese.", [("assert", "dislikes", "cheese", None, None)]),
        # married_to
        ("I got married to Anna last year.",
         [("assert", "married_to", "Anna", "2025-01-01", None)]),
        ("I married Tom.", [("assert", "married_to", "Tom", None, None)]),
        ("I divorced Anna in 2020.", [("end", "married_to", "Anna", None, "2020-01-01")]),
        ("I got divorced.", [("end", "married_to", None, None, None)]),
        # traveled_to
        ("Last week I went to the Louvre.",
         [("assert", "traveled_to", "Louvre", "2026-04-27", "2026-05-04")]),
        ("I visited Tokyo two weeks ago.",
         [("assert", "traveled_to", "Tokyo", "2026-04-20", "2026-04-27")]),
        ("I flew to Lisbon on May 1st.",
         [("assert", "traveled_to", "Lisbon", "2026-05-01", "2026-05-02")]),
        ("I traveled to Rome.", [("assert", "traveled_to", "Rome", None, None)]),
        # studies_at and graduated_from
        ("I'm studying physics at Tsinghua University.",
         [("assert", "studies_at", "Tsinghua University", None, None)]),
        ("I study at MIT.", [("assert", "studies_at", "MIT", None, None)]),
        ("I graduated from MIT in 2019.",
         [("assert", "graduated_from", "MIT", "2019-01-01", "2020-01-01")]),
        ("I was a student at MIT.", [("end", "studies_at", "MIT", None, None)]),
        # is_called
        ("My name is John Smith.", [("assert", "is_called", "John Smith", None, None)]),
        ("my name's ana", [("assert", "is_called", "ana", None, None)]),
        ("I'm called Bob.", [("assert", "is_called", "Bob", None, None)]),
        ("Call me Ishmael.", [("assert", "is_called", "Ishmael", None, None)]),
        # several facts in one message
        ("My name is Li and I live in Hangzhou. I work at Alibaba!",
         [("assert", "is_called", "Li", None, None),
          ("assert", "lives_in", "Hangzhou", None, None),
          ("assert", "works_at", "Alibaba", None, None)]),
        ("I like apples and I live in Paris.",
         [("assert", "likes", "apples", None, None), ("assert", "lives_in", "Paris", None, None)]),
        ("I moved to the US last year.", [("assert", "lives_in", "US", "2025-01-01", None)]),
        ("I moved to Berlin in March and I started working at SAP last week.",
         [("assert", "lives_in", "Berlin", "2026-03-01", None),
          ("assert", "works_at", "SAP", "2026-04-27", None)]),
    ],
)
def test_extracts(text, expected):
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I don't live in Paris.",
        "I never moved to Berlin.",
        "I didn't quit Google.",
        "I didn't go to Paris last week.",
        "Do I live in Rome?",
        "Should I move to Berlin?",
        "If I move to Berlin, I will tell you.",
        "I'd love to live in Rome.",
        "I would like apples.",
        "I like to swim.",
        "I like it.",
        "I went to bed early.",
        "I visited my mom.",
        "Call me back tomorrow.",
        "I quit smoking.",
        "I'm married.",
        "She moved to Lyon.",
        "May I ask where you live?",
        "I work at 9am.",
        "I work for myself.",
        "I love it here.",
        "I left my keys at home.",
        "",
    ],
)
def test_extracts_nothing(text):
    assert facts(text) == []


def test_quote_is_the_verbatim_sentence():
    text = "Hi there!  I moved to Shanghai last month.\nAlso, I like tea."
    found = RuleExtractor().extract(text, reference_time=REF)
    assert [f.quote for f in found] == ["I moved to Shanghai last month.", "Also, I like tea."]
    assert all(f.quote in text for f in found)


def test_speaker_is_the_subject():
    [fact] = RuleExtractor().extract("I live in Oslo.", reference_time=REF, speaker="alice")
    assert fact.subject == "alice"
    with pytest.raises(InvalidInput):
        RuleExtractor().extract("I live in Oslo.", reference_time=REF, speaker=" ")


def test_times_follow_the_extractor_zone():
    extractor = RuleExtractor(tz="Asia/Shanghai")
    [fact] = extractor.extract("I visited Xi'an yesterday.", reference_time=REF)
    assert fact.valid_from == at("2026-05-06T16:00")
    assert fact.valid_to == at("2026-05-07T16:00")


def test_rule_extractor_is_an_extractor():
    extractor = RuleExtractor()
    assert isinstance(extractor, Extractor)
    assert extractor.name == "rules"


def test_extracted_fact_is_frozen_and_serialises_times_as_iso():
    fact = ExtractedFact(subject="user", predicate="lives_in", object="Oslo",
                         valid_from=at("2025-01-10"), quote="I live in Oslo.")
    assert fact.op == "assert"
    assert fact.model_dump(mode="json")["valid_from"] == "2025-01-10T00:00:00Z"
    with pytest.raises(ValidationError):
        fact.object = "Bergen"


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("I live in Beijing.", ["I live in Beijing."]),
        ("Hello Dr. Smith. I live in St. Louis!", ["Hello Dr. Smith.", "I live in St. Louis!"]),
        ("J. K. Rowling wrote it... ok?  Yes", ["J. K. Rowling wrote it...", "ok?", "Yes"]),
        ("Pi is 3.14. Right\nnew line", ["Pi is 3.14.", "Right", "new line"]),
        ("", []),
    ],
)
def test_split_sentences(text, sentences):
    assert split_sentences(text) == sentences


def all_facts(text: str, reference: datetime = REF) -> list[tuple]:
    """The facts as (op, subject, predicate, object, valid_from, valid_to), dates as ISO text."""
    return [(f.op, f.subject, f.predicate, f.object,
             f.valid_from and f.valid_from.isoformat()[:10], f.valid_to and f.valid_to.isoformat()[:10])
            for f in extracted(text, reference)]


@pytest.mark.parametrize(("text", "expected"), [
    # first person plural and named others
    ("We moved to Porto in March.", [("assert", "user", "lives_in", "Porto", "2026-03-01", None)]),
    ("My sister Ana just started at Google.", [("assert", "Ana", "works_at", "Google", None, None)]),
    ("My parents Jim and Carol live in Leeds.",
     [("assert", "Jim", "lives_in", "Leeds", None, None),
      ("assert", "Carol", "lives_in", "Leeds", None, None)]),
    ("Tom and I moved to Oslo.", [("assert", "user", "lives_in", "Oslo", None, None),
                                  ("assert", "Tom", "lives_in", "Oslo", None, None)]),
    ("Rachel and I broke up last week.", [("end", "user", "dating", "Rachel", None, "2026-04-27")]),
    ("My friend Liam, who lives in Dublin, just visited.",
     [("assert", "Liam", "lives_in", "Dublin", None, None)]),
    ("My brother Ahmed got a job at Etsy and moved to Brooklyn.",
     [("assert", "Ahmed", "works_at", "Etsy", None, None),
      ("assert", "Ahmed", "lives_in", "Brooklyn", None, None)]),
    ("My sister Mia lives in Rome. She works at FAO.",
     [("assert", "Mia", "lives_in", "Rome", None, None),
      ("assert", "Mia", "works_at", "FAO", None, None)]),
    # endings and new states
    ("I moved from Chicago to Denver last year.",
     [("end", "user", "lives_in", "Chicago", None, "2025-01-01"),
      ("assert", "user", "lives_in", "Denver", "2025-01-01", None)]),
    ("I switched from Accenture to KPMG in November.",
     [("end", "user", "works_at", "Accenture", None, "2025-11-01"),
      ("assert", "user", "works_at", "KPMG", "2025-11-01", None)]),
    ("I left Berlin in 2020.", [("end", "user", "lives_in", "Berlin", None, "2020-01-01")]),
    ("I left Spotify in 2020.", [("end", "user", "works_at", "Spotify", None, "2020-01-01")]),
    ("I used to work at IBM.", [("end", "user", "works_at", "IBM", None, None)]),
    ("I'm not living in Dublin any more.", [("end", "user", "lives_in", "Dublin", None, None)]),
    ("We're no longer in Madrid.", [("end", "user", "lives_in", "Madrid", None, None)]),
    ("I'm not into gaming anymore.", [("end", "user", "likes", "gaming", None, None)]),
    ("I haven't lived in Cairo since 2020.", [("end", "user", "lives_in", "Cairo", None, "2020-01-01")]),
    ("I got fired on Friday.", [("end", "user", "works_at", None, None, "2026-05-01")]),
    # synonyms, tenses, "these days"
    ("I'm living in Porto these days.", [("assert", "user", "lives_in", "Porto", None, None)]),
    ("I've been working at the Mayo Clinic since 2021.",
     [("assert", "user", "works_at", "Mayo Clinic", "2021-01-01", None)]),
    ("I'm really into bouldering these days.", [("assert", "user", "likes", "bouldering", None, None)]),
    ("I can't stand cilantro.", [("assert", "user", "dislikes", "cilantro", None, None)]),
    ("I'm a software engineer at Stripe.", [("assert", "user", "works_at", "Stripe", None, None)]),
    ("I'm a sophomore at Ohio State.", [("assert", "user", "studies_at", "Ohio State", None, None)]),
    ("I ran into Tom yesterday.", [("assert", "user", "met", "Tom", "2026-05-07", "2026-05-08")]),
    ("Just got back from Iceland!", [("assert", "user", "traveled_to", "Iceland", None, None)]),
    ("I was in Chicago for a conference last week.",
     [("assert", "user", "traveled_to", "Chicago", "2026-04-27", "2026-05-04")]),
    ("I'm dating a guy named Leo.", [("assert", "user", "dating", "Leo", None, None)]),
    ("I'm married to Kenji.", [("assert", "user", "married_to", "Kenji", None, None)]),
    ("Everyone calls me Bex.", [("assert", "user", "is_called", "Bex", None, None)]),
])
def test_extracts_about_anyone(text, expected):
    assert all_facts(text) == expected


@pytest.mark.parametrize("text", [
    "I might move to Oslo next year.",
    "Thinking about moving to Barcelona.",
    "I'm thinking of leaving Uber.",
    "I'll visit Rome someday.",
    "We're moving to Sydney!",
    "I want to go to Iceland.",
    "If I get the job I'll have to move to Zurich.",
    "I was supposed to fly to Berlin yesterday.",
    "I think I'm falling for Olivia.",
    "He lives in Kraków, I think.",
    "My cousin moved to Perth.",
    "She works at Google.",
    "I never made it to Berlin.",
    "I'm interviewing at Meta next week.",
    "I don't think I'll ever leave London.",
    "I visited Tom.",
    "I'm originally from Ohio.",
    "We're not with Comcast anymore.",
    # plans are not facts, even with a time to come (the chat says later whether they happened)
    "We're moving to Vienna next month.",
    "I'm flying to Rome on Saturday.",
    "I start at Microsoft on Monday.",
])
def test_hedged_future_and_unnamed_say_nothing(text):
    assert all_facts(text) == []


_WORDS = ("I we my sister Ana Tom and moved to from left work at like don't anymore no longer "
          "used in Berlin Google last week since 2019 visited met , . ? ! 'm 've might will "
          "the jazz broke up with got a job married divorced").split()


@given(st.lists(st.sampled_from(_WORDS), max_size=30))
def test_any_text_gives_well_formed_facts(words):
    text = " ".join(words)
    for fact in RuleExtractor().extract(text, reference_time=REF):
        assert fact.quote in text
        assert fact.op in ("assert", "end") and fact.subject
        assert fact.op == "end" or fact.object
        assert fact.valid_to is None or fact.valid_from is None or fact.valid_to > fact.valid_from


def test_a_time_outside_the_supported_years_is_never_glued_into_the_object():
    from graphmem.extract import RuleExtractor

    said = datetime(2026, 5, 1, tzinfo=UTC)
    result = RuleExtractor().extract_result("I moved to Oslo 2030 years ago and I work at Acme.", reference_time=said)
    assert [(f.predicate, f.object) for f in result.facts] == [("works_at", "Acme")]
    assert "'2030 years ago'" in result.note and "outside the supported years" in result.note
    assert RuleExtractor().extract("I moved to Oslo 2030 years ago.", reference_time=said) == []


def _every_verb_that_matches(sentence: str) -> list[int]:
    from graphmem.extract._verbs import VERBS
    return [n for n, verb in enumerate(VERBS) if verb.head.search(sentence)]


@pytest.mark.parametrize("sentence", [
    "we re-adopted him lol", "ADOPTED A PUPPY", "my_dog ate it", "I'm MOVING to Oslo", "Hi, I'm Bex!",
    "bought it. got a job at Nando's", "I ſold the car", "I haKe a dog", "  my  sister's   dog",
    "ok", "", "1984: moved to Leeds", "i've been living in Porto since may", "called myself lucky"])
def test_the_verbs_a_sentence_is_scanned_for_include_every_verb_that_matches_it(sentence):
    """The rules skip a verb none of whose first words a sentence's words begin like (a prefilter for
    speed: without it most of the extractor's time was 93 patterns scanning every sentence); it must
    never skip one that matches. A sentence holding a letter a case-blind pattern reads as ASCII ("ſ",
    Kelvin's "K", read as "s", "k"): every verb is tried."""
    from graphmem.extract._verbs import verbs_for
    tried = {n for n, _ in verbs_for(sentence)}
    assert set(_every_verb_that_matches(sentence)) <= tried


@given(st.lists(st.sampled_from(["my", "our", "adopted", "moved", "to", "I", "'m", "got", "a", "job", "at",
                                 "re-", "ADOPT", "Have", "  ", ",", ".", "!", "k", "ſ", "é", "-", "live", "’", "😂",
                                 "\u212a", "İ", "ı", "éadopted", "café",
                                 "in", "joined", "started", "broke", "up", "with", "call", "me"]), max_size=12))
def test_no_verb_that_matches_is_skipped_for_any_words(words):
    from graphmem.extract._verbs import verbs_for
    sentence = " ".join(words).replace(" '", "'")
    assert set(_every_verb_that_matches(sentence)) <= {n for n, _ in verbs_for(sentence)}


def test_most_verbs_are_not_scanned_for_an_ordinary_sentence():
    from graphmem.extract._verbs import VERBS, verbs_for
    assert len(verbs_for("lol same, the weather here is awful")) < len(VERBS) / 3
    assert len(verbs_for("i’m sooo tired 😂 café later?")) < len(VERBS) / 3  # beyond ASCII, but no "ſ"


def test_the_letters_a_case_blind_pattern_reads_as_ascii_are_all_known():
    """Every code point beyond ASCII that a case-blind ``[a-z0-9_]`` matches: a sentence holding one
    is scanned for every verb."""
    import re

    from graphmem.extract._verbs import _FOLDS_TO_ASCII
    ascii_word = re.compile(r"[a-z0-9_]", re.IGNORECASE)
    assert {chr(c) for c in range(0x80, 0x110000) if ascii_word.fullmatch(chr(c))} == _FOLDS_TO_ASCII


def test_the_prefilter_reads_this_pythons_parse():
    """``re._parser`` is private; where its layout changes, every verb is tried (slower, never wrong)."""
    from graphmem.extract._verbs import _PARSE_READ, VERBS
    assert _PARSE_READ and sum(verb.starts is None for verb in VERBS) <= 2
