"""Vehicles told by make and model: "bought a white fiat doblo", "sold the clio yesterday", "A Toyota
Vitz, silver, 2014. … I picked it up on thursday".

People name a car, a van or a motorbike by its make and model far more often than by its kind, in
lower case as often as not, and often as the whole answer to "what did you get?" ("A Toyota Vitz,
silver, 2014. … I picked it up on thursday"). A make is a closed list of world knowledge; a model is
the word or two after a make, written as the make is (a capitalised word after a capitalised make, so
"the Audi offer" is no model), or with a digit ("honda 150"), or one of the best-selling models said
alone ("the corolla"). The name ends the phrase: "got the Audi offer" names no vehicle, nor does "a ferrari
t-shirt". Bought or sold, the name follows an article or a possessive ("bought harley a collar" names a
person); described alone, it is followed by its year, colour or engine, and the message says the speaker
picked it up, bought it or got it on a day or from someone, not hired, borrowed or someone else's.

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re

from ._lexicon import EMOJI
from ._sentences import split_sentences

__all__ = ["got_vehicle", "got_when", "not_real", "vehicle_bought", "vehicle_described", "vehicle_name"]

#: Makes of cars, vans, trucks, motorbikes and farm machines, as people write them; none that is as often
#: another thing or a pet's name ("seat", "mini", "smart", "ram", "genesis", "jaguar", "rover", "triumph", "hero").
_MAKES = frozenset("""
toyota honda nissan mazda subaru suzuki mitsubishi daihatsu isuzu lexus datsun hyundai kia ssangyong
ford chevrolet chevy jeep chrysler cadillac buick gmc tesla rivian
volkswagen vw audi bmw mercedes mercedes-benz porsche opel vauxhall
renault peugeot citroen citroën dacia fiat alfa lancia abarth maserati ferrari lamborghini
cupra skoda škoda volvo saab polestar lada uaz moskvich trabant wartburg zastava yugo
bentley landrover
proton perodua byd geely chery haval mahindra maruti vinfast
yamaha kawasaki ducati harley harley-davidson ktm aprilia piaggio vespa lambretta bajaj tvs jawa wsk
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
#: Models said only after their make, in lower case as often as not ("fiat panda", "vw polo", "honda jazz"):
#: words that alone are other things, and models less sold.
_MODEL_WORDS = _MODELS | frozenset("""
panda uno cinquecento seicento multipla bravo stilo ypsilon delta
polo golf jetta beetle caddy transporter crafter touran lupo amarok
jazz civic fit crv city insight
swift vitara jimny alto baleno ignis
focus ka mustang transit escort sierra puma galaxy explorer
micra note juke patrol navara almera
corolla aygo
mondeo
astra corsa insignia mokka meriva
clio megane kangoo trafic master twingo captur
berlingo picasso saxo xsara dyane
octavia fabia yeti rapid kamiq
i10 i20 i30 i40 tucson kona
picanto rio ceed sorento stonic niro
outback forester impreza legacy
leaf qashqai
a1 a3 a4 a6 q2 q3 q5 q7 tt
e-class c-class a-class sprinter vito
defender discovery
v40 v60 v70 v90 xc40 xc60 xc90
""".split())
#: Kinds of vehicle, which end a model ("a toyota van").
_KINDS = frozenset("car van truck pickup ute bakkie jeep motorbike motorcycle scooter moped campervan "
                  "camper bus 4x4 suv".split())

