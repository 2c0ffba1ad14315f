"""Facts and messages in one ranking: what a search returns.

A question is answered twice: from what the store concluded (facts, :mod:`graphmem.recall._rank`) and from what was
said (messages, :mod:`graphmem.recall._messages`). The two lists are fused by reciprocal rank (a fact at rank r and
a message at rank r weigh alike). Facts that match the question only by the entity it names (no word, synonym or
time of theirs does) come after every message: a fact found only because it is about the person asked of says
little about what was asked. So do facts about no one the question names (neither the entity nor a neighbour of
it), when it names someone by name and does not ask *who*: "where does Tom live", with no home of Tom's known, is
not answered by Priya's (on the 78 dev conversations, evidence recall@5 0.711 -> 0.723, 48 questions found and none
lost; the aliases set's dev questions 0.834 both). A message that a fact above it already cites is not listed again
(the fact shows its sentence). An alias fact ("lenny alias_of Lena") comes after the messages too, unless the
question asks about names ("what do they call her", "who is lenny"): it leads to the person asked of, and answers
nothing else. A question naming an event no fact is known for ("before he moved to Lisbon", with no move to Lisbon
known) puts every fact after the messages. A time phrase that keeps no message (nothing was said then, nor names a
time then) keeps those said before the window's end, and says so in each answer's ``time``. A question that asks
*when* then puts first, among the first :data:`WHEN_REACH` facts and the first messages alike, those whose time
comes from words (a message whose phrases resolve to a date, a fact of an event) over those that only have the time
they were said, before the two are fused. A question that asks *who* a relation phrase names, and nothing more
("who is nadia's boss", resolved through `Dan boss_of Nadia`), puts that fact first: it is the answer, where the
message it came from and the other names' facts only lead to it (not "who did nadia's boss meet", where it only
leads to the answer; not when the question names an event no fact is known for).

Internal: search with :meth:`graphmem.Store.search`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import TypeVar

from ..core.alias_evidence import TITLE_WORDS
from ..core.aliases import ALIAS
from ..core.relations import covers, relation_of
from ..when import HOLIDAY_NAMES
from ._index import INF, moment
from ._messages import Found, MessageIndex
from ._models import NOTHING_SAID, NOTHING_SAID_BY, Answer, Hit, MessageHit, Resolved, SaidTime, TimeFilter, Turn
from ._query import FIRST_PERSON, I_ASKED, Period, Plan
from ._synonyms import Table
from ._text import SAYING, found_by, is_stop, name_terms, term, tokens

__all__ = ["WHEN_REACH", "asks_names", "asks_when", "asks_who", "fuse", "message_words", "messages", "names_someone",
           "only_names", "synonym_words", "time_filter"]

A = TypeVar("A", Hit, MessageHit)

#: Reciprocal-rank fusion's constant.
RRF_K = 60
#: How far down a question asking *when* looks for answers dated by their words to put first: among the first ten
#: facts, and the first ten messages, the dated ones first, the rest after, each group in its own order, before
#: the two lists are fused. A fixed window, so the first answers of a search are those of a longer one (it was
#: every answer found for the limit asked, so a longer search could put another first: a new user's trial), and
#: within each list, so a dated message does not go above the fact that answers ("when did priya start at
#: deloitte": "started at the council on monday" is dated, and no answer). On the 74 dev conversations, evidence
#: recall@5 0.702 with 5, 0.713 with 10 (as a search of five answers had it), 0.714 with 15; the aliases set's dev
#: questions 0.833 before, 0.832 with 10.
WHEN_REACH = 10
#: The weight of the name of a person a relation phrase led to ("my sister": Mel), beside the
#: words the question said: inferred, not said.
NAME_WEIGHT = 0.5
#: The weight of a word the synonyms give for a predicate the question names ("what does Sanne do for a
#: living": "job", "work", "boss", …), beside the words it said. On the 62 dev conversations, evidence recall@5
#: 0.678 without, 0.686 at 0.2, 0.690 at 0.4, 0.691 at 0.6; the aliases set's dev questions 0.823 -> 0.827 at 0.4.
SYNONYM_WEIGHT = 0.4
#: Words of a question that say how it asks about messages, not what they hold.
_WHEN = re.compile(r"\b(?i:when|what\s+(?:date|day|month|year|time)|how\s+long\s+ago|which\s+(?:day|month|year))\b")


#: A question asking for the person a relation phrase names, and nothing more: "who is…", "who's…", "who was…",
#: "what's the name of…" (fillers before it; "now", "again" after it).
_WHO = (r"^\W*(?:(?:and|so|ok|okay|hey|remind\s+me|quick\s+one)\W+)*(?:who(?:\s+is|\s+was|['’]s)|"
        r"what['’]?s\s+the\s+name\s+of|what\s+is\s+the\s+name\s+of)\s+(?:the\s+)?{phrase}"
        r"(?:\s+(?:now|again|these\s+days|then))?[\W_]*$")


def asks_who(text: str, phrase: str) -> bool:
    """True for a question that asks who the relation ``phrase`` names, and nothing more ("who is nadia's boss"),
    not one the phrase only leads through ("who did nadia's boss meet", "who was her boss before she moved")."""
    return re.match(_WHO.format(phrase=re.escape(phrase)), text, re.IGNORECASE) is not None


#: A question about what someone is called: "what does he call her", "her nickname", "who is lenny".
_NAMES = re.compile(r"(?i)\b(?:call(?:s|ed|ing)?|name[sd]?|nick\s*names?|known\s+as|goes\s+by|alias(?:es)?|"
                    r"who\s+is|who['’]s|who\s+was)\b")


#: A question asking *who*: a fact about someone it does not name may be its answer ("who has a job other than Tom").
_ASKS_WHO = re.compile(r"\bwho(?:m|se)?\b", re.IGNORECASE)


#: A *who* question asked of someone it names: "who is Beatriz dating", "who did Tomás marry", "who is Hugo" (a new
#: user's: another couple came first); not "who is dating Tom", "who got a new job".
_WHO_OF = re.compile(r"(?i)\bwhom?(?:\s+(?:is|was|are|were|does|did|do|has|had|will)|['’]s)\s+"
                     r"(?P<name>[^\W\d_][\w'’-]*)")
#: A who question asking of someone beside the one named: "who does Ana work with", "who lives near Ana".
_WHO_BESIDE = re.compile(r"(?i)\b(?:with|near|beside|alongside|next\s+to)\b")


def names_someone(text: str, plan: Plan) -> bool:
    """Whether the question names someone by name, known or not ("where does Tom work", no Tom known: a new user's),
    or asks of the speaker as "I", "my", "we" or "our" (not "me", "us": the one told), and does not ask *who*: then a
    fact about no one it names is no answer to it (:func:`fuse`). A reviewer's: "remind me who got a new job", asked
    by Tom, put `Ana works_at Google` below forty messages when "me" counted; a new user's: "where do I work", asked
    by Inês, put her cousin's job first. A *who* question asked of someone it names is such a question too ("who is
    Beatriz dating": not Tomás's girlfriend, whom Beatriz met)."""
    named = {a.said.casefold() for a in plan.anchors if a.via is None} | {s.casefold() for s in plan.strangers}
    of_named = (m := _WHO_OF.search(text)) is not None and m["name"].casefold() in named and not _WHO_BESIDE.search(
        text)  # ("who does Ana work with": a neighbour answers; a reviewer's)
    return (not _ASKS_WHO.search(text) or of_named) and (any(
        a.said.casefold() not in FIRST_PERSON or a.said.casefold() in I_ASKED for a in plan.anchors)
        or bool(plan.strangers))


def asks_names(text: str) -> bool:
    """True for a question about names ("what do they call her", "who is lenny"): alias facts answer it; to
    any other they are no answer, only a way to the person asked of."""
    return _NAMES.search(text) is not None


def keywords(text: str) -> bool:
    """Whether ``text`` is a few words looked for ("Taghazout", "darija classes", "Taghazout?"), not a question: no
    question word first, at most :data:`KEYWORDS` words. Its answers are the messages that hold the words first
    (a new user's: the replies to questions naming a place came before the messages naming it)."""
    return not _ASKING.match(text) and len(tokens(text)) <= KEYWORDS


#: How many words a search may have and still be only words looked for (:func:`keywords`).
KEYWORDS = 3
_ASKING = re.compile(r"\W*(?i:who|whom|whose|what|whats|what's|when|where|why|how|which|did|do|does|is|are|was|"
                     r"were|can|could|would|should|will|have|has|had|any|tell|list|show)\b")


def asks_when(text: str) -> bool:
    """True for a question that asks for a time ("when did…", "what year…", "how long ago…")."""
    return _WHEN.search(text) is not None


def message_words(plan: Plan, speaker: str | None, names: Sequence[str] = (), aliases: Sequence[str] = ()
                  ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """The weighted stems a question looks for in messages: its words that carry weight, less
    its time phrase (not an event's: "moved", "Lisbon") and the words of saying; ``names`` (the people its
    relation phrases led to) theirs, at ``NAME_WEIGHT``. Second, the speaker's name, which "I", "my" with a
    speaker add: it finds messages only for a question with no other word ("what did I say in march"); for
    one with others it only scores those they find ("what is my blood type" is not answered by every message
    the speaker wrote: a new user's trial). ``aliases``, the other names of the entities the question names, count as
    the name said does in a question of what was said ("what did Baba say": of Joseph Kamau's messages too, Baba an
    alias of his), as relation phrases' people do in others ("where does Mam live" is not asked of every message
    naming Nana Keane)."""
    phrase = plan.period.text if plan.period is not None and not plan.period.event else ""
    at = plan.text.find(phrase) if phrase else -1
    found: dict[str, float] = {}
    first_person = saying = False
    for token in tokens(plan.text):
        saying = saying or token.word in SAYING
        if at >= 0 and token.start >= at and token.end <= at + len(phrase):
            continue
        if token.word in FIRST_PERSON:
            first_person = True
        if is_stop(token.word) or token.word in SAYING:
            continue
        found.setdefault(term(token.word), 1.0)
    own = dict.fromkeys(name_terms(speaker), 1.0) if first_person and speaker else {}
    titles = _title_terms()
    for name in aliases:
        words = name_terms(name)
        for word in words:
            if word not in titles or all(w in titles for w in words):  # "aunty Tina", another name of Mum: not
                found.setdefault(word, 1.0 if saying else NAME_WEIGHT)  # every message of Aunty Fa'a's ("Tito"
                # alone, Alberto's, is his name: a reviewer's)
    for name in names:
        for word in name_terms(name):
            found.setdefault(word, NAME_WEIGHT)
    if not found:
        return list(own.items()), []
    return list(found.items()), [(word, weight) for word, weight in own.items() if word not in found]


@cache
def _title_terms() -> frozenset[str]:
    """:data:`TITLE_WORDS` as recall compares words."""
    return frozenset(map(term, TITLE_WORDS))


def synonym_words(plan: Plan, synonyms: Table | None) -> list[tuple[str, float]]:
    """For each predicate a phrase of the question names ("do for a living" names works_as), the
    one-word synonyms of that predicate in ``synonyms`` (the store's table), at ``SYNONYM_WEIGHT``:
    they score a message, never propose one (the search leaves out those the question says)."""
    named = {predicate for hit in plan.synonyms for predicate in hit.predicates}
    if not synonyms or not named:
        return []
    words = [key[0] for key, predicates in sorted(synonyms.items())
             if len(key) == 1 and not named.isdisjoint(predicates)]
    # a phrase is kept as Snowball stems, a message's words by their base's for an irregular form ("went": "go")
    return [(word, SYNONYM_WEIGHT) for word in dict.fromkeys([*words, *(found_by(w) for w in words)])]


#: A time phrase that is a holiday's or a season's name alone (and "the holidays"), no year nor "last" or "next": the
#: time, or the talk of it.
_HOLIDAY_ALONE = re.compile(r"(?i)\W*(?:(?:on|at|for|over|during|the)\s+)*(?:" + "|".join(
    sorted(map(re.escape, HOLIDAY_NAMES), key=len, reverse=True)) + r"|holidays|summer|winter|spring|autumn|fall)"
                            r"(?:\s+day)?\W*")  # (a season too: "what are our plans for the summer", a new user's)


def time_filter(period: Period | None) -> TimeFilter | None:
    """The window a question's time phrase set, as an answer reports it (open ends null)."""
    if period is None:
        return None
    return TimeFilter(text=f"{period.text} (read against {period.against})" if period.against else period.text,
                      valid_from=None if period.start <= -INF else moment(period.start),
                      valid_to=moment(period.end))


def messages(index: MessageIndex, plan: Plan, t: int, speaker: str | None, limit: int,
             resolved: Sequence[Resolved] = (), synonyms: Table | None = None,
             aliases: Sequence[str] = ()) -> list[MessageHit]:
    """The messages received by ``t`` that best answer the question, with the turns around them;
    ``resolved``: what its relation and event phrases were resolved to (each answer says it);
    ``synonyms``: the store's table, whose words for a predicate the question names count too; ``aliases``: the
    other names of the entities it names, believed then, looked for as its relation phrases' people are."""
    period = plan.period
    window = None if period is None else (period.start, period.end)
    time = time_filter(period)
    names = [r.entity for r in resolved if r.kind == "relation" and r.entity]
    words, own = message_words(plan, speaker, names, aliases)
    also = synonym_words(plan, synonyms) + own
    own_first = keywords(plan.text)
    found = index.search(words, t, window=window, limit=limit, scoring=also, own_first=own_first)
    if not found and period is not None and not period.event and period.start > -INF and period.end < INF:
        # (not for a window open at an end, "after november": all that was said before it is no answer; a reviewer's)
        # Nothing said in the window, nor naming a time in it, that the question's words find ("in November", when
        # nobody wrote of it that month): what was said before its end is what was known of it then. Each answer's
        # ``time`` says so; one said later that names an earlier time is not of those (a new user's).
        end = moment(period.end)
        found = [f for f in index.search(words, t, window=(-INF, period.end), limit=4 * limit, scoring=also,
                                         own_first=own_first) if end is None or f.said < end][:limit]
        phrase = time.text if time else period.text
        time = TimeFilter(text=f"said before the end of {phrase} {NOTHING_SAID}", valid_to=end)
        if not found and _HOLIDAY_ALONE.fullmatch(period.text.replace("’", "'")):  # nor before it, and a holiday
            # named alone, which names what is talked of as often as when ("what did we plan for christmas", plans made
            # in October for this one, "did" reading last Christmas, before the chat: a new user's); its words are
            # searched too ("what did I say about christmas": a reviewer's). "in March 2023", "last christmas",
            # "Halloween 2025", before any message, stay a when: nothing
            holiday = [(term(w.word), 1.0) for w in tokens(period.text) if not is_stop(w.word)]
            mine = set(name_terms(speaker)) if speaker else set()  # the speaker's name only scores beside them
            looked = [w for w in words if w[0] not in mine] + holiday
            found = index.search(list(dict.fromkeys(looked)), t, window=None, limit=limit,
                                 scoring=also + [w for w in words if w[0] in mine])
            time = TimeFilter(text=f"said at any time, {phrase} {NOTHING_SAID_BY}") if found else time
    hits = []
    for item in found:
        before, after = index.around(item, t) if item.kind == "chat" else ([], [])  # (manual entries, tool calls:
        # no conversation, no turns; a new user's "before, ?: …" beside a fact added by hand)
        hits.append(MessageHit(
            episode=item.id, episode_kind=item.kind, speaker=item.actor,
            role="assistant" if item.actor == "assistant" else "user", said_at=item.said,
            received_at=item.received, text=item.text,
            times=[SaidTime(text=s.phrase, valid_from=s.start, valid_to=s.end) for s in item.times],
            before=[_turn(f) for f in before], after=[_turn(f) for f in after], score=item.score,
            words=list(item.words), time=time, resolved=list(resolved)))
    return hits


def _turn(found: Found) -> Turn:
    return Turn(episode=found.id, speaker=found.actor, said_at=found.said, text=found.text)


def fuse(facts: Sequence[Hit], said: Sequence[MessageHit], *, when: bool, limit: int | None,
         unresolved: bool = False, answering: frozenset[str] = frozenset(), names: bool = False,
         anchored: bool = False, asked: frozenset[str] = frozenset(), anchors: frozenset[str] = frozenset(),
         only_named: bool = False) -> list[Answer]:
    """One ranking of both kinds (see the module's docstring), at most ``limit`` long. With
    ``unresolved`` (the question names an event no fact is known for), every fact comes after
    the messages: a fact is no answer to "before he moved to Lisbon" when the move is unknown.
    ``answering``: the versions that answer a *who* question by resolving its relation, put first. An alias fact
    comes after the messages unless the question asks about ``names``. ``anchored``: the question names an entity
    (a fact about no entity it names then comes after the messages). ``asked``: the predicates the question's words
    name ("work": works_at); a fact of another one (:func:`_is_asked`: a wider relation word asks the narrower) then
    comes after the messages, unless a word of its subject or object matched (:func:`_own_words`): only its sentence's
    is not what is asked ("where does my sister work" is not answered by a mother_of fact said in a message about
    work; "what is Morag's kitten called" is by `Morag has_pet kitten`). ``anchors``: the entities the question names or
    its relation words lead to (every name of each); with ``anchored``, a fact about none of them, only about one's
    neighbour, comes after the messages too ("where does Dodong work", Kiko's brother_of Sol known: not Sol's job);
    the caller gives none for a question asking of someone's someone (:func:`possessive`). ``only_named``: the
    question is only a name ("Tama", "tell me about Mere": :func:`only_names`), and a fact about it is what is asked,
    ranked with the messages, not after them."""
    first = [] if unresolved else [h for h in facts if h.version.id in answering]
    put_first = {id(h) for h in first}
    strong = [] if unresolved else [h for h in facts if (h.matched.words or h.matched.synonyms or h.matched.time
                                                         or (only_named and h.matched.anchor is not None))
                                    and (h.version.predicate != ALIAS or names)
                                    and (not anchored or h.matched.anchor is not None)
                                    and (not anchored or not anchors or h.version.subject_id in anchors
                                         or h.version.object_id in anchors)
                                    and (not asked or _is_asked(h.version.predicate, asked)
                                         or _own_words(h, besides=h.matched.anchor))]
    if when:  # each list's first WHEN_REACH answers, the dated first: among answers about as good, not above all
        strong, said = _dated_first(strong), _dated_first(said)
    scored: list[tuple[float, int, int, Answer]] = []
    for rank, hit in enumerate(strong):
        about = hit.matched.anchor is not None or hit.matched.synonyms or _own_words(hit)
        scored.append((-1 / (RRF_K + rank), -1000 if about else -len(set(hit.matched.words)), 0, hit))
    for rank, message in enumerate(said):
        scored.append((-1 / (RRF_K + rank), -len(set(message.words)), 1, message))
    # of a fact and a message at one rank, the fact first if it is about what is asked (an entity named, a predicate
    # said, a word its own), else the one holding more of the question's words ("when did dad get the cat": a message
    # with "dad" and "cat" before a fact found only by a "Dad" signed under its sentence: a new user's)
    scored.sort(key=lambda item: item[:3])
    ranked = first + [answer for *_, answer in scored if id(answer) not in put_first]
    kept = {id(h) for h in strong} | put_first
    answers: list[Answer] = []
    cited: set[str] = set()
    for answer in ranked + [h for h in facts if id(h) not in kept]:
        if isinstance(answer, MessageHit) and answer.episode in cited:
            continue
        cited.update(answer.episodes)
        answers.append(answer)
    return answers if limit is None else answers[:limit]


#: Words that make a question ask of someone's someone: "Tom's partner", "my sister", "the wife of Tom".
_POSSESSIVE = re.compile(r"['’]s\b|\b(?:my|his|her|their|our|your|of)\s", re.IGNORECASE)


#: Words of saying that ask about someone, not what they said: "tell me about Mere", "what do you know about Tama".
_ASKING_ABOUT = re.compile(r"(?i)\b(?:tell|told)\s+(?:me|us)\s+(?:\w+\s+)?(?:about|of)\b|\b(?:know|remember|recall)\s+"
                           r"(?:about|of)\b")


def only_names(text: str, plan: Plan) -> bool:
    """Whether the question asks of someone and nothing more: every word of weight in it names an entity ("Tama", "tell
    me about Mere", "what do you know about Tama"; a family's new user searched their names and got only chat)."""
    keys = [t.key for t in plan.terms if not (t.key == "p:knows" and _ASKING_ABOUT.search(text))]  # ("know about":
    # no predicate asked)
    return bool(plan.anchors) and bool(keys) and all(key.startswith("e:") for key in keys) and not any(
        token.word in SAYING for token in tokens(_ASKING_ABOUT.sub(" ", text)))  # (not "what did Tama say", "what
    # did Tama tell me": what was said is asked)


def possessive(question: str) -> bool:
    """Whether ``question`` asks of someone's someone (:data:`_POSSESSIVE`): a neighbour's fact may answer it even where
    no relation word is known ("where does Tom's partner work", `Tom married_to Ana`: an attacker's)."""
    return _POSSESSIVE.search(question) is not None


def _is_asked(predicate: str, asked: frozenset[str]) -> bool:
    """Whether facts of ``predicate`` are of what the question asks: one of ``asked``, or a relation one of them
    covers ("dad" asks parent_of: a father_of fact is of it)."""
    word = relation_of(predicate)
    return predicate in asked or (word is not None and any(
        (wider := relation_of(a)) is not None and covers(wider, word) for a in asked))


def _own_words(hit: Hit, besides: str | None = None) -> bool:
    """Whether a word the question shares with a fact is the fact's own (its subject or object: "kitten" of
    `Morag has_pet kitten`), not only its sentence's (a predicate's name is matched by synonyms, not by letters:
    "work" is no word of `Tilly works_as baker`); with ``besides``, a word of that name (the one asked of) does not
    count: "where does Mam live" is not answered by `Mam is_called Nana Keane` (a new user's)."""
    own = f"{hit.version.subject} {hit.version.object or ''}".casefold().split()
    named = set(besides.casefold().split()) if besides else set()
    return any(word.casefold() in own and word.casefold() not in named for word in hit.matched.words)


def _dated_first(found: Sequence[A]) -> list[A]:
    """``found``'s first :data:`WHEN_REACH`, those dated by their words first, then the rest, each in its order."""
    window = found[:WHEN_REACH]
    return [a for a in window if _dated(a)] + [a for a in window if not _dated(a)] + list(found[WHEN_REACH:])


def _dated(answer: Answer) -> bool:
    """True when the answer's time comes from words: a message with a resolved phrase, or an
    event fact (its valid period was given) that a word of its own or the question's time matched (not
    `Sam lives_in Leeds`, ended, found for "when did I move to manchester" only by being Sam's home)."""
    if isinstance(answer, MessageHit):
        return bool(answer.times)
    return answer.version.valid_to is not None and (_own_words(answer) or answer.matched.time is not None)
