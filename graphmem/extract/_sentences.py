"""Split a chat message into sentences, each a verbatim substring of it.

Internal: import :func:`split_sentences` from :mod:`graphmem.extract`.
"""

from __future__ import annotations

import re

__all__ = ["split_sentences"]

#: A run of stops (and closing quotes) followed by a space or the end, tried once per run: from the run's
#: first stop, without giving any back (a run of 10,000 "!." before a word was tried from each of its
#: stops, back to each shorter run: quadratic, 80 s for a message of 40,000 characters).
_SENTENCE_END = re.compile(r"(?<![.!?])[.!?]++['\"’”)\]]*+(?=\s|$)|\n+")
_LAST_WORD = re.compile(r"([\w.]+)$")
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof st jr sr mt ft vs etc e.g i.e inc ltd co corp no approx dept univ".split()
)
_LOOK_BACK = 1 + max(map(len, _ABBREVIATIONS))  # a longer word is no abbreviation, cut or whole
#: Abbreviations that end what they abbreviate ("Brindle & Co.", "Acme Inc.", "pens, paper etc."): a capital after
#: one opens a sentence ("… at Brindle & Co. Derek was nice about it", a new user's diary), unless it goes on with the
#: firm's name ("Smith & Co. Solicitors", "Apple Inc. Headquarters", a reviewer's). "Co." ends a firm only after "&"
#: ("Co. Down" is a county).
_ENDING = frozenset("inc ltd co corp etc".split())
_NEXT_CAPITAL = re.compile(r"\s+(?P<word>[A-Z]\w*)")
#: Words that go on with a firm's name after its abbreviation.
_FIRM_GOES_ON = frozenset("""inc ltd co corp etc llp plc limited gmbh pty sa ag bv solicitors estate agents agency
international headquarters hq holdings group partners associates sons brothers bros consulting services""".split())
_AND_CO = re.compile(r"&\s*co$", re.IGNORECASE)


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, each a verbatim (stripped) substring of it."""
    sentences, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        # Only the word just before the stop matters, and an abbreviation is short: look back a
        # few characters, not to the sentence's start (a message of 5,000 "Mr. " was quadratic).
        word = _LAST_WORD.search(text, max(start, end.start() - _LOOK_BACK), end.start())
        if end.group().startswith(".") and word and len(end.group()) == 1:
            token = word.group(1).lower()
            ends_firm = token in _ENDING and (token != "co" or _AND_CO.search(text, max(start, end.start() - 6),
                                                                             end.start()))
            after = _NEXT_CAPITAL.match(text, end.end()) if ends_firm else None
            if not (after and after["word"].lower() not in _FIRM_GOES_ON) and (
                    token in _ABBREVIATIONS or (len(token) == 1 and token.isalpha() and token != "i")):
                continue  # "Dr. Smith", "J. K. Rowling", "Co. Down": not the end of a sentence (but "… at Brindle & Co.
                # Derek was nice": the end)
        sentences.append(text[start:end.end()].strip())
        start = end.end()
    sentences.append(text[start:].strip())
    return [sentence for sentence in sentences if sentence]
