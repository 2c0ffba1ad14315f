"""Vehicles told by make and model: "bought a white fiat doblo", "sold the clio yesterday", "A Toyota
Vitz, silver, 2014. … I picked it up on thursday".

People name a car, a van or a motorbike by its make and model far more often than by its kind, in
lower case as often as not, and often as the whole answer to "what did you get?" ("A Toyota Vitz,
silver, 2014. … I picked it up on thursday"). A make is a closed list of world knowledge; a model is
the word or two after a make, written as the make is (a capitalised word after a capitalised make, so
"the Audi offer" is no model), or with a digit ("honda 150"), or one of the best-selling models said
alone ("the corolla"). The name ends the phrase: "got the Audi offer" names no vehicle.

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re

__all__ = ["vehicle_bought", "vehicle_name"]

#: Makes of cars, vans, trucks, motorbikes and farm machines, as people write them.
_MAKES = frozenset("""
toyota honda nissan mazda subaru suzuki mitsubishi daihatsu isuzu lexus datsun hyundai kia genesis ssangyong
ford chevrolet chevy dodge jeep chrysler cadillac buick gmc lincoln tesla rivian ram
volkswagen vw audi bmw mercedes mercedes-benz merc porsche opel vauxhall smart
renault peugeot citroen citroën ds dacia alpine fiat alfa lancia abarth maserati ferrari lamborghini
seat cupra skoda škoda volvo saab polestar lada uaz moskvich trabant wartburg zastava yugo
mini jaguar bentley rover landrover morris triumph
proton perodua byd geely chery haval mg tata mahindra maruti vinfast
yamaha kawasaki ducati harley harley-davidson ktm aprilia piaggio vespa lambretta bajaj hero tvs jawa wsk mz
peterbilt kenworth scania iveco freightliner daf
""".split())
#: Makes of two words.
_MAKE_PAIRS = frozenset(("land rover", "range rover", "alfa romeo", "aston martin", "royal enfield",
                         "john deere", "moto guzzi", "rolls royce", "great wall"))
#: Best-selling models, said alone ("sold the corolla"); none that is also a common word ("golf", "polo",
#: "jazz", "focus", "panda", "beetle", "swift", "civic", "transit" need their make).
_MODELS = frozenset("""
corolla camry yaris prius hilux rav4 land-cruiser landcruiser tacoma tundra highlander sienna innova fortuner
vitz aqua auris avensis hiace
cr-v hr-v accord odyssey
micra qashqai navara x-trail altima sentra leaf
octavia fabia superb kodiaq felicia
clio megane twingo kangoo scenic laguna zoe
fiesta mondeo ranger f-150 f150 kuga
corsa astra vectra zafira
passat tiguan touareg jetta
doblo punto ducato
sandero duster logan
picanto sportage ceed rio
i10 i20 i30 tucson elantra santa-fe
outback forester impreza
wrangler
mx-5 miata
""".split())
#: Kinds of vehicle, which end a model ("a toyota van").
_KINDS = frozenset("car van truck pickup ute bakkie jeep motorbike motorcycle scooter moped campervan "
                  "camper bus 4x4 suv".split())

#: Words that may stand before a make: an article, its age, size, colour, or year.
_BEFORE = re.compile(r"(?:(?:a|an|the|my|our|this|that|his|her|their|another)\s+)?(?:(?:old|new|used|little|small|"
                     r"tiny|big|cheap|second[- ]?hand|ex-\w+|white|black|red|blue|green|silver|grey|gray|yellow|"
                     r"orange|brown|beige|dark|light|baby|navy|\d{4}|[\d,]+\s*(?:cc|km|k))\s+){0,3}",
                     re.IGNORECASE)
_WORD = re.compile(r"[\w'’-]+")
#: Words that end a model: the ordinary words of a sentence and of a vehicle's description.
_NOT_MODEL = frozenset("""
a an the and but or so because cos to from for with of in on at by off into as is was are it its it's that this
which who she he they i we you me my our her his their one ones last yesterday today tonight now then too lol haha
btw tho though yes yeah no not just only also again still very really instead now here there
car van truck pickup bike motorbike
motorcycle scooter engine diesel petrol hybrid electric automatic manual estate hatchback saloon wagon
""".split())


def _make(words: list[str], at: int) -> int:
    """How many words of a make start at ``at`` (0 when none does)."""
    if at + 1 < len(words) and f"{words[at]} {words[at + 1]}".lower() in _MAKE_PAIRS:
        return 2
    return 1 if at < len(words) and words[at].lower() in _MAKES else 0


def vehicle_name(text: str, at_start: bool = True) -> tuple[str, int] | None:
    """The make and model (or a known model) that ``text`` opens with, after an article, an age, a
    size, a colour or a year, and where it ends; None when it opens with none. "a white fiat doblo,
    190 000 km" -> ("fiat doblo", …); "the old Clio." -> ("Clio", …); "honda 150" -> ("honda 150", …)."""
    lead = _BEFORE.match(text)
    pos = lead.end() if lead else 0
    spans = [(m.start() + pos, m.end() + pos) for m in _WORD.finditer(text[pos:pos + 80])]
    words = [text[a:b] for a, b in spans]
    if not words or (at_start and spans[0][0] != pos):
        return None
    taken = _make(words, 0)
    if taken:
        capital = words[0][:1].isupper()
        for i in range(taken, min(taken + 2, len(words))):
            low = words[i].lower()
            if text[spans[i - 1][1]:spans[i][0]].strip() or low in _NOT_MODEL or low in _KINDS or re.fullmatch(
                    r"(?:19|20)\d\d", low):
                break  # a stop, a comma, an ordinary word or a year ends the name: "a toyota, 2012", "fiat uno but"
            if not (low in _MODELS or any(ch.isdigit() for ch in low) or words[i][:1].isupper() == capital):
                break
            taken += 1
    elif words[0].lower() in _MODELS:
        taken = 1
    else:
        return None
    if taken < len(words) and not text[spans[taken - 1][1]:spans[taken][0]].strip() and (
            words[taken].lower() not in _NOT_MODEL and not re.fullmatch(r"(?:19|20)\d\d", words[taken])):
        return None  # the phrase goes on: "the Audi offer", "a toyota dealer"
    return " ".join(words[:taken]), spans[taken - 1][1]


#: A vehicle told as the speaker's own, got by them: "picked it up on thursday", "bought it from the dealer",
#: "got her on saturday from a man in weston", "MINE".
_GOT_IT = re.compile(r"\b(?:i|we)\s+(?:finally\s+|just\s+)?(?:picked|bought|got)\s+(?:it|her|him)\b|(?:^|[.!]\s*)"
                     r"(?:picked|bought|got)\s+(?:it|her|him)\b|\bmine\b|\bi\s+bought\s+it\b", re.IGNORECASE)


def vehicle_bought(sentence: str, message: str) -> str | None:
    """The make and model a verbless sentence describes, the message telling the speaker got it: "A Toyota
    Vitz, silver, 2014. … I picked it up on thursday"; "royal enfield classic 350. dark green. MINE"."""
    found = vehicle_name(sentence)
    if found is None or not _GOT_IT.search(message):
        return None
    name, end = found
    if not re.match(r"\s*(?:$|[.!,;:(]|\d{4}\b)", sentence[end:]):
        return None  # "a toyota is what i want": a clause goes on, not a description
    return name