#: Words that may stand before a make: an article, its age, size, colour, or year.
_BEFORE = re.compile(r"(?P<article>(?:a|an|the|my|our|this|that|his|her|their|another)\s+)?(?:(?:old|new|used|little|"
                     r"small|tiny|big|cheap|second[- ]?hand|ex-\w+|white|black|red|blue|green|silver|grey|gray|yellow|"
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
#: Days and months, capitalised after a make but no model: "bought a Ford Fiesta Monday".
_CALENDAR = frozenset("""monday tuesday wednesday thursday friday saturday sunday january february march april may
june july august september october november december""".split())
#: Things of a make that are not its vehicle: "a ferrari t-shirt", "the honda parts", "a toyota dealer".
_THINGS_OF = frozenset("""
t-shirt tshirt shirt tee hoodie jumper cap hat jacket scarf badge logo keyring keychain key keys poster posters toy
toys model models sticker stickers mug share shares stock stocks cover covers parts part bottle box tea dealer
dealership garage shop store fan fans club team game games magazine calendar flowers insurance ad advert listing
hire rental lease loan courtesy seat seats tyre tyres tire tires wheel wheels mat mats charger battery
""".split())


#: The words a vehicle's name may open with.
_FIRST_WORDS = _MAKES | _MODELS | frozenset(pair.split()[0] for pair in _MAKE_PAIRS)


def _make(words: list[str], at: int) -> int:
    """How many words of a make start at ``at`` (0 when none does)."""
    if at + 1 < len(words) and f"{words[at]} {words[at + 1]}".lower() in _MAKE_PAIRS:
        return 2
    return 1 if at < len(words) and words[at].lower() in _MAKES else 0


def vehicle_name(text: str, article: tuple[str, ...] = ()) -> tuple[str, int] | None:
    """The make and model (or a known model) that ``text`` opens with, after an article, an age, a size, a
    colour or a year, and where it ends; None when it opens with none (``article``: or with none of these words
    first: "bought harley a collar", "bought my harley a collar" name a pet). "a white fiat doblo, 190 000 km" ->
    ("fiat doblo", …); "the old Clio." -> ("Clio", …); "honda 150" -> ("honda 150", …)."""
    lead = _BEFORE.match(text)
    if article and not (lead and lead["article"] and lead["article"].split()[0].lower() in article):
        return None
    pos = lead.end() if lead else 0
    first = _WORD.match(text, pos)
    if first is None or first.group().lower() not in _FIRST_WORDS:
        return None  # no make or model opens it: most sentences, told at once
    spans = [(m.start() + pos, m.end() + pos) for m in _WORD.finditer(text[pos:pos + 80])]
    words = [text[a:b] for a, b in spans]
    if not words or spans[0][0] != pos:
        return None
    taken = _make(words, 0)
    if taken:
        capital = words[0][:1].isupper()
        for i in range(taken, min(taken + 2, len(words))):
            low = words[i].lower()
            if text[spans[i - 1][1]:spans[i][0]].strip() or low in _NOT_MODEL or low in _THINGS_OF or low in _KINDS \
                    or re.fullmatch(r"(?:19|20)\d\d", low):
                break  # a stop, a comma, an ordinary word or a year ends the name: "a toyota, 2012", "fiat uno but"
            if not (low in _MODEL_WORDS or any(ch.isdigit() for ch in low) or (
                    capital and words[i][:1].isupper() and low not in _CALENDAR)):
                break  # a model is a known one, has a digit, or is capitalised after a capitalised make
            taken += 1
    elif words[0].lower() in _MODELS:
        taken = 1
    else:
        return None
    if taken < len(words) and not text[spans[taken - 1][1]:spans[taken][0]].strip() and (
            words[taken].lower() not in _NOT_MODEL and words[taken].lower() not in _CALENDAR
            and not re.fullmatch(r"(?:19|20)\d\d", words[taken])):
        return None  # the phrase goes on: "the Audi offer", "a toyota dealer"
    return " ".join(words[:taken]), spans[taken - 1][1]


#: A vehicle bought or sold in a game, a dream or a joke: "bought a lamborghini in gta lol", "bought a ferrari.
#: in my dreams", "… NOT", "jk".
_NOT_REAL = re.compile(r"\b(?:gta|forza|gran\s+turismo|game|games|dreams?|jk|kidding|joking)\b|\.\.\.\s*not\b",
                       re.IGNORECASE)


def not_real(message: str) -> bool:
    """Whether ``message`` tells of its vehicle in a game, a dream or a joke (see :data:`_NOT_REAL`)."""
    return _NOT_REAL.search(message) is not None


#: A vehicle told as got by the speaker, beside its description: "I picked it up on thursday", "Bought it from the
#: dealer in Pinetown", "got it on saturday from a man in weston" (not "I got it!!", a joke got, "got it right").
_GOT_IT = re.compile(r"(?:\b(?:i|we)\s+(?:finally\s+|just\s+)?|(?:^|[.!]\s*))(?:picked\s+(?:it\s+up|(?:her|him)\s+up"
                     r"(?!\s+(?:at|from)\s+the\b))|"
                     r"bought\s+(?:it|her|him)|got\s+(?:it|her|him)\s+(?:on|last|yesterday|from|this|today|off))\b",
                     re.IGNORECASE)
#: Not one's own: hired, lent, a courtesy car, a game's, a taxi, someone else's, a hypothetical.
_NOT_OWNED = re.compile(r"\b(?:rent|rented|rental|hire|hired|courtesy|loan|loaner|lent|borrowed|borrowing|"
                        r"test\s+driv\w*|game|uber|taxi|cab|if|would|not\s+mine|(?:my|your|ur)\s+(?:dad|mum|mom|boss|"
                        r"brother|sister|friend|son|daughter|husband|wife)['’]?s?|for\s+(?:my|our|your|his|her|their|"
                        r"him|them|a\s+client)|\w+['’]s\s+really)\b", re.IGNORECASE)
#: After a vehicle's name in its description (after its engine or body: "Toyota Yaris hybrid, 2022", a new user's,
#: "Ford Maverick, hybrid, blue", a dev chat's): its year, colour or engine, or that it was used.
_DESCRIBED = re.compile(r"(?:(?:\s*,\s*|\s+)(?:hybrid|diesel|petrol|electric|automatic|auto|manual|estate|"
                        r"hatchback|saloon|wagon|turbo))*\s*[,.]\s*(?:(?:19|20)\d\d\b|\d+\s*cc\b|(?:white|black|red|blue|green|silver|grey|gray|"
                        r"yellow|orange|brown|beige|dark|light|navy|used|second[- ]?hand)\b)|\s*,?\s*(?:19|20)\d\d\b",
                        re.IGNORECASE)


def got_vehicle(message: str, previous: str | None = None) -> int | None:
    """Where ``message`` tells the speaker got a vehicle it describes, as its own (see :data:`_GOT_IT`), the turn
    before asking of no one else's ("what car is the uber?", "what did your dad get?"), as the place before which
    the description must come (for "picked her up", which may be a person met: "i picked her up from the
    station. Toyota Hilux, white"; else the message's end); None when it does not."""
    got = _GOT_IT.search(message)
    if got is None or _NOT_OWNED.search(message) or (previous and _NOT_OWNED.search(previous)):
        return None
    return got.start() if re.search(r"(?i)picked\s+(?:her|him)", got.group()) else len(message)


def got_when(message: str) -> str | None:
    """The clause saying the speaker got it ("bought it last saturday from a stand"), where its time is read, up to the
    first word or mark that starts another ("bought it off a guy who'd had it since 2016", "bought it with the bonus I
    got in january", "bought it. it's been in the garage since monday": an attacker's), or None."""
    got = _GOT_IT.search(message)
    if got is None:
        return None
    rest = message[got.start():]
    end = _OTHER_CLAUSE.search(rest, len(got.group()))
    return rest[:end.start()] if end else rest


#: Where the clause that says a vehicle was got ends: a stop, a comma, or a word that starts another clause.
_OTHER_CLAUSE = re.compile(r"[.,;:!?]|\b(?:and|but|who|which|that|since|with|because|after|before|when|until)\b",
                           re.IGNORECASE)


def vehicle_bought(text: str, at: int = 0) -> str | None:
    """The make and model a sentence opens with (``at``: where in ``text`` it starts), described by
    its year, colour or engine right after, in a message that tells the speaker got it (:func:`got_vehicle`,
    asked once per message): "A Toyota Vitz, silver, 2014. … I picked it up on thursday"; "2019 peterbilt 579.
    black. picked her up friday"."""
    found = vehicle_name(text[at:at + 120])
    if found is None:
        return None
    name, end = found
    return name if _DESCRIBED.match(text, at + end) else None


def vehicle_described(message: str) -> str | None:
    """The make and model a sentence of ``message`` opens with, or that follows an emoji, described by its year, colour
    or engine ("2019 Skoda Octavia estate, grey", "a 2019 Skoda Octavia", "A Toyota Vitz, silver, 2014", "bought a car
    nang 🚗 Kia Morning 2021, silver": a new user's)."""
    at = 0
    for sentence in split_sentences(message):
        at = max(message.find(sentence, at), at)
        if model := vehicle_bought(message, at):
            return model
        if (year := _YEAR_FIRST.match(sentence)) and (named := vehicle_name(sentence[year.end():])):
            return named[0]
    for after in _AFTER_EMOJI.finditer(message):
        if (model := vehicle_bought(message, after.end())) and re.match(
                rf"(?:(?:a|an|the)\s+)?{re.escape(model.split()[0])}\b", message[after.end():], re.IGNORECASE):
            return model  # the make right after it ("🚗 Kia Morning 2021, silver"; not "😂 little red vespa", h18)
    return None


#: The end of a run of emoji and the spaces after it, where a description may start.
_AFTER_EMOJI = re.compile(rf"[{EMOJI}]+\s*")


#: A vehicle's year before its make: "2019 Skoda Octavia", "a 2019 skoda".
_YEAR_FIRST = re.compile(r"\W*(?:(?:a|an|the|my|our)\s+)?(?:19|20)\d\d\s+", re.IGNORECASE)
