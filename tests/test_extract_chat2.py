"""The rules extractor on lower-case chat and answers that lean on the turn before: given names
written in lower case, "still at X" answers, where someone lives now after a move."""

from __future__ import annotations

import pytest

from graphmem.extract import Turn
from graphmem.extract._names import is_given_name
from tests.test_extract_chat import facts


def asked(text: str) -> Turn:
    return Turn(speaker="Sam", text=text)


@pytest.mark.engine_free
def test_a_given_name_in_lower_case_is_known_but_not_an_everyday_word():
    assert all(map(is_given_name, ("danny", "lucas", "jamie", "theo")))
    assert not any(map(is_given_name, ("will", "may", "frank", "rose", "bill", "nan", "the", "mum", "Danny")))


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous", "expected"), [
    # "he"/"she" is the one person named, in lower case too
    ("he got a job at a bike shop", "how's danny?", [("assert", "danny", "works_at", "bike shop", None, None)]),
    ("she lives in leeds now", "and jamie?", [("assert", "jamie", "lives_in", "leeds", None, None)]),
    # a lower-case given name opening the clause, and as the one dumped
    ("ok so lucas got a job at the museum", None, [("assert", "lucas", "works_at", "museum", None, None)]),
    ("she finally dumped greg", "how's Ana?", [("end", "Ana", "dating", "greg", None, None)]),
])
def test_given_names_in_lower_case(text, previous, expected):
    assert facts(text, asked(previous) if previous else None) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous"), [
    ("he got a job at a bike shop", "how's will?"),  # "will" is a word first
    ("he got a job at a bike shop", "how's mum?"),
    ("she got a job at the bank", "and frank?"),
    ("honestly rose got a job at the bank", None),
    ("he got a job at a bike shop", "did danny and lucas come?"),  # two could be meant
])
def test_lower_case_words_that_name_no_one(text, previous):
    assert facts(text, asked(previous) if previous else None) == []


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "Tom went back to Spain", "she went back to Leeds after the divorce", "we're going back to Oslo",
])
def test_going_back_to_a_place_is_no_trip(text):
    # where one returns is home as often as a trip
    assert facts(text, asked("how's Tom?")) == []
