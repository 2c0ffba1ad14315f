"""Word lists the rules extractor reads: places, relatives and friends, jobs, schools.

Kept as data so that a word is added in one place. Places let the extractor tell a city from a
company ("I left Berlin" ends where one lives, "I left Google" where one works) and accept a
place typed in lowercase ("i live in berlin").

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

__all__ = ["ACTIVITIES", "EVENTS", "EVENT_PAIRS", "GROUPS", "HABIT_VERBS", "JOB_NOUNS", "LESSONS", "NOT_NAMES",
           "OPINION_WORDS", "OWNED_BY_MENTION", "PETS", "PET_PAIRS", "POSSESSIONS", "RACES", "RELATIONS",
           "RELATION_ADJECTIVES", "STUDENT_NOUNS", "WORKPLACES", "WORKPLACE_PAIRS", "is_place", "looks_educational",
           "looks_organisational"]

_PLACE_NAMES = """
afghanistan, albania, algeria, andorra, angola, argentina, armenia, australia, austria,
azerbaijan, bahamas, bahrain, bangladesh, barbados, belarus, belgium, belize, bhutan, bolivia,
bosnia, botswana, brazil, brunei, bulgaria, cambodia, cameroon, canada, chile, china, colombia,
congo, costa rica, croatia, cuba, cyprus, czechia, czech republic, denmark, dominican republic,
ecuador, egypt, el salvador, england, estonia, ethiopia, fiji, finland, france, gabon, georgia,
germany, ghana, greece, greenland, guatemala, guyana, haiti, honduras, hong kong, hungary,
iceland, india, indonesia, iran, iraq, ireland, israel, italy, jamaica, japan, jordan,
kazakhstan, kenya, korea, south korea, north korea, kosovo, kuwait, laos, latvia, lebanon,
liberia, libya, lithuania, luxembourg, madagascar, malawi, malaysia, maldives, mali, malta,
mauritius, mexico, moldova, monaco, mongolia, montenegro, morocco, mozambique, myanmar, namibia,
nepal, netherlands, the netherlands, holland, new zealand, nicaragua, niger, nigeria, norway,
oman, pakistan, palestine, panama, paraguay, peru, philippines, the philippines, poland,
portugal, puerto rico, qatar, romania, russia, rwanda, samoa, saudi arabia, scotland, senegal,
serbia, seychelles, sierra leone, singapore, slovakia, slovenia, somalia, south africa, spain,
sri lanka, sudan, sweden, switzerland, syria, taiwan, tanzania, thailand, tunisia, turkey,
uganda, ukraine, united arab emirates, uae, the uae, united kingdom, the united kingdom, uk,
the uk, united states, the united states, usa, the usa, the us, america, uruguay, uzbekistan,
venezuela, vietnam, wales, yemen, zambia, zimbabwe, europe, asia, africa, south america,
latin america, scandinavia, the balkans, the caribbean, the middle east,
bali, sicily, sardinia, corsica, crete, tuscany, provence, bavaria, normandy, brittany,
catalonia, andalusia, patagonia, cornwall, devon, yorkshire, kent, lapland, tasmania, the alps,
the highlands, the lake district, the cotswolds, hawaii, alaska, the algarve, the amalfi coast,
alabama, arizona, arkansas, california, colorado, connecticut, delaware, florida, idaho,
illinois, indiana, iowa, kansas, kentucky, louisiana, maine, maryland, massachusetts, michigan,
minnesota, mississippi, missouri, montana, nebraska, nevada, new hampshire, new jersey,
new mexico, new york, north carolina, north dakota, ohio, oklahoma, oregon, pennsylvania,
rhode island, south carolina, south dakota, tennessee, texas, utah, vermont, virginia,
washington, west virginia, wisconsin, wyoming, ontario, quebec, british columbia, alberta,
manitoba, nova scotia, queensland, new south wales,
amsterdam, athens, atlanta, auckland, austin, baltimore, bangkok, barcelona, beijing, beirut,
belfast, belgrade, bengaluru, bangalore, berlin, bern, bilbao, birmingham, bogota, bogotá,
bologna, bordeaux, boston, boulder, bratislava, brighton, brisbane, bristol, brooklyn, brussels,
bucharest, budapest, buenos aires, busan, cairo, calgary, cambridge, canberra, cancun, cancún,
cape town, cardiff, casablanca, chengdu, chicago, cleveland, cologne, copenhagen, cork, dallas,
delhi, new delhi, denver, detroit, doha, dubai, dublin, düsseldorf, dusseldorf, edinburgh,
florence, frankfurt, galway, geneva, genoa, ghent, glasgow, goa, gothenburg, granada,
guadalajara, guangzhou, hamburg, hangzhou, hanoi, havana, helsinki, ho chi minh city, honolulu,
houston, hyderabad, istanbul, jakarta, jerusalem, johannesburg, kathmandu, kyiv, kiev, kolkata,
krakow, kraków, kuala lumpur, kyoto, lagos, la, l.a., los angeles, las vegas, leeds, leipzig,
lima, lisbon, liverpool, ljubljana, london, lyon, madrid, malaga, málaga, manchester, manila,
marrakech, marrakesh, marseille, melbourne, mexico city, miami, milan, minneapolis, montreal,
montréal, moscow, mumbai, munich, nairobi, nantes, naples, nashville, new orleans, newcastle,
nice, nyc, oakland, osaka, oslo, ottawa, oxford, palermo, paris, perth, philadelphia, phoenix,
pittsburgh, porto, portland, prague, providence, quito, reykjavik, riga, rio, rio de janeiro,
rome, rotterdam, salzburg, san diego, san francisco, san jose, santiago, são paulo, sao paulo,
sapporo, seattle, seoul, seville, shanghai, shenzhen, sf, sofia, stockholm, stuttgart, sydney,
taipei, tallinn, tbilisi, tel aviv, the hague, tokyo, toronto, toulouse, tulum, turin, utrecht,
valencia, vancouver, venice, vienna, vilnius, warsaw, washington dc, washington d.c.,
wellington, wuhan, xi'an, xian, york, zagreb, zurich, zürich, queens, manhattan, the bronx,
hoboken, philly, chennai, pune, karachi, lahore, dhaka, colombo, phuket, chiang mai, siem reap,
hoi an, da nang, cusco, dubrovnik, split, santorini, mykonos, ibiza, mallorca, majorca,
tenerife, lanzarote, madeira, the azores, marbella, cannes, dresden, heidelberg, innsbruck,
lucerne, basel, lausanne, antwerp, bruges, maastricht, eindhoven, aarhus, bergen, malmö, malmo,
tampere, gdansk, gdańsk, wroclaw, wrocław, poznan, brno, montevideo, medellín, medellin,
cartagena, oaxaca, mérida, merida, puebla, sacramento, san antonio, fort worth, el paso, tucson,
albuquerque, salt lake city, raleigh, charlotte, orlando, tampa, savannah, charleston,
richmond, madison, milwaukee, st. louis, st louis, kansas city, omaha, indianapolis, columbus,
cincinnati, louisville, memphis, anchorage, halifax, winnipeg, edmonton, adelaide, hobart,
darwin, gold coast, christchurch, queenstown, dunedin, durban, zanzibar, kigali, accra, dakar,
tunis, amman, muscat, abu dhabi, riyadh, jeddah, baku, yerevan, almaty, tashkent, macau,
nanjing, suzhou, xiamen, kunming, nagoya, fukuoka, hiroshima, nara, okinawa, incheon, jeju,
cebu, ubud, yogyakarta, penang, lombok, leicester, nottingham, sheffield, southampton,
plymouth, exeter, bath, norwich, aberdeen, dundee, inverness, swansea, derby, coventry, reading,
stratford, windsor, canterbury, hastings, margate, whitby, lille, strasbourg, grenoble,
montpellier, avignon, biarritz, nuremberg, hanover, bremen, bonn, mainz, freiburg, verona,
bergamo, pisa, siena, lucca, trieste, bari, lecce, catania, zaragoza, salamanca, san sebastian,
san sebastián, cadiz, cádiz, cordoba, córdoba, toledo, coimbra, faro, braga, hamilton, kingston,
nassau, san juan, tijuana, monterrey, playa del carmen, cabo, los cabos, vail, aspen, napa,
sonoma, santa fe, santa barbara, santa monica, palo alto, berkeley, pasadena, long beach,
scottsdale, tempe, spokane, boise, reno, tahoe, lake tahoe, cape cod, martha's vineyard,
nantucket, the hamptons, long island, staten island, jersey city, newark, princeton,
new haven, hartford, burlington, portsmouth, annapolis, arlington, alexandria, durham,
chapel hill, asheville, atlantic city, key west, fort lauderdale, jacksonville, tallahassee,
new brunswick, banff, whistler, jasper, mumbai, goa, kerala, jaipur, agra, varanasi, rishikesh,
newfoundland, newfoundland and labrador, labrador, saskatchewan, prince edward island, yukon, nunavut,
south australia, western australia, northern territory,
the peak district, peak district, snowdonia, northumberland, cumbria, dorset, somerset, norfolk, suffolk,
essex, sussex, surrey, skye, the isle of skye, isle of skye, the isle of wight, isle of wight, anglesey,
orkney, shetland, the hebrides, fife, ayrshire, the scottish highlands, the east midlands, the west midlands
"""

#: Known places, as case-folded names.
PLACES = frozenset(" ".join(name.split()) for name in _PLACE_NAMES.replace("\n", " ").split(","))


def _key(name: str) -> str:
    return " ".join(name.casefold().replace("’", "'").split())


def is_place(name: str) -> bool:
    """Whether ``name`` is a known country, region, state or city (any case)."""
    key = _key(name)
    return key in PLACES or (key.startswith("the ") and key[4:] in PLACES)


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
mentor landlord landlady therapist sibling siblings baby bestie bf gf hubby spouse
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
someone nobody somebody everybody he she they it you your his her their there here what why how
where who which yes no ok okay sure btw fyi guess apparently sadly luckily finally recently
back still only even both all some most many one two three first second good great bad wow
please thanks thank sorry um uh hmm mom dad mum grandma grandpa monday tuesday wednesday thursday
friday saturday sunday january february march april may june july august september october
november december christmas easter spring summer autumn fall winter covid
""".split())

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
""".split())
WORKPLACE_PAIRS = frozenset(("coffee shop", "call centre", "call center", "care home", "garden centre",
                             "garden center", "book shop", "bookshop", "law firm"))
#: "I'm a sophomore at X": studies there, not works.
STUDENT_NOUNS = frozenset(
    "student undergrad undergraduate grad postgrad freshman sophomore junior senior fresher "
    "phd doctoral masters master's exchange".split())


# --- everyday facts: pets, possessions, activities, groups, events ------------------------------

#: Animals kept as pets, and breeds said instead ("our golden retriever").
PETS = frozenset("""
dog dogs puppy puppies pup doggo cat cats kitten kittens kitty hamster hamsters rabbit rabbits
bunny bunnies parrot parrots budgie budgies bird birds goldfish fish turtle turtles tortoise
tortoises snake snakes lizard lizards gecko geckos guinea-pig guinea-pigs ferret ferrets hens
chickens goat goats iguana rat rats mice horse horses pony ponies cockatiel canary axolotl
labrador lab retriever poodle beagle corgi husky terrier spaniel dachshund pug bulldog collie
greyhound lurcher whippet chihuahua schnauzer labradoodle cockapoo cavapoo dalmatian rottweiler
doberman boxer shepherd alsatian staffie staffy sheepdog pomeranian shih-tzu tabby siamese
ragdoll sphynx bengal maine-coon
""".split())
#: Two-word pets ("guinea pig", "golden retriever"): the first word may be taken as a modifier.
PET_PAIRS = frozenset(("guinea pig", "guinea pigs", "maine coon", "shih tzu", "golden retriever",
                       "german shepherd", "border collie", "bearded dragon"))

#: Possessions worth remembering.
POSSESSIONS = frozenset("""
car cars van campervan motorbike motorcycle scooter moped bike bicycle boat kayak canoe caravan
house flat apartment cottage cabin allotment piano keyboard guitar violin cello drum-kit drums
camera telescope tesla jeep truck sewing-machine kiln hot-tub
laptop tablet ipad iphone phone smartwatch watch kettle hat coat jacket dress suit shoes boots trainers
sofa couch tv telly console ps5 xbox garmin fitbit kindle e-reader headphones airpods turntable
record-player machine greenhouse shed trampoline barbecue bbq
""".split())
#: Possessions named by "my X" alone ("my car broke down"), where "my" surely means owning it.
OWNED_BY_MENTION = frozenset("car van campervan motorbike motorcycle scooter moped bike boat kayak "
                             "caravan allotment tesla jeep truck".split())

#: Hobbies and regular activities, as their noun or -ing form.
ACTIVITIES = frozenset("""
pottery ceramics yoga pilates running jogging hiking climbing bouldering swimming cycling
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
spanish french german italian japanese mandarin cantonese chinese portuguese arabic korean russian
dutch greek welsh gaelic latin polish turkish hindi swedish norwegian danish
""".split())
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
collective crew squad circle meetup community
""".split())

#: Nouns naming an event one attends.
EVENTS = frozenset("""
wedding weddings concert concerts gig gigs festival conference party game games match show recital
graduation funeral exhibition exhibit musical workshop retreat marathon 10k 5k half-marathon
race reunion ceremony fair parade hackathon premiere opera ballet play panto pantomime
christening baptism hen-do stag-do shower rally convention expo tournament nativity karaoke quiz
gala ball prom birthday ceilidh barbecue bbq supper
""".split())
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
