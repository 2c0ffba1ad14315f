"""Word lists the rules extractor reads: relatives and friends, jobs, schools; and the places of
:mod:`graphmem.core.places` (the alias rules read them too).

Kept as data so that a word is added in one place.

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re

from ..core.places import PLACES, is_place, is_town
from ..core.places import folded as _key

__all__ = ["ACTIVITIES", "ACTIVITY_PAIRS", "BREEDS", "BREED_PAIRS", "CAT_BREEDS", "EMOJI", "EVENTS", "EVENT_PAIRS",
           "GROUPS", "GROUP_PAIRS", "HABIT_VERBS", "JOB_NOUNS", "LANGUAGES", "LESSONS", "NAMED_EVENTS",
           "NOT_NAMES", "OPINION_WORDS", "OWNED_BY_MENTION", "PETS", "PET_PAIRS", "POSSESSIONS", "RACES", "RELATIONS",
           "RETIREES", "PLACES", "RELATION_ADJECTIVES", "STUDENT_NOUNS", "WORKPLACES", "WORKPLACE_PAIRS", "is_place",
           "is_town", "looks_educational", "looks_organisational", "names_no_one"]

_ORG_WORDS = frozenset(
    "inc inc. ltd ltd. llc corp corp. co co. group bank labs lab studio studios partners "
    "consulting capital ventures technologies systems solutions software foundation institute "
    "hospital clinic agency airlines airways motors pharma health insurance media press "
    "company associates & gmbh ag plc".split())
_EDU_WORDS = frozenset(
    "university uni college school academy institute polytechnic conservatory sciences".split())
_EDU_NAMES = frozenset(name.strip() for name in (
    "mit, ucla, nyu, usc, ucl, lse, eth, eth zurich, epfl, caltech, harvard, yale, princeton, "
    "stanford, oxford, cambridge, columbia, cornell, berkeley, mcgill, upenn, duke, brown, "
    "dartmouth, georgetown, sciences po, insead, monash, imperial, kings, king's, ucsd, ucsb, "
    "uc berkeley, sorbonne, tsinghua, ohio state, penn state, georgia tech, michigan state, "
    "cal, u of t, uoft, ubc, unsw, rmit, kaist, nus, hku, lmu, tum, kth, csu, asu"
).split(","))


def looks_educational(name: str) -> bool:
    """Whether ``name`` reads like a school or university ("Boston University", "MIT")."""
    key = _key(name)
    return key in _EDU_NAMES or bool(_EDU_WORDS & set(key.split()))


def looks_organisational(name: str) -> bool:
    """Whether ``name`` reads like a company ("Acme Corp", "Goldman Sachs Bank")."""
    return bool(_ORG_WORDS & set(_key(name).split()))


#: Nouns naming someone close, as in "my sister Ana" (the name follows).
RELATIONS = frozenset("""
sister brother husband wife partner boyfriend girlfriend son daughter mom mum mother dad father
friend cousin aunt uncle niece nephew grandma grandmother gran granny grandpa grandfather
roommate roomie flatmate housemate colleague coworker co-worker boss manager neighbor neighbour
fiancé fiancée fiance fiancee ex ex-husband ex-wife ex-boyfriend ex-girlfriend ex-partner
parents kids children stepmom stepmum stepdad stepson stepdaughter stepsister stepbrother twin
mother-in-law father-in-law sister-in-law brother-in-law in-laws teammate classmate buddy pal
mentor landlord landlady therapist sibling siblings baby bestie bf gf hubby spouse sis bro
amma ammi
""".split())
#: Words that may precede a relation noun ("my older sister Ana").
RELATION_ADJECTIVES = frozenset(
    "older younger little big best old new oldest youngest eldest twin baby dear good close "
    "childhood".split())

#: Capitalised words that are not anyone's name at the start of a clause.
NOT_NAMES = frozenset("""
i we my our the a an this that these those last next yesterday today tomorrow tonight just also
so but and then now honestly anyway actually lol ugh hi hello hey well oh since after before
when while if not maybe thinking spent went moved joined living working studying everyone
someone nobody somebody everybody he she they it you your his her their there here what why how mine yours ours hers
theirs
where who which yes no ok okay sure btw fyi guess apparently sadly luckily finally recently
back still only even both all some most many one two three first second good great bad wow
please thanks thank sorry um uh hmm mom dad mum grandma grandpa amma ammi
monday tuesday wednesday thursday
friday saturday sunday january february march april may june july august september october
november december christmas easter spring summer autumn fall winter covid from to in at with for of on by
about into should would could must might shall shouldn couldn wouldn mightn mustn needn shouldn't couldn't
wouldn't mightn't mustn't needn't shouldnt couldnt wouldnt mightnt mustnt neednt shoulda coulda woulda musta
bro bruh sis dude babe hun fam buddy
""".split())


def names_no_one(word: str) -> bool:
    """Whether ``word`` is one of :data:`NOT_NAMES` (a full stop aside), or one of them contracted ("I'd", "They've",
    "We'll": a new user's "I'm done, I'd rather swim" ended her dating "I'd")."""
    low = word.lower()
    return low.strip(".") in NOT_NAMES or re.split(r"['’]", low)[0] in NOT_NAMES

#: What "I quit my X" / "I left the X" may name when it names a job, not a place of work.
JOB_NOUNS = frozenset(
    "job jobs position role post gig company firm agency startup start-up employer office team "
    "bakery restaurant cafe café bar shop store bank studio lab hospital clinic practice "
    "warehouse factory newspaper magazine band".split())
#: Places of work named by their kind ("I work at a bakery", "started at the library"): the
#: object of a work verb when no name is said. Not schools or nurseries (pupils go there too).
WORKPLACES = frozenset("""
hospital library bakery cafe café shop store supermarket restaurant bar pub warehouse factory office
bank hotel garage salon clinic pharmacy council museum theatre theater lab charity surgery
brewery winery distillery company firm agency startup gallery farm
""".split())
WORKPLACE_PAIRS = frozenset(("coffee shop", "call centre", "call center", "care home", "garden centre",
                             "garden center", "book shop", "bookshop", "law firm"))
#: "I'm a sophomore at X": studies there, not works.
STUDENT_NOUNS = frozenset(
    "student undergrad undergraduate grad postgrad freshman sophomore junior senior fresher "
    "phd doctoral masters master's exchange".split())


# --- everyday facts: pets, possessions, activities, groups, events ------------------------------

#: Breeds of cat, among :data:`BREEDS` (the rest are dogs').
CAT_BREEDS = frozenset("tabby siamese ragdoll sphynx maine-coon".split())
#: Breeds of dog and cat, said instead of the kind ("a greyhound!!"); none that is as often another thing
#: ("lab", "boxer", "shepherd", "bengal" are kept among :data:`PETS` only, said after an article or "my").
BREEDS = CAT_BREEDS | frozenset("""
labrador retriever poodle beagle corgi husky terrier spaniel dachshund pug bulldog collie
greyhound lurcher whippet chihuahua schnauzer labradoodle cockapoo cavapoo dalmatian rottweiler
doberman alsatian staffie staffy sheepdog pomeranian shih-tzu akita
""".split())
#: Animals kept as pets, and breeds said instead ("our golden retriever").
PETS = BREEDS | frozenset("""
dog dogs puppy puppies pup doggo cat cats kitten kittens kitty hamster hamsters rabbit rabbits
bunny bunnies parrot parrots budgie budgies bird birds goldfish fish turtle turtles tortoise
tortoises snake snakes lizard lizards gecko geckos guinea-pig guinea-pigs ferret ferrets hens
chickens goat goats iguana rat rats mice horse horses pony ponies cockatiel canary axolotl
lab boxer shepherd bengal
""".split())
#: Breeds of two words ("a german shepherd"), written so, or with a hyphen among :data:`BREEDS`.
BREED_PAIRS = frozenset(("maine coon", "shih tzu", "golden retriever", "german shepherd", "border collie", "shiba inu",
                         "jack russell"))
#: Two-word pets ("guinea pig", "golden retriever"): the first word may be taken as a modifier.
PET_PAIRS = BREED_PAIRS | frozenset(("guinea pig", "guinea pigs", "bearded dragon"))

#: Emoji and the symbols that stand where a stop would ("😔", "‼", "⭐"), as a regular expression's character
#: class's inside.
EMOJI = r"\u203c\u2049\u2600-\u27bf\u2b00-\u2bff\U0001F000-\U0001FAFF\ufe0f\u200d"
#: Who is "retired" as a word before them, not a working life ended: "retired people get the best gifts", "a retired
#: racing greyhound", "a retired teacher".
RETIREES = (r"racing|greyhound|cop|man|woman|teacher|people|persons?|men|women|couples?|colleagues|teachers|nurses|"
            r"(?:ladies|lads|girls|boys|folk|aunties|uncles|grannies|grandparents)(?=\s+[a-z])|undefeated|unbeaten|"
            r"hurt|injured|"
            r"doctors|players|horses|guys|gents|folks|blokes|dudes|neighbou?rs|"
            r"officers?|soldiers?|engineers?|miners?|farmers?|pros?|athletes?")

#: Possessions worth remembering.
POSSESSIONS = frozenset("""
car cars van campervan motorbike motorcycle scooter moped bike bicycle boat kayak canoe caravan
house flat apartment cottage cabin allotment piano keyboard guitar violin cello drum-kit drums
camera telescope tesla jeep truck tractor sewing-machine kiln hot-tub
laptop tablet ipad iphone phone smartwatch watch kettle hat coat jacket dress suit shoes boots trainers
sofa couch tv telly console ps5 xbox garmin fitbit kindle e-reader headphones airpods turntable
record-player machine greenhouse shed trampoline barbecue bbq ute bakkie binoculars
""".split())
#: Possessions named by "my X" alone ("my car broke down"), where "my" surely means owning it.
OWNED_BY_MENTION = frozenset("car van campervan motorbike motorcycle scooter moped bike boat kayak "
                             "caravan allotment tesla jeep truck".split())

#: Hobbies and regular activities, as their noun or -ing form.
#: Languages, learnt as an activity ("I'm learning french"); before a noun, what it describes ("french engineers").
LANGUAGES = frozenset("""
spanish french german italian japanese mandarin cantonese chinese portuguese arabic korean russian
dutch greek welsh gaelic latin polish turkish hindi swedish norwegian danish
czech slovak hungarian finnish estonian latvian lithuanian icelandic faroese ukrainian romanian bulgarian
serbian croatian slovenian albanian hebrew farsi persian urdu bengali tamil punjabi swahili tagalog
vietnamese thai indonesian malay catalan basque irish esperanto mongolian amharic yoruba zulu afrikaans
english quechua guarani samoan tongan fijian maori hawaiian nepali sinhala khmer burmese telugu kannada malayalam
marathi gujarati georgian armenian kazakh uzbek kurdish pashto somali hausa igbo xhosa shona kinyarwanda malagasy
darija papiamentu bosnian macedonian belarusian tajik turkmen kyrgyz azerbaijani tigrinya wolof lingala twi oromo
bislama tetum cebuano ilocano javanese sundanese lao tibetan uyghur hmong creole
""".split())
ACTIVITIES = frozenset("""
pottery ceramics yoga pilates running jogging hiking climbing bouldering swimming walking cycling
painting drawing sketching knitting crochet crocheting sewing embroidery quilting baking
gardening photography dancing salsa ballet tap zumba boxing kickboxing karate judo taekwondo
jiu-jitsu fencing archery tennis squash badminton football soccer rugby cricket basketball
netball volleyball hockey golf chess guitar piano violin cello drums ukulele bass saxophone
flute trumpet singing choir surfing skiing snowboarding skating skateboarding rowing sailing
kayaking woodworking meditation journaling birdwatching fishing camping gaming crossfit
weightlifting lifting spin parkrun triathlon marathons calligraphy origami scrapbooking
stand-up improv rock-climbing paddleboarding wild-swimming cooking sourdough bowls bowling darts snooker
curling shinty hillwalking hill-walking netball lacrosse baseball softball padel pickleball frisbee
orienteering triathlons powerlifting spinning aerobics capoeira biking mountain-biking birding
geocaching cross-stitch bjj tai-chi aquafit aqua-aerobics barre hiit bootcamp line-dancing
croquet batik weaving felting macrame woodcarving whittling glassblowing bookbinding printmaking linocut
watercolour watercolours watercolor mosaics upholstery beekeeping homebrewing winemaking falconry
horseriding horse-riding dressage showjumping handball futsal polo diving scuba snorkelling snorkeling freediving
canoeing kitesurfing windsurfing wakeboarding bodyboarding rafting canyoning mountaineering ultrarunning
rollerblading roller-skating hurling camogie kabaddi gymnastics trampolining acrobatics parkour sumo
kendo aikido kung-fu krav-maga qigong bellydancing belly-dancing flamenco tango bachata kizomba ballroom
breakdancing accordion harmonica harp banjo mandolin clarinet oboe bassoon trombone tuba viola djing bouzouki
oud sitar tabla djembe bagpipes fiddle poetry blogging vlogging podcasting astronomy stargazing bonsai genealogy
crosswords sudoku jigsaws poker mahjong backgammon scrabble quizzing boardgames warhammer lego cosplay
fly-fishing spearfishing trekking backpacking bushwalking tramping snowshoeing petanque pétanque
boules bocce billiards rounders korfball dragon-boating
bodhran bodhrán concertina charango erhu guzheng pipa dizi koto shamisen shakuhachi taiko
balalaika mbira kalimba steelpan handpan tamburica duduk kamancheh santoor santur sarod dhol
didgeridoo ney qanun kanun baglama bağlama lute bandoneon bandoneón marimba xylophone vibraphone
timpani harpsichord euphonium cornet glockenspiel zither dulcimer hurdy-gurdy cajon cajón bongos congas
theremin gamelan angklung khuur komuz dombra dutar rubab tanpura harmonium shehnai gaida gusle
tamboura tambura berimbau cavaquinho ukelele
""".split()) | LANGUAGES
#: Nouns naming a course of lessons, whose activity is what one does ("a pottery class").
LESSONS = frozenset("class classes course courses lessons lesson".split())
#: Verbs whose present simple names a habit ("I run most mornings" -> running).
HABIT_VERBS = {
    "run": "running", "swim": "swimming", "paint": "painting", "knit": "knitting", "bake": "baking",
    "climb": "climbing", "boulder": "bouldering", "cycle": "cycling", "hike": "hiking",
    "surf": "surfing", "ski": "skiing", "skate": "skating", "dance": "dancing", "sing": "singing",
    "draw": "drawing", "sew": "sewing", "crochet": "crochet", "garden": "gardening", "row": "rowing",
    "sail": "sailing", "jog": "jogging", "meditate": "meditation", "journal": "journaling",
    "fish": "fishing", "box": "boxing", "fence": "fencing", "snowboard": "snowboarding",
    "cook": "cooking",
}

#: Nouns naming a group one belongs to.
GROUPS = frozenset("""
club clubs team choir band church gym group league society orchestra association union class
committee congregation temple mosque synagogue parish scouts guides guild troupe ensemble
collective crew squad circle meetup community brigade
asociación asociacion associação associacao associazione cofradía cofradia hermandad
""".split())

#: Nouns naming an event one attends.
EVENTS = frozenset("""
wedding weddings concert concerts gig gigs festival conference party game games match show recital
graduation funeral exhibition exhibit musical workshop retreat marathon 10k 5k half-marathon
race reunion ceremony fair parade hackathon premiere opera ballet play panto pantomime
christening baptism hen-do stag-do shower rally convention expo tournament nativity karaoke quiz
gala ball prom birthday ceilidh barbecue bbq supper rodeo carnival fete fiesta regatta
competition competitions championship championships congress procession quinceañera quinceanera braai bonspiel
awards mass eisteddfod feis powwow mela jamboree symposium
""".split())
#: Events named like places ("the Galway Arts Festival"): one goes to them, not on a trip; not words
#: that also end a street's or a place's name ("Brighton Prom", "Marine Parade", "the Fair").
NAMED_EVENTS = frozenset("festival fest concert gig wedding conference carnival rodeo exhibition expo convention "
                         "marathon".split())
#: Groups named by two words whose last is no group alone ("the Men's Shed", not "the garden shed").
GROUP_PAIRS = frozenset(("men's shed", "mens shed", "men's sheds", "mens sheds"))
#: Activities of two words whose last is no activity alone: "horse riding" (a new user's; "riding" is as often a bike
#: to work).
ACTIVITY_PAIRS = frozenset(("horse riding", "horseback riding", "pole dancing", "tai chi", "stand up paddling",
                            "muay thai", "tree climbing", "ice climbing"))
#: Two-word events ("the bowls club open day", "quiz night").
EVENT_PAIRS = frozenset(("open day", "quiz night", "games night", "bonfire night", "open mic", "sports day",
                         "book launch", "leaving do", "leaving drinks", "street party", "hen do", "stag do"))

#: Races one runs, whose running is attending them.
RACES = frozenset("marathon marathons half-marathon 10k 5k parkrun triathlon ultra race relay".split())

#: Words dropped from an everyday object: opinions and what says nothing of the thing itself.
OPINION_WORDS = frozenset("""
new old little big tiny huge lovely amazing gorgeous cute beautiful adorable sweet gorgeous
local own first second-hand secondhand used brand brand-new actual proper fave favourite
favorite very so really absolutely whole entire massive wee great good nice best stupid
""".split())
