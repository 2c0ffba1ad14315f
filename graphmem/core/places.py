"""Known places: countries, regions, states and cities, as chat names them.

Data, read by the rules extractor (a city is not a company: "I left Berlin" ends where one lives,
"I left Google" where one works; "i live in berlin" in lowercase) and by the alias rules (a place
and a person are other entities: "London Ontario" is no full name), with the towns of GeoNames
(``data/towns.txt``) where the words already say a place (:func:`is_town`).

Internal: the place gazetteer.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

__all__ = ["PLACES", "WIDE_PLACES", "folded", "is_place", "is_town", "is_wide"]

#: Countries, continents, regions and states: places that hold towns.
_WIDE_NAMES = """
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
anguilla, antigua, aruba, benin, bermuda, bosnia and herzegovina, burkina faso, burundi, cabo verde,
cape verde, cayman islands, central african republic, comoros, curacao, curaçao, djibouti,
dominica, east timor, timor-leste, equatorial guinea, eritrea, eswatini, swaziland, faroe islands,
french guiana, french polynesia, gambia, the gambia, gibraltar, grenada, guadeloupe, guam,
guinea-bissau, isle of man, ivory coast, côte d'ivoire, kiribati, kyrgyzstan, lesotho, liechtenstein,
macedonia, north macedonia, martinique, mauritania, micronesia, new caledonia, palau,
papua new guinea, san marino, são tomé and príncipe, sao tome and principe, solomon islands,
south sudan, saint lucia, st lucia, suriname, tajikistan, tonga, trinidad and tobago, trinidad,
tobago, turkmenistan, tuvalu, vanuatu, tahiti,
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
"""
#: Towns and cities, and a few more regions.
_PLACE_NAMES = _WIDE_NAMES + """\
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
orkney, shetland, the hebrides, fife, ayrshire, the scottish highlands, the east midlands, the west midlands,
abuja, port harcourt, ibadan, kano, enugu, kumasi, takoradi, cape coast, addis ababa, kampala, dar es salaam,
joburg, mombasa, lusaka, harare, kinshasa, luanda, maputo, khartoum, benin city, abidjan, douala, yaoundé, yaounde,
windhoek, gaborone,
the bahamas, the maldives, the seychelles, the czech republic, the dominican republic, the congo, the gambia,
gambia, the andes, the rockies, the pyrenees, the dolomites, the outback, the gold coast, the sunshine coast,
the ukraine, the canaries, the canary islands, canary islands, the riviera, the french riviera, the florida keys,
the keys, the outer banks, the lakes, the big island
"""


def _names(text: str) -> frozenset[str]:
    """The comma-separated names of ``text``, as the gazetteer keeps them (one space between words)."""
    return frozenset(" ".join(name.split()) for name in text.replace("\n", " ").split(",") if name.strip())


#: Known places, as case-folded names.
PLACES = _names(_PLACE_NAMES)
#: Known places that hold towns (countries, continents, regions, states), as case-folded names.
WIDE_PLACES = _names(_WIDE_NAMES)


def folded(name: str) -> str:
    """A name as the gazetteer keeps it: composed (NFC: "Concón" typed with a combining accent is "Concón"),
    case-folded, one space between words, a plain apostrophe."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().replace("’", "'").split())


def is_place(name: str) -> bool:
    """Whether ``name`` is a known country, region, state or city (any case). A name with "the"
    is one only as the list writes it ("the hague", "the netherlands"): before a town's name,
    "the" makes a common noun of it ("in the bath", "the split", "the reading")."""
    return folded(name) in PLACES


def is_town(name: str) -> bool:
    """Whether ``name``, said where the words already say a place ("moved to", "went to", "I live in"),
    is one: a known place (:func:`is_place`) or a town GeoNames gives 15,000 people or more ("antalaha",
    "Tainan", "Concón" and "concon"; ``data/towns.txt``, CC BY 4.0, written by ``scripts/towns.py``), not a
    word of English or of five other languages, a person's name or a part of a big city. Whether a name is
    someone or somewhere is left to :func:`is_place` alone: a town may be called "Hassan" or "Yuki"."""
    key = folded(name)
    return key in PLACES or key in _towns()


@cache
def _towns() -> frozenset[str]:
    """The towns of ``data/towns.txt``, one folded name a line (read once, on first use)."""
    return frozenset((Path(__file__).parent / "data" / "towns.txt").read_text(encoding="utf-8").splitlines()) - {""}


def is_wide(name: str) -> bool:
    """Whether ``name`` is a known country, continent, region or state (any case): a place that holds towns."""
    return folded(name) in WIDE_PLACES
