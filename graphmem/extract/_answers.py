"""Short answers whose subject and meaning the turn before gives.

"still at bara?" - "still at bara. 22 years now": the place of work still holds; "how's work?" -
"still at the council": the same. "how's jamie? still at the bank?" - "still at the bank. hates
it": the job is the one asked about. A "still in X?" asked of a home ("where are you now, still
in Leeds?") is answered the same way. Nothing when the answer's place is not the one asked
about, or when who is asked about cannot be told.

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re

from ._lexicon import looks_educational
from ._subjects import people_named

__all__ = ["still_there"]

#: An answer opening with "still at/in X" (after "yeah", "yep"…), its subject left unsaid.
_STILL = re.compile(r"^\W*(?:(?:yeah|yea|yep|yes|ya|yup|mhm|yh)\W+)?still\s+(?P<prep>at|in)\s+"
                    r"(?P<obj>[^.,!?;:()]+)", re.IGNORECASE)
#: The question it answers: "still at X?", "(are) you still in X?".
_ASKED_STILL = re.compile(r"\bstill\s+(?:(?:work|working|live|living|based)\s+)?(?P<prep>at|in|for)\s+"
                          r"(?P<obj>[^.,!?;:()]+?)\s*\?")
#: The same answered with the place alone after a "no" or a "but": "it is closer but no, still St James's" to "you
#: still work at St James's?" (a new user's).
_STILL_ALONE = re.compile(r"\b(?:no|nope|nah|yes|yeah|yep|but)\W+still\s+(?:(?:at|in)\s+)?(?P<obj>[^.,!?;:()]+)",
                          re.IGNORECASE)
#: "how's work?", "how's the job?": "still at X" answers where one works.
_ASKED_WORK = re.compile(r"\bhow(?:['’]?s|\s+is)\s+(?:the\s+|your\s+|ur\s+|the\s+new\s+)?(?:work|job)\b\W*$",
                         re.IGNORECASE)
_YOU = re.compile(r"\b(?:you|u|ya|your|ur)\b", re.IGNORECASE)
_LEAD = re.compile(r"^(?:the|that|this|a|an)\s+", re.IGNORECASE)
#: Where one is for now, not where one works or lives ("still in bed", "still at the airport").
_FOR_NOW = frozenset("""home work bed town shock pain love hospital traffic school uni college church
airport station pub party office meeting car gym beach queue line hotel""".split())


def _words(phrase: str) -> list[str]:
    return _LEAD.sub("", phrase.strip()).lower().split()


def still_there(text: str, previous: str | None, speaker: str, other: str | None) -> list[tuple[str, str, str]]:
    """(subject, predicate, object) an answer "still at/in X" states of whom the turn before asks
    about; [] when it states nothing."""
    if previous is None:
        return []
    answer = _STILL.match(text)
    if answer is None and (alone := _STILL_ALONE.search(text)) and (
            earlier := list(_ASKED_STILL.finditer(previous))):
        prep, said = earlier[-1]["prep"].lower(), _words(alone["obj"])  # the preposition the question said
    elif answer is not None:
        prep, said = answer["prep"].lower(), _words(answer["obj"])
    else:
        return []
    prep = "at" if prep == "for" else prep
    asked = [m for m in _ASKED_STILL.finditer(previous) if m["prep"].lower().replace("for", "at") == prep]
    if asked:
        wanted = _words(asked[-1]["obj"])
        if not wanted or said[:len(wanted)] != wanted:
            return []  # "still at that surf school?" - "still in new plymouth": not the one asked about
        obj, about = " ".join(_LEAD.sub("", asked[-1]["obj"].strip()).split()[:len(wanted)]), \
            previous[:asked[-1].start()]
    elif prep == "at" and answer is not None and _ASKED_WORK.search(previous):
        obj, about = " ".join(_LEAD.sub("", answer["obj"].strip()).split()[:4]), ""
    else:
        return []
    if not obj or set(obj.lower().split()) & _FOR_NOW:
        return []
    named = people_named(about)
    if named is None:
        return []  # "my sister, still at the bank?": someone unnamed
    others = named - {speaker, other}
    if _YOU.search(about) and not others:
        subject = speaker
    elif len(others) == 1 and not _YOU.search(about):
        subject = next(iter(others))
    elif re.fullmatch(r"\W*(?:(?:and|so|ok|okay|hey|hi|oh)\W+)*", about, re.IGNORECASE):
        subject = speaker  # "still at bara?", "how's work?": asked of the one who answers
    else:
        return []
    if prep == "in":
        return [(subject, "lives_in", obj)]
    return [(subject, "studies_at" if looks_educational(obj) else "works_at", obj)]
