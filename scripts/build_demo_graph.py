"""Build the demo graph (``memory:demo``) and its questions from the hand-written facts below.

Run ``python scripts/build_demo_graph.py [OUT_DIR]`` from the repository to regenerate
``byokg/demo/demo_kg.jsonl`` and ``byokg/demo/questions.jsonl`` (the data files that ship in the
package; this generator does not); the output is deterministic (a test rebuilds it and compares
bytes).

The facts were written for this project (musicians, places, films, companies, universities),
in a small line format parsed here::

    [Label,OtherLabel]                      # section header: labels of the nodes that follow
    Node id :: relation=Target|Target2; @property=value; aka=Alias|Alias2; name=Display

Every ``relation=`` value becomes a triplet ``id -relation-> target``; every target must itself
be defined somewhere (so every node has labels). Marriages are CVT-style event nodes
(``m.demo_marriage_NN``) linking two people: ``person -marriage-> m`` and ``m -spouse-> person``
for both spouses, with ``from``/``to`` years as node properties.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1] / "byokg" / "demo"  # where the package data lives

# --------------------------------------------------------------------------- places

PLACES = """
[Continent]
Africa
Asia
Europe
North America
South America
Oceania :: aka=Australia and Oceania

[Country]
United States :: capital=Washington, D.C.; continent=North America; currency=United States dollar; official_language=English; aka=USA|US|United States of America|America; @population=331449281
Canada :: capital=Ottawa; continent=North America; currency=Canadian dollar; official_language=English|French
Mexico :: capital=Mexico City; continent=North America; currency=Mexican peso; official_language=Spanish; aka=United Mexican States
Cuba :: capital=Havana; continent=North America; currency=Cuban peso; official_language=Spanish
Jamaica :: capital=Kingston; continent=North America; currency=Jamaican dollar; official_language=English
Brazil :: capital=Brasília; continent=South America; currency=Brazilian real; official_language=Portuguese; aka=Brasil
Colombia :: capital=Bogotá; continent=South America; currency=Colombian peso; official_language=Spanish
Argentina :: capital=Buenos Aires; continent=South America; currency=Argentine peso; official_language=Spanish
United Kingdom :: capital=London; continent=Europe; currency=Pound sterling; official_language=English; aka=UK|Britain|Great Britain
Ireland :: capital=Dublin; continent=Europe; currency=Euro; official_language=Irish|English; aka=Republic of Ireland|Éire
France :: capital=Paris; continent=Europe; currency=Euro; official_language=French; aka=French Republic
Germany :: capital=Berlin; continent=Europe; currency=Euro; official_language=German; aka=Deutschland
Italy :: capital=Rome; continent=Europe; currency=Euro; official_language=Italian; aka=Italia
Spain :: capital=Madrid; continent=Europe; currency=Euro; official_language=Spanish; aka=España
Portugal :: capital=Lisbon; continent=Europe; currency=Euro; official_language=Portuguese
Austria :: capital=Vienna; continent=Europe; currency=Euro; official_language=German; aka=Österreich
Switzerland :: capital=Bern; continent=Europe; currency=Swiss franc; official_language=German|French|Italian|Romansh; aka=Swiss Confederation
Belgium :: capital=Brussels; continent=Europe; currency=Euro; official_language=Dutch|French|German
Netherlands :: capital=Amsterdam; continent=Europe; currency=Euro; official_language=Dutch; aka=Holland
Sweden :: capital=Stockholm; continent=Europe; currency=Swedish krona; official_language=Swedish; aka=Sverige
Norway :: capital=Oslo; continent=Europe; currency=Norwegian krone; official_language=Norwegian
Denmark :: capital=Copenhagen; continent=Europe; currency=Danish krone; official_language=Danish
Finland :: capital=Helsinki; continent=Europe; currency=Euro; official_language=Finnish|Swedish; aka=Suomi
Iceland :: capital=Reykjavík; continent=Europe; currency=Icelandic króna; official_language=Icelandic; aka=Ísland
Poland :: capital=Warsaw; continent=Europe; currency=Polish złoty; official_language=Polish; aka=Polska
Czech Republic :: capital=Prague; continent=Europe; currency=Czech koruna; official_language=Czech; aka=Czechia
Hungary :: capital=Budapest; continent=Europe; currency=Hungarian forint; official_language=Hungarian
Russia :: capital=Moscow; continent=Europe|Asia; currency=Russian ruble; official_language=Russian; aka=Russian Federation
Turkey :: capital=Ankara; continent=Europe|Asia; currency=Turkish lira; official_language=Turkish; aka=Türkiye
Japan :: capital=Tokyo; continent=Asia; currency=Japanese yen; official_language=Japanese; aka=Nippon
South Korea :: capital=Seoul; continent=Asia; currency=South Korean won; official_language=Korean; aka=Republic of Korea|Korea
China :: capital=Beijing; continent=Asia; currency=Renminbi; official_language=Mandarin Chinese; aka=People's Republic of China|PRC
Taiwan :: capital=Taipei; continent=Asia; currency=New Taiwan dollar; official_language=Mandarin Chinese
India :: capital=New Delhi; continent=Asia; currency=Indian rupee; official_language=Hindi|English; aka=Bharat
Morocco :: capital=Rabat; continent=Africa; currency=Moroccan dirham; official_language=Arabic|Berber
Nigeria :: capital=Abuja; continent=Africa; currency=Nigerian naira; official_language=English
Senegal :: capital=Dakar; continent=Africa; currency=West African CFA franc; official_language=French
South Africa :: capital=Pretoria; continent=Africa; currency=South African rand; official_language=English|Afrikaans|Zulu|Xhosa
Tanzania :: capital=Dodoma; continent=Africa; currency=Tanzanian shilling; official_language=Swahili|English
Somalia :: capital=Mogadishu; continent=Africa; currency=Somali shilling; official_language=Somali|Arabic
Australia :: capital=Canberra; continent=Oceania; currency=Australian dollar; official_language=English
New Zealand :: capital=Wellington; continent=Oceania; currency=New Zealand dollar; official_language=English|Māori; aka=Aotearoa

[Currency]
United States dollar :: aka=US dollar|USD
Canadian dollar :: aka=CAD
Mexican peso
Cuban peso
Jamaican dollar
Brazilian real :: aka=real
Colombian peso
Argentine peso
Pound sterling :: aka=British pound|GBP
Euro :: aka=EUR|€
Swiss franc :: aka=CHF
Swedish krona :: aka=SEK
Norwegian krone
Danish krone
Icelandic króna :: aka=Icelandic krona|ISK
Polish złoty :: aka=Polish zloty|PLN
Czech koruna
Hungarian forint
Russian ruble :: aka=Russian rouble
Turkish lira
Japanese yen :: aka=yen|JPY
South Korean won :: aka=won
Renminbi :: aka=Chinese yuan|yuan|CNY
New Taiwan dollar
Indian rupee :: aka=rupee|INR
Moroccan dirham
Nigerian naira :: aka=naira
West African CFA franc :: aka=CFA franc
South African rand :: aka=rand
Tanzanian shilling
Somali shilling
Australian dollar :: aka=AUD
New Zealand dollar :: aka=NZD

[Language]
English
French
Spanish
Portuguese
German
Italian
Dutch
Irish :: aka=Irish Gaelic
Romansh
Swedish
Norwegian
Danish
Finnish
Icelandic
Polish
Czech
Hungarian
Russian
Turkish
Japanese
Korean
Mandarin Chinese :: aka=Mandarin|Standard Chinese
Hindi
Arabic
Berber :: aka=Tamazight
Afrikaans
Zulu
Xhosa
Swahili :: aka=Kiswahili
Somali
Māori :: aka=Maori|te reo Māori

[State]
Louisiana :: located_in=United States; aka=LA state
New York :: located_in=United States; aka=New York State|NY
Tennessee :: located_in=United States
Mississippi :: located_in=United States
Illinois :: located_in=United States
California :: located_in=United States
Texas :: located_in=United States
Georgia :: located_in=United States; aka=State of Georgia
Minnesota :: located_in=United States
Michigan :: located_in=United States
Washington (state) :: name=Washington; located_in=United States; aka=Washington State
Pennsylvania :: located_in=United States
Massachusetts :: located_in=United States
Arkansas :: located_in=United States
Alabama :: located_in=United States
Missouri :: located_in=United States
Kansas :: located_in=United States
Indiana :: located_in=United States
North Carolina :: located_in=United States
South Carolina :: located_in=United States
Virginia :: located_in=United States
Oregon :: located_in=United States
Oklahoma :: located_in=United States
Ohio :: located_in=United States
New Jersey :: located_in=United States
Connecticut :: located_in=United States
Rhode Island :: located_in=United States
Nevada :: located_in=United States
Montana :: located_in=United States
Iowa :: located_in=United States
New Mexico :: located_in=United States
Colorado :: located_in=United States
Nebraska :: located_in=United States
Puerto Rico :: located_in=United States

[Province]
Ontario :: located_in=Canada
Quebec :: located_in=Canada; aka=Québec
Alberta :: located_in=Canada

[Region]
England :: located_in=United Kingdom
Scotland :: located_in=United Kingdom
Île-de-France :: located_in=France; aka=Ile-de-France|Paris Region
Provence-Alpes-Côte d'Azur :: located_in=France; aka=PACA
Auvergne-Rhône-Alpes :: located_in=France
Grand Est :: located_in=France
Bavaria :: located_in=Germany; aka=Bayern
North Rhine-Westphalia :: located_in=Germany; aka=Nordrhein-Westfalen|NRW
Saxony :: located_in=Germany; aka=Sachsen
Thuringia :: located_in=Germany; aka=Thüringen
Hesse :: located_in=Germany; aka=Hessen
Lazio :: located_in=Italy
Emilia-Romagna :: located_in=Italy
Sicily :: located_in=Italy; aka=Sicilia
Catalonia :: located_in=Spain; aka=Catalunya
Maharashtra :: located_in=India
Tamil Nadu :: located_in=India
Uttar Pradesh :: located_in=India
Rio de Janeiro (state) :: name=Rio de Janeiro; located_in=Brazil
São Paulo (state) :: name=São Paulo; located_in=Brazil; aka=Sao Paulo state
Bahia :: located_in=Brazil
Jalisco :: located_in=Mexico
Aichi Prefecture :: located_in=Japan; aka=Aichi
Zanzibar :: located_in=Tanzania
Gauteng :: located_in=South Africa
Mpumalanga :: located_in=South Africa
New South Wales :: located_in=Australia; aka=NSW
Australian Capital Territory :: located_in=Australia; aka=ACT

[City]
Washington, D.C. :: located_in=United States; aka=Washington DC|DC|District of Columbia; @population=689545
New Orleans :: located_in=Louisiana; aka=NOLA|The Big Easy|Crescent City; @population=383997
Breaux Bridge :: located_in=Louisiana
New York City :: located_in=New York; aka=NYC|Big Apple|New York|The Big Apple; @population=8804190
Armonk :: located_in=New York
White Plains :: located_in=New York
Memphis :: located_in=Tennessee; @population=633104
Nashville :: located_in=Tennessee; aka=Music City; @population=689447
Sevierville :: located_in=Tennessee
Tupelo :: located_in=Mississippi
Itta Bena :: located_in=Mississippi
Rolling Fork :: located_in=Mississippi
Hazlehurst :: located_in=Mississippi
Chicago :: located_in=Illinois; aka=Windy City|Chi-Town; @population=2746388
Alton :: located_in=Illinois
Rockford :: located_in=Illinois
Oak Park :: located_in=Illinois
Los Angeles :: located_in=California; aka=LA|L.A.|City of Angels; @population=3898747
San Francisco :: located_in=California; aka=SF|San Fran; @population=873965
San Jose :: located_in=California
Cupertino :: located_in=California
Mountain View :: located_in=California
Menlo Park :: located_in=California
Los Gatos :: located_in=California
Burbank :: located_in=California
Emeryville :: located_in=California
Concord, California :: name=Concord; located_in=California
Santa Monica :: located_in=California
Anaheim :: located_in=California
Berkeley :: located_in=California
Long Beach :: located_in=California
Stanford :: located_in=California
Beverly Hills :: located_in=California
Santa Barbara :: located_in=California
Compton :: located_in=California
Santa Clarita :: located_in=California
Houston :: located_in=Texas; aka=H-Town; @population=2304580
Dallas :: located_in=Texas
San Antonio :: located_in=Texas
Abbott :: located_in=Texas
Denton :: located_in=Texas
Terrell :: located_in=Texas
Longview :: located_in=Texas
Paris, Texas :: name=Paris; located_in=Texas
Atlanta :: located_in=Georgia; aka=ATL; @population=498715
Albany, Georgia :: name=Albany; located_in=Georgia
Dawson :: located_in=Georgia
Savannah :: located_in=Georgia
Minneapolis :: located_in=Minnesota; @population=429954
Duluth :: located_in=Minnesota
St. Louis Park :: located_in=Minnesota
Chanhassen :: located_in=Minnesota
Detroit :: located_in=Michigan; aka=Motor City|Motown; @population=639111
Saginaw :: located_in=Michigan
East Lansing :: located_in=Michigan
Ann Arbor :: located_in=Michigan
Seattle :: located_in=Washington (state); aka=Emerald City; @population=737015
Redmond :: located_in=Washington (state)
Pullman :: located_in=Washington (state)
Philadelphia :: located_in=Pennsylvania; aka=Philly; @population=1603797
Pittsburgh :: located_in=Pennsylvania
Boston :: located_in=Massachusetts; aka=Beantown
Cambridge, Massachusetts :: name=Cambridge; located_in=Massachusetts
Kingsland :: located_in=Arkansas
Florence, Alabama :: name=Florence; located_in=Alabama
Selma :: located_in=Alabama
St. Louis :: located_in=Missouri; aka=Saint Louis
Kansas City, Missouri :: name=Kansas City; located_in=Missouri
St. Joseph :: located_in=Missouri; aka=Saint Joseph
Kansas City, Kansas :: name=Kansas City; located_in=Kansas
Gary :: located_in=Indiana
Hamlet :: located_in=North Carolina
Rocky Mount :: located_in=North Carolina
Tryon :: located_in=North Carolina
Cheraw :: located_in=South Carolina
Barnwell :: located_in=South Carolina
Newport News :: located_in=Virginia
Maces Spring :: located_in=Virginia
Portland :: located_in=Oregon
Shawnee :: located_in=Oklahoma
Cincinnati :: located_in=Ohio
Cleveland :: located_in=Ohio
Hoboken :: located_in=New Jersey
Newark :: located_in=New Jersey
Princeton :: located_in=New Jersey
New Haven :: located_in=Connecticut
Providence :: located_in=Rhode Island
Reno :: located_in=Nevada
Kalispell :: located_in=Montana
Grinnell :: located_in=Iowa
Albuquerque :: located_in=New Mexico
Denver :: located_in=Colorado
Omaha :: located_in=Nebraska
San Juan :: located_in=Puerto Rico
Toronto :: located_in=Ontario; aka=The Six|T.O.
Ottawa :: located_in=Ontario
Windsor, Ontario :: name=Windsor; located_in=Ontario
London, Ontario :: name=London; located_in=Ontario
Montreal :: located_in=Quebec; aka=Montréal
Charlemagne :: located_in=Quebec
Fort Macleod :: located_in=Alberta
London :: located_in=England; aka=Greater London|City of London; @population=8799800
Liverpool :: located_in=England
Manchester :: located_in=England
Salford :: located_in=England
Oxford :: located_in=England
Cambridge :: located_in=England
Glasgow :: located_in=Scotland
Dublin :: located_in=Ireland; aka=Baile Átha Cliath
Limerick :: located_in=Ireland
Gweedore :: located_in=Ireland; aka=Gaoth Dobhair
Paris :: located_in=Île-de-France; aka=City of Light|Paname; @population=2102650
Clichy :: located_in=Île-de-France
La Ciotat :: located_in=Provence-Alpes-Côte d'Azur
Roanne :: located_in=Auvergne-Rhône-Alpes
Clermont-Ferrand :: located_in=Auvergne-Rhône-Alpes
Mulhouse :: located_in=Grand Est
Berlin :: located_in=Germany; @population=3755251
Munich :: located_in=Bavaria; aka=München
Düsseldorf :: located_in=North Rhine-Westphalia; aka=Dusseldorf|Duesseldorf
Cologne :: located_in=North Rhine-Westphalia; aka=Köln|Koln
Bonn :: located_in=North Rhine-Westphalia
Krefeld :: located_in=North Rhine-Westphalia
Wuppertal :: located_in=North Rhine-Westphalia
Hemer :: located_in=North Rhine-Westphalia
Leipzig :: located_in=Saxony
Zwickau :: located_in=Saxony
Eisenach :: located_in=Thuringia
Frankfurt :: located_in=Hesse; aka=Frankfurt am Main
Rome :: located_in=Lazio; aka=Roma|Eternal City
Rimini :: located_in=Emilia-Romagna
Modena :: located_in=Emilia-Romagna
Maranello :: located_in=Emilia-Romagna
Bagheria :: located_in=Sicily
Madrid :: located_in=Spain
Barcelona :: located_in=Catalonia
Lisbon :: located_in=Portugal; aka=Lisboa
Vienna :: located_in=Austria; aka=Wien
Salzburg :: located_in=Austria
Bern :: located_in=Switzerland; aka=Berne
Vevey :: located_in=Switzerland
Brussels :: located_in=Belgium; aka=Bruxelles|Brussel
Liberchies :: located_in=Belgium
Amsterdam :: located_in=Netherlands
Stockholm :: located_in=Sweden
Gothenburg :: located_in=Sweden; aka=Göteborg|Goteborg
Jönköping :: located_in=Sweden; aka=Jonkoping
Uppsala :: located_in=Sweden
Älmhult :: located_in=Sweden; aka=Almhult
Pjätteryd :: located_in=Sweden; aka=Pjatteryd
Oslo :: located_in=Norway
Bergen :: located_in=Norway
Ballangen :: located_in=Norway
Copenhagen :: located_in=Denmark; aka=København
Billund :: located_in=Denmark
Helsinki :: located_in=Finland
Hämeenlinna :: located_in=Finland; aka=Hameenlinna|Tavastehus
Reykjavík :: located_in=Iceland; aka=Reykjavik; @population=139875
Warsaw :: located_in=Poland; aka=Warszawa
Żelazowa Wola :: located_in=Poland; aka=Zelazowa Wola
Łódź :: located_in=Poland; aka=Lodz
Prague :: located_in=Czech Republic; aka=Praha
Nelahozeves :: located_in=Czech Republic
Čáslav :: located_in=Czech Republic; aka=Caslav
Budapest :: located_in=Hungary
Moscow :: located_in=Russia; aka=Moskva
Saint Petersburg :: located_in=Russia; aka=St. Petersburg|Leningrad|Petrograd
Votkinsk :: located_in=Russia
Istanbul :: located_in=Turkey; aka=Constantinople|İstanbul
Ankara :: located_in=Turkey
Tokyo :: located_in=Japan; aka=Tōkyō|Edo; @population=13960000
Kyoto :: located_in=Japan; aka=Kyōto
Nagoya :: located_in=Aichi Prefecture
"Toyota, Aichi" :: name=Toyota; located_in=Aichi Prefecture; aka=Toyota City
Seoul :: located_in=South Korea
Daegu :: located_in=South Korea
Gimhae :: located_in=South Korea
Beijing :: located_in=China; aka=Peking
Shanghai :: located_in=China
Hangzhou :: located_in=China
Shenzhen :: located_in=China
Shantou :: located_in=China
Hong Kong :: located_in=China; aka=HK
Taipei :: located_in=Taiwan
Pingtung :: located_in=Taiwan
New Delhi :: located_in=India
Mumbai :: located_in=Maharashtra; aka=Bombay
Chennai :: located_in=Tamil Nadu; aka=Madras
Varanasi :: located_in=Uttar Pradesh; aka=Benares|Banaras
Rio de Janeiro :: located_in=Rio de Janeiro (state); aka=Rio
São Paulo :: located_in=São Paulo (state); aka=Sao Paulo
Salvador, Bahia :: name=Salvador; located_in=Bahia
Juazeiro :: located_in=Bahia
Santo Amaro :: located_in=Bahia
Brasília :: located_in=Brazil; aka=Brasilia
Bogotá :: located_in=Colombia; aka=Bogota
Barranquilla :: located_in=Colombia
Buenos Aires :: located_in=Argentina
Mexico City :: located_in=Mexico; aka=Ciudad de México|CDMX
Guadalajara :: located_in=Jalisco
Autlán de Navarro :: located_in=Jalisco; aka=Autlan
Havana :: located_in=Cuba; aka=La Habana
Matanzas :: located_in=Cuba
Santiago de Cuba :: located_in=Cuba
Kingston :: located_in=Jamaica
Nine Mile :: located_in=Jamaica
Rabat :: located_in=Morocco
Casablanca :: located_in=Morocco
Abuja :: located_in=Nigeria
Abeokuta :: located_in=Nigeria
Dakar :: located_in=Senegal
Pretoria :: located_in=Gauteng
Johannesburg :: located_in=Gauteng; aka=Jozi|Joburg
Witbank :: located_in=Mpumalanga; aka=eMalahleni
Dodoma :: located_in=Tanzania
Stone Town :: located_in=Zanzibar; aka=Zanzibar Town
Mogadishu :: located_in=Somalia
Canberra :: located_in=Australian Capital Territory
Sydney :: located_in=New South Wales
Wellington :: located_in=New Zealand
"""

# --------------------------------------------------------------------------- music

VOCAB = """
[Instrument]
trumpet :: instrument_family=brass instruments
trombone :: instrument_family=brass instruments
saxophone :: instrument_family=woodwind instruments; aka=sax
piano :: instrument_family=keyboard instruments; aka=pianoforte
organ :: instrument_family=keyboard instruments
harpsichord :: instrument_family=keyboard instruments
keyboards :: instrument_family=keyboard instruments; aka=synthesizer
guitar :: instrument_family=string instruments
bass guitar :: instrument_family=string instruments; aka=electric bass
double bass :: instrument_family=string instruments; aka=upright bass|contrabass
violin :: instrument_family=string instruments; aka=fiddle
harp :: instrument_family=string instruments
sitar :: instrument_family=string instruments
autoharp :: instrument_family=string instruments
drums :: instrument_family=percussion instruments; aka=drum kit
timbales :: instrument_family=percussion instruments
harmonica :: instrument_family=free reed instruments; aka=mouth organ
vocals :: aka=voice|singing

[InstrumentFamily]
brass instruments
woodwind instruments
keyboard instruments
string instruments
percussion instruments
free reed instruments

[MusicGenre,Genre]
jazz
Dixieland :: subgenre_of=jazz; aka=traditional jazz|New Orleans jazz
swing :: subgenre_of=jazz; aka=swing music
bebop :: subgenre_of=jazz; aka=bop
cool jazz :: subgenre_of=jazz
free jazz :: subgenre_of=jazz
jazz fusion :: subgenre_of=jazz|rock
Latin jazz :: subgenre_of=jazz
gypsy jazz :: subgenre_of=jazz; aka=jazz manouche
blues
Delta blues :: subgenre_of=blues
Chicago blues :: subgenre_of=blues
rhythm and blues :: aka=R&B|RnB
soul :: subgenre_of=rhythm and blues; aka=soul music
funk
gospel
rock and roll :: aka=rock 'n' roll|rock & roll
rockabilly :: subgenre_of=rock and roll
rock :: aka=rock music
hard rock :: subgenre_of=rock
folk rock :: subgenre_of=rock|folk
indie rock :: subgenre_of=rock
alternative rock :: subgenre_of=rock
post-rock :: subgenre_of=rock
post-punk :: subgenre_of=rock
Britpop :: subgenre_of=rock
Latin rock :: subgenre_of=rock
industrial metal :: subgenre_of=rock
pop :: aka=pop music
traditional pop :: subgenre_of=pop
art pop :: subgenre_of=pop
Latin pop :: subgenre_of=pop
K-pop :: subgenre_of=pop; aka=Korean pop
synth-pop :: subgenre_of=pop|electronic music; aka=synthpop
electronic music :: aka=electronic
French house :: subgenre_of=electronic music
country :: aka=country music
country pop :: subgenre_of=country|pop
outlaw country :: subgenre_of=country
folk :: aka=folk music
chanson :: aka=French chanson
fado
salsa
son cubano :: aka=son
mambo
bossa nova
tropicália :: aka=tropicalia|Tropicalismo
MPB :: aka=Música popular brasileira|Brazilian popular music
Afrobeat
reggae
hip hop :: aka=hip-hop|rap
classical music :: aka=Western classical music
Baroque music :: subgenre_of=classical music
Romantic music :: subgenre_of=classical music
Hindustani classical music :: aka=Hindustani music
film score :: aka=soundtrack
new age :: aka=new-age music
experimental music
world music

[FilmGenre,Genre]
drama :: aka=drama film
crime film :: aka=crime
comedy :: aka=comedy film
romance film :: aka=romance
romantic comedy :: subgenre_of=comedy|romance film; aka=rom-com
film noir :: aka=noir
animation :: aka=animated film
fantasy :: aka=fantasy film
musical :: aka=musical film
biographical film :: aka=biopic
thriller :: aka=thriller film
action film :: aka=action
martial arts film :: subgenre_of=action film
wuxia :: subgenre_of=martial arts film
sports film :: subgenre_of=drama

[Industry]
information technology :: aka=IT
consumer electronics
software
internet
e-commerce :: aka=online retail
cloud computing
social media
streaming media :: aka=streaming
automotive :: aka=car industry
video games :: aka=gaming
entertainment
conglomerate
retail
toys
food processing :: aka=food
cosmetics
tires :: aka=tyres
beverages
animation studio
film industry :: aka=film production
"""

RECORD_LABELS = """
[RecordLabel,Company]
Columbia Records :: headquartered_in=New York City; parent_company=Sony Music Entertainment; @founded=1889; aka=Columbia
OKeh Records :: headquartered_in=New York City; founded_by=Otto K. E. Heinemann; parent_company=Sony Music Entertainment; @founded=1918; aka=OKeh
Decca Records :: headquartered_in=London; parent_company=Universal Music Group; @founded=1929; aka=Decca
Blue Note Records :: headquartered_in=New York City; founded_by=Alfred Lion|Max Margulis; parent_company=Universal Music Group; @founded=1939; aka=Blue Note
Verve Records :: founded_in=Los Angeles; founded_by=Norman Granz; parent_company=Universal Music Group; @founded=1956; aka=Verve
Impulse! Records :: founded_by=Creed Taylor; @founded=1960; aka=Impulse Records|Impulse!
Atlantic Records :: headquartered_in=New York City; founded_by=Ahmet Ertegun|Herb Abramson; parent_company=Warner Music Group; @founded=1947; aka=Atlantic
Chess Records :: headquartered_in=Chicago; founded_by=Leonard Chess|Phil Chess; @founded=1950; aka=Chess
Sun Records :: headquartered_in=Memphis; founded_by=Sam Phillips; @founded=1952; aka=Sun Record Company|Sun Studio
Stax Records :: headquartered_in=Memphis; founded_by=Jim Stewart|Estelle Axton; @founded=1957; aka=Stax
Motown :: founded_in=Detroit; founded_by=Berry Gordy; parent_company=Universal Music Group; @founded=1959; aka=Motown Records|Hitsville U.S.A.|Tamla
RCA Victor :: headquartered_in=New York City; parent_company=Sony Music Entertainment; @founded=1929; aka=RCA Records|RCA
Capitol Records :: headquartered_in=Los Angeles; founded_by=Johnny Mercer|Buddy DeSylva|Glenn Wallichs; parent_company=Universal Music Group; @founded=1942; aka=Capitol
Reprise Records :: headquartered_in=Burbank; founded_by=Frank Sinatra; parent_company=Warner Music Group; @founded=1960; aka=Reprise
Warner Bros. Records :: headquartered_in=Burbank; parent_company=Warner Music Group; @founded=1958; aka=Warner Records
Paisley Park Records :: headquartered_in=Chanhassen; founded_by=Prince; @founded=1985
Epic Records :: headquartered_in=New York City; parent_company=Sony Music Entertainment; @founded=1953; aka=Epic
Mercury Records :: founded_in=Chicago; parent_company=Universal Music Group; @founded=1945; aka=Mercury
King Records :: headquartered_in=Cincinnati; founded_by=Syd Nathan; @founded=1943
Island Records :: founded_in=Kingston; headquartered_in=London; founded_by=Chris Blackwell; parent_company=Universal Music Group; @founded=1959; aka=Island
Def Jam Recordings :: headquartered_in=New York City; founded_by=Russell Simmons|Rick Rubin; parent_company=Universal Music Group; @founded=1984; aka=Def Jam
Roc-A-Fella Records :: headquartered_in=New York City; founded_by=Jay-Z|Damon Dash|Kareem Burke; @founded=1995; aka=Roc-A-Fella
Aftermath Entertainment :: @founded=1996; aka=Aftermath
Parlophone :: headquartered_in=London; parent_company=Warner Music Group; @founded=1896; aka=Parlophone Records
EMI :: headquartered_in=London; @founded=1931; aka=Electric and Musical Industries|EMI Records
Factory Records :: headquartered_in=Manchester; founded_by=Tony Wilson|Alan Erasmus; @founded=1978; aka=Factory
Rough Trade Records :: headquartered_in=London; founded_by=Geoff Travis; @founded=1978; aka=Rough Trade
Creation Records :: headquartered_in=London; founded_by=Alan McGee; @founded=1983; aka=Creation
XL Recordings :: headquartered_in=London; @founded=1989; aka=XL
Polar Music :: headquartered_in=Stockholm; founded_by=Stig Anderson|Bengt Bernhag; @founded=1963
One Little Indian Records :: headquartered_in=London; @founded=1985; aka=One Little Indian
Big Hit Music :: headquartered_in=Seoul; founded_by=Bang Si-hyuk; @founded=2005; aka=Big Hit Entertainment|Big Hit
Asylum Records :: founded_in=Los Angeles; founded_by=David Geffen|Elliot Roberts; @founded=1971; aka=Asylum
Fania Records :: headquartered_in=New York City; founded_by=Johnny Pacheco|Jerry Masucci; @founded=1964; aka=Fania
Sony Music Entertainment :: headquartered_in=New York City; parent_company=Sony; aka=Sony Music
Universal Music Group :: headquartered_in=Santa Monica; aka=UMG|Universal Music
Warner Music Group :: headquartered_in=New York City; aka=WMG|Warner Music
"""

BANDS = """
[Band]
The Beatles :: formed_in=Liverpool; genre=rock|pop; signed_to=Parlophone; @formed=1960; aka=Beatles|The Fab Four
The Rolling Stones :: formed_in=London; genre=rock; signed_to=Decca Records; @formed=1962; aka=Rolling Stones|The Stones
Queen :: formed_in=London; genre=rock; signed_to=EMI; @formed=1970; aka=Queen (band)
Led Zeppelin :: formed_in=London; genre=hard rock|rock; signed_to=Atlantic Records; @formed=1968; aka=Zeppelin
Oasis :: formed_in=Manchester; genre=Britpop; signed_to=Creation Records; @formed=1991
The Smiths :: formed_in=Manchester; genre=indie rock; signed_to=Rough Trade Records; @formed=1982; aka=Smiths
Joy Division :: formed_in=Salford; genre=post-punk; signed_to=Factory Records; @formed=1976
New Order :: formed_in=Salford; genre=synth-pop|post-punk; signed_to=Factory Records; @formed=1980
U2 :: formed_in=Dublin; genre=rock; signed_to=Island Records; @formed=1976
The Cranberries :: formed_in=Limerick; genre=alternative rock; signed_to=Island Records; @formed=1989; aka=Cranberries
ABBA :: formed_in=Stockholm; genre=pop; signed_to=Polar Music; @formed=1972
Sigur Rós :: formed_in=Reykjavík; genre=post-rock; @formed=1994; aka=Sigur Ros
The Sugarcubes :: formed_in=Reykjavík; genre=alternative rock; signed_to=One Little Indian Records; @formed=1986; aka=Sykurmolarnir
Kraftwerk :: formed_in=Düsseldorf; genre=electronic music|synth-pop; @formed=1970
Rammstein :: formed_in=Berlin; genre=industrial metal; @formed=1994
Daft Punk :: formed_in=Paris; genre=electronic music|French house; @formed=1993
Destiny's Child :: formed_in=Houston; genre=rhythm and blues|pop; signed_to=Columbia Records; @formed=1990; aka=Destinys Child
The Supremes :: formed_in=Detroit; genre=soul|pop; signed_to=Motown; @formed=1959; aka=Supremes
The Miracles :: formed_in=Detroit; genre=soul; signed_to=Motown; @formed=1955; aka=Smokey Robinson and the Miracles
The Jackson 5 :: formed_in=Gary; genre=soul|pop; signed_to=Motown; @formed=1964; aka=Jackson 5|The Jacksons
Carter Family :: formed_in=Maces Spring; genre=country; @formed=1927; aka=The Carter Family
Buffalo Springfield :: formed_in=Los Angeles; genre=folk rock; signed_to=Atlantic Records; @formed=1966
"Crosby, Stills, Nash & Young" :: formed_in=Los Angeles; genre=folk rock; signed_to=Atlantic Records; @formed=1969; aka=CSNY
Wings :: formed_in=London; genre=rock; @formed=1971; aka=Paul McCartney and Wings
Simon & Garfunkel :: formed_in=New York City; genre=folk rock; signed_to=Columbia Records; @formed=1956; aka=Simon and Garfunkel
Yellow Magic Orchestra :: formed_in=Tokyo; genre=synth-pop|electronic music; @formed=1978; aka=YMO
BTS :: formed_in=Seoul; genre=K-pop; signed_to=Big Hit Music; @formed=2013; aka=Bangtan Boys|Bangtan Sonyeondan
Bob Marley and the Wailers :: formed_in=Kingston; genre=reggae; signed_to=Island Records; @formed=1963; aka=The Wailers
N.W.A :: formed_in=Compton; genre=hip hop; @formed=1987; aka=NWA
La Sonora Matancera :: formed_in=Matanzas; genre=son cubano|salsa; @formed=1924
Quintette du Hot Club de France :: formed_in=Paris; genre=gypsy jazz; @formed=1934; aka=Hot Club de France
Duke Ellington Orchestra :: formed_in=New York City; genre=jazz|swing; @formed=1923
Louis Armstrong and His Hot Five :: formed_in=Chicago; genre=jazz; signed_to=OKeh Records; @formed=1925; aka=Hot Five
Dave Brubeck Quartet :: formed_in=San Francisco; genre=cool jazz; signed_to=Columbia Records; @formed=1951
Santana :: formed_in=San Francisco; genre=Latin rock; signed_to=Columbia Records; @formed=1966; aka=Santana (band)
Clannad :: formed_in=Gweedore; genre=folk|new age; @formed=1970
"""

MUSICIANS = """
[Person,Musician]
Louis Armstrong :: born_in=New Orleans; instrument=trumpet; genre=jazz|Dixieland; signed_to=OKeh Records|Decca Records; member_of=Louis Armstrong and His Hot Five; @birth_year=1901; aka=Satchmo|Pops
Wynton Marsalis :: born_in=New Orleans; instrument=trumpet; genre=jazz|classical music; signed_to=Columbia Records; educated_at=Juilliard School; parent=Ellis Marsalis Jr.; sibling=Branford Marsalis; @birth_year=1961
Branford Marsalis :: born_in=Breaux Bridge; instrument=saxophone; genre=jazz; signed_to=Columbia Records; educated_at=Berklee College of Music; parent=Ellis Marsalis Jr.; sibling=Wynton Marsalis; @birth_year=1960
Ellis Marsalis Jr. :: born_in=New Orleans; instrument=piano; genre=jazz; @birth_year=1934; aka=Ellis Marsalis
Troy Andrews :: born_in=New Orleans; instrument=trombone|trumpet; genre=jazz|funk; signed_to=Blue Note Records; @birth_year=1986; aka=Trombone Shorty
Miles Davis :: born_in=Alton; instrument=trumpet; genre=jazz|cool jazz|jazz fusion; signed_to=Columbia Records; educated_at=Juilliard School; @birth_year=1926
John Coltrane :: born_in=Hamlet; instrument=saxophone; genre=jazz|free jazz; signed_to=Atlantic Records|Impulse! Records; @birth_year=1926; aka=Trane
Alice Coltrane :: born_in=Detroit; instrument=piano|harp; genre=jazz; signed_to=Impulse! Records; @birth_year=1937
Duke Ellington :: born_in=Washington, D.C.; instrument=piano; genre=jazz|swing; member_of=Duke Ellington Orchestra; @birth_year=1899
Ella Fitzgerald :: born_in=Newport News; instrument=vocals; genre=jazz|swing; signed_to=Decca Records|Verve Records; @birth_year=1917; aka=First Lady of Song|Queen of Jazz
Ray Brown :: born_in=Pittsburgh; instrument=double bass; genre=jazz; @birth_year=1926
Billie Holiday :: born_in=Philadelphia; instrument=vocals; genre=jazz|swing; signed_to=Decca Records|Verve Records; @birth_year=1915; aka=Lady Day
Charlie Parker :: born_in=Kansas City, Kansas; instrument=saxophone; genre=jazz|bebop; signed_to=Verve Records; @birth_year=1920; aka=Bird|Yardbird
Dizzy Gillespie :: born_in=Cheraw; instrument=trumpet; genre=jazz|bebop|Latin jazz; signed_to=Verve Records; @birth_year=1917
Thelonious Monk :: born_in=Rocky Mount; instrument=piano; genre=jazz|bebop; signed_to=Blue Note Records|Columbia Records; @birth_year=1917
Herbie Hancock :: born_in=Chicago; instrument=piano|keyboards; genre=jazz|jazz fusion|funk; signed_to=Blue Note Records|Columbia Records; educated_at=Grinnell College; @birth_year=1940
Nina Simone :: born_in=Tryon; instrument=piano; genre=jazz|soul|blues; educated_at=Juilliard School; @birth_year=1933; aka=High Priestess of Soul
Dave Brubeck :: born_in=Concord, California; instrument=piano; genre=jazz|cool jazz; signed_to=Columbia Records; member_of=Dave Brubeck Quartet; @birth_year=1920
Django Reinhardt :: born_in=Liberchies; instrument=guitar; genre=gypsy jazz; member_of=Quintette du Hot Club de France; @birth_year=1910
Stéphane Grappelli :: born_in=Paris; instrument=violin; genre=gypsy jazz; member_of=Quintette du Hot Club de France; @birth_year=1908; aka=Stephane Grappelli|Stéphane Grappelly
Esperanza Spalding :: born_in=Portland; instrument=double bass; genre=jazz; educated_at=Berklee College of Music; @birth_year=1984
Norah Jones :: born_in=New York City; instrument=piano; genre=jazz|pop; signed_to=Blue Note Records; educated_at=University of North Texas; parent=Ravi Shankar; @birth_year=1979
Quincy Jones :: born_in=Chicago; instrument=trumpet; genre=jazz|pop; educated_at=Berklee College of Music; @birth_year=1933
B.B. King :: born_in=Itta Bena; instrument=guitar; genre=blues; @birth_year=1925; aka=BB King|Blues Boy King|King of the Blues
Muddy Waters :: born_in=Rolling Fork; instrument=guitar; genre=blues|Chicago blues; signed_to=Chess Records; @birth_year=1913; aka=McKinley Morganfield
Robert Johnson :: born_in=Hazlehurst; instrument=guitar; genre=blues|Delta blues; @birth_year=1911
Chuck Berry :: born_in=St. Louis; instrument=guitar; genre=rock and roll; signed_to=Chess Records; @birth_year=1926
Etta James :: born_in=Los Angeles; instrument=vocals; genre=blues|soul|rhythm and blues; signed_to=Chess Records; @birth_year=1938
Elvis Presley :: born_in=Tupelo; instrument=guitar; genre=rock and roll|rockabilly; signed_to=Sun Records|RCA Victor; @birth_year=1935; aka=Elvis|The King of Rock and Roll|The King
Lisa Marie Presley :: born_in=Memphis; instrument=vocals; genre=rock|pop; parent=Elvis Presley|Priscilla Presley; @birth_year=1968
Johnny Cash :: born_in=Kingsland; instrument=guitar; genre=country|rockabilly; signed_to=Sun Records|Columbia Records; @birth_year=1932; aka=The Man in Black
June Carter Cash :: born_in=Maces Spring; instrument=autoharp; genre=country; member_of=Carter Family; @birth_year=1929; aka=June Carter
Dolly Parton :: born_in=Sevierville; instrument=guitar; genre=country; signed_to=RCA Victor; @birth_year=1946
Willie Nelson :: born_in=Abbott; instrument=guitar; genre=country|outlaw country; signed_to=Columbia Records; @birth_year=1933
Aretha Franklin :: born_in=Memphis; instrument=piano; genre=soul|gospel; signed_to=Columbia Records|Atlantic Records; @birth_year=1942; aka=Queen of Soul
Otis Redding :: born_in=Dawson; instrument=vocals; genre=soul; signed_to=Stax Records; @birth_year=1941
Ray Charles :: born_in=Albany, Georgia; instrument=piano; genre=soul|rhythm and blues; signed_to=Atlantic Records; @birth_year=1930; aka=The Genius
James Brown :: born_in=Barnwell; instrument=vocals; genre=funk|soul; signed_to=King Records; @birth_year=1933; aka=Godfather of Soul|Mr. Dynamite
Stevie Wonder :: born_in=Saginaw; instrument=piano|harmonica; genre=soul|funk; signed_to=Motown; @birth_year=1950; aka=Little Stevie Wonder
Marvin Gaye :: born_in=Washington, D.C.; instrument=vocals; genre=soul; signed_to=Motown; @birth_year=1939; aka=Prince of Motown
Diana Ross :: born_in=Detroit; instrument=vocals; genre=soul|pop; signed_to=Motown; member_of=The Supremes; @birth_year=1944
Smokey Robinson :: born_in=Detroit; instrument=vocals; genre=soul; signed_to=Motown; member_of=The Miracles; @birth_year=1940
Michael Jackson :: born_in=Gary; instrument=vocals; genre=pop|soul|funk; signed_to=Motown|Epic Records; member_of=The Jackson 5; sibling=Janet Jackson; @birth_year=1958; aka=King of Pop|MJ
Janet Jackson :: born_in=Gary; instrument=vocals; genre=pop|rhythm and blues; sibling=Michael Jackson; @birth_year=1966
Prince :: born_in=Minneapolis; instrument=guitar|keyboards; genre=funk|pop|rock; signed_to=Warner Bros. Records|Paisley Park Records; @birth_year=1958; aka=Prince Rogers Nelson|The Artist Formerly Known as Prince
Bob Dylan :: born_in=Duluth; instrument=guitar|harmonica; genre=folk|rock|folk rock; signed_to=Columbia Records; educated_at=University of Minnesota; @birth_year=1941; aka=Robert Zimmerman
Joni Mitchell :: born_in=Fort Macleod; instrument=guitar|piano; genre=folk; signed_to=Reprise Records; @birth_year=1943
Leonard Cohen :: born_in=Montreal; instrument=guitar; genre=folk; signed_to=Columbia Records; educated_at=McGill University; @birth_year=1934
Neil Young :: born_in=Toronto; instrument=guitar; genre=rock|folk rock; signed_to=Reprise Records; member_of=Buffalo Springfield|Crosby, Stills, Nash & Young; @birth_year=1945
Céline Dion :: born_in=Charlemagne; instrument=vocals; genre=pop; signed_to=Epic Records; @birth_year=1968; aka=Celine Dion
Shania Twain :: born_in=Windsor, Ontario; instrument=guitar; genre=country pop; signed_to=Mercury Records; @birth_year=1965
Frank Sinatra :: born_in=Hoboken; instrument=vocals; genre=traditional pop|jazz|swing; signed_to=Columbia Records|Capitol Records|Reprise Records; @birth_year=1915; aka=Ol' Blue Eyes|The Chairman of the Board
Beyoncé :: born_in=Houston; instrument=vocals; genre=pop|rhythm and blues; signed_to=Columbia Records; member_of=Destiny's Child; sibling=Solange Knowles; @birth_year=1981; aka=Beyonce|Beyoncé Knowles|Beyonce Knowles|Queen Bey
Solange Knowles :: born_in=Houston; instrument=vocals; genre=rhythm and blues|soul; sibling=Beyoncé; @birth_year=1986; aka=Solange
Kelly Rowland :: born_in=Atlanta; instrument=vocals; genre=rhythm and blues; member_of=Destiny's Child; @birth_year=1981
Michelle Williams (singer) :: name=Michelle Williams; born_in=Rockford; instrument=vocals; genre=gospel|rhythm and blues; member_of=Destiny's Child; @birth_year=1979
Jay-Z :: born_in=New York City; instrument=vocals; genre=hip hop; signed_to=Roc-A-Fella Records|Def Jam Recordings; @birth_year=1969; aka=Shawn Carter|Jay Z|Hov|Hova
Eminem :: born_in=St. Joseph; instrument=vocals; genre=hip hop; signed_to=Aftermath Entertainment; @birth_year=1972; aka=Marshall Mathers|Slim Shady
Bob Marley :: born_in=Nine Mile; instrument=guitar; genre=reggae; signed_to=Island Records; member_of=Bob Marley and the Wailers; @birth_year=1945; aka=Tuff Gong|Robert Nesta Marley
Rita Marley :: born_in=Santiago de Cuba; instrument=vocals; genre=reggae; @birth_year=1946
Celia Cruz :: born_in=Havana; instrument=vocals; genre=salsa|son cubano; signed_to=Fania Records; member_of=La Sonora Matancera; @birth_year=1925; aka=Queen of Salsa|La Reina de la Salsa
Pedro Knight :: born_in=Matanzas; instrument=trumpet; genre=son cubano; member_of=La Sonora Matancera; @birth_year=1921
Tito Puente :: born_in=New York City; instrument=timbales; genre=mambo|Latin jazz|salsa; @birth_year=1923; aka=The King of Latin Music|El Rey de los Timbales
Antônio Carlos Jobim :: born_in=Rio de Janeiro; instrument=piano|guitar; genre=bossa nova; @birth_year=1927; aka=Tom Jobim|Antonio Carlos Jobim
João Gilberto :: born_in=Juazeiro; instrument=guitar; genre=bossa nova; @birth_year=1931; aka=Joao Gilberto
Astrud Gilberto :: born_in=Salvador, Bahia; instrument=vocals; genre=bossa nova; signed_to=Verve Records; @birth_year=1940
Caetano Veloso :: born_in=Santo Amaro; instrument=guitar; genre=tropicália|MPB; @birth_year=1942; aka=Caetano
Gilberto Gil :: born_in=Salvador, Bahia; instrument=guitar; genre=tropicália|MPB; @birth_year=1942
Fela Kuti :: born_in=Abeokuta; instrument=saxophone|keyboards; genre=Afrobeat; @birth_year=1938; aka=Fela|Fela Anikulapo Kuti
Miriam Makeba :: born_in=Johannesburg; instrument=vocals; genre=world music|jazz; @birth_year=1932; aka=Mama Africa
Hugh Masekela :: born_in=Witbank; instrument=trumpet; genre=jazz; @birth_year=1939
Ravi Shankar :: born_in=Varanasi; instrument=sitar; genre=Hindustani classical music; @birth_year=1920
A. R. Rahman :: born_in=Chennai; instrument=keyboards|piano; genre=film score; @birth_year=1967; aka=AR Rahman|A.R. Rahman|Allah Rakha Rahman|Mozart of Madras
Ryuichi Sakamoto :: born_in=Tokyo; instrument=piano|keyboards; genre=electronic music|synth-pop|film score; member_of=Yellow Magic Orchestra; educated_at=Tokyo University of the Arts; @birth_year=1952; aka=Ryūichi Sakamoto
PSY :: born_in=Seoul; instrument=vocals; genre=K-pop; educated_at=Berklee College of Music; @birth_year=1977; aka=Psy|Park Jae-sang
Édith Piaf :: born_in=Paris; instrument=vocals; genre=chanson; @birth_year=1915; aka=Edith Piaf|La Môme Piaf|The Little Sparrow
Jacques Pills :: instrument=vocals; genre=chanson; @birth_year=1906
Théo Sarapo :: born_in=Paris; instrument=vocals; genre=chanson; @birth_year=1936; aka=Theo Sarapo
Ralf Hütter :: born_in=Krefeld; instrument=keyboards; genre=electronic music; member_of=Kraftwerk; @birth_year=1946; aka=Ralf Hutter
Björk :: born_in=Reykjavík; instrument=vocals; genre=art pop|electronic music; signed_to=One Little Indian Records; member_of=The Sugarcubes; @birth_year=1965; aka=Bjork|Björk Guðmundsdóttir|Bjork Gudmundsdottir
Jónsi :: born_in=Reykjavík; instrument=guitar; genre=post-rock; member_of=Sigur Rós; @birth_year=1975; aka=Jonsi|Jón Þór Birgisson
Agnetha Fältskog :: born_in=Jönköping; instrument=vocals; genre=pop; member_of=ABBA; @birth_year=1950; aka=Agnetha Faltskog|Agnetha
Björn Ulvaeus :: born_in=Gothenburg; instrument=guitar; genre=pop; member_of=ABBA; @birth_year=1945; aka=Bjorn Ulvaeus
Benny Andersson :: born_in=Stockholm; instrument=keyboards|piano; genre=pop; member_of=ABBA; @birth_year=1946
Anni-Frid Lyngstad :: born_in=Ballangen; instrument=vocals; genre=pop; member_of=ABBA; @birth_year=1945; aka=Frida
John Lennon :: born_in=Liverpool; instrument=guitar; genre=rock|pop; member_of=The Beatles; @birth_year=1940
Paul McCartney :: born_in=Liverpool; instrument=bass guitar|piano; genre=rock|pop; member_of=The Beatles|Wings; @birth_year=1942; aka=Sir Paul McCartney
George Harrison :: born_in=Liverpool; instrument=guitar|sitar; genre=rock; member_of=The Beatles; @birth_year=1943
Ringo Starr :: born_in=Liverpool; instrument=drums; genre=rock; member_of=The Beatles; @birth_year=1940; aka=Richard Starkey
Linda McCartney :: born_in=New York City; instrument=keyboards; genre=rock; member_of=Wings; @birth_year=1941
Yoko Ono :: born_in=Tokyo; instrument=vocals; genre=experimental music; @birth_year=1933
Freddie Mercury :: born_in=Stone Town; instrument=piano; genre=rock; member_of=Queen; @birth_year=1946; aka=Farrokh Bulsara
Brian May :: born_in=London; instrument=guitar; genre=rock; member_of=Queen; educated_at=Imperial College London; @birth_year=1947
David Bowie :: born_in=London; instrument=guitar; genre=rock|art pop; signed_to=RCA Victor; @birth_year=1947; aka=David Robert Jones|Ziggy Stardust
Amy Winehouse :: born_in=London; instrument=vocals; genre=soul|jazz; signed_to=Island Records; educated_at=BRIT School; @birth_year=1983
Adele :: born_in=London; instrument=vocals; genre=pop|soul; signed_to=XL Recordings; educated_at=BRIT School; @birth_year=1988; aka=Adele Adkins
Elton John :: born_in=London; instrument=piano; genre=pop|rock; educated_at=Royal Academy of Music; @birth_year=1947; aka=Reginald Dwight|Sir Elton John
Liam Gallagher :: born_in=Manchester; instrument=vocals; genre=Britpop; member_of=Oasis; sibling=Noel Gallagher; @birth_year=1972
Noel Gallagher :: born_in=Manchester; instrument=guitar; genre=Britpop; member_of=Oasis; sibling=Liam Gallagher; @birth_year=1967
Bono :: born_in=Dublin; instrument=vocals; genre=rock; member_of=U2; @birth_year=1960; aka=Paul Hewson
Dolores O'Riordan :: born_in=Limerick; instrument=guitar; genre=alternative rock; member_of=The Cranberries; @birth_year=1971
Enya :: born_in=Gweedore; instrument=keyboards; genre=new age; member_of=Clannad; @birth_year=1961; aka=Eithne Ní Bhraonáin
Shakira :: born_in=Barranquilla; instrument=vocals; genre=pop|Latin pop; signed_to=Epic Records; @birth_year=1977; aka=Shakira Isabel Mebarak Ripoll
Carlos Santana :: born_in=Autlán de Navarro; instrument=guitar; genre=Latin rock; member_of=Santana; @birth_year=1947
Amália Rodrigues :: born_in=Lisbon; instrument=vocals; genre=fado; @birth_year=1920; aka=Amalia Rodrigues|Queen of Fado
Paul Simon :: born_in=Newark; instrument=guitar; genre=folk rock; member_of=Simon & Garfunkel; @birth_year=1941
Art Garfunkel :: born_in=New York City; instrument=vocals; genre=folk rock; member_of=Simon & Garfunkel; educated_at=Columbia University; @birth_year=1941
Edie Brickell :: born_in=Dallas; instrument=guitar; genre=folk rock; @birth_year=1966

[Person,Composer]
Wolfgang Amadeus Mozart :: born_in=Salzburg; instrument=piano|violin; genre=classical music; @birth_year=1756; aka=Mozart|W. A. Mozart
Ludwig van Beethoven :: born_in=Bonn; instrument=piano; genre=classical music|Romantic music; @birth_year=1770; aka=Beethoven
Johann Sebastian Bach :: born_in=Eisenach; instrument=organ|harpsichord; genre=Baroque music; @birth_year=1685; aka=J. S. Bach|Bach
Frédéric Chopin :: born_in=Żelazowa Wola; instrument=piano; genre=Romantic music; @birth_year=1810; aka=Frederic Chopin|Chopin|Fryderyk Chopin
Antonín Dvořák :: born_in=Nelahozeves; instrument=violin; genre=Romantic music; @birth_year=1841; aka=Antonin Dvorak|Dvořák
Pyotr Ilyich Tchaikovsky :: born_in=Votkinsk; instrument=piano; genre=Romantic music; educated_at=Saint Petersburg Conservatory; @birth_year=1840; aka=Tchaikovsky|Peter Ilyich Tchaikovsky
Edvard Grieg :: born_in=Bergen; instrument=piano; genre=Romantic music; educated_at=Leipzig Conservatory; @birth_year=1843; aka=Grieg
Jean Sibelius :: born_in=Hämeenlinna; instrument=violin; genre=Romantic music; @birth_year=1865; aka=Sibelius
Clara Schumann :: born_in=Leipzig; instrument=piano; genre=Romantic music; @birth_year=1819
Robert Schumann :: born_in=Zwickau; instrument=piano; genre=Romantic music; @birth_year=1810
"""

# --------------------------------------------------------------------------- film

FILM_PEOPLE = """
[Person,FilmDirector]
Michael Curtiz :: born_in=Budapest; @birth_year=1886
Martin Scorsese :: born_in=New York City; educated_at=New York University; @birth_year=1942
Francis Ford Coppola :: born_in=Detroit; educated_at=University of California, Los Angeles; @birth_year=1939
Sofia Coppola :: born_in=New York City; parent=Francis Ford Coppola; @birth_year=1971
Woody Allen :: born_in=New York City; @birth_year=1935; aka=Allan Stewart Konigsberg
Jean-Pierre Jeunet :: born_in=Roanne; @birth_year=1953
Brad Bird :: born_in=Kalispell; educated_at=California Institute of the Arts; @birth_year=1957
William Wyler :: born_in=Mulhouse; @birth_year=1902
Federico Fellini :: born_in=Rimini; @birth_year=1920
Carol Reed :: born_in=London; @birth_year=1906
Richard Linklater :: born_in=Houston; @birth_year=1960
Miloš Forman :: born_in=Čáslav; @birth_year=1932; aka=Milos Forman
Yasujirō Ozu :: born_in=Tokyo; @birth_year=1903; aka=Yasujiro Ozu
Akira Kurosawa :: born_in=Tokyo; @birth_year=1910
Hayao Miyazaki :: born_in=Tokyo; @birth_year=1941
Isao Takahata :: @birth_year=1935
Bong Joon-ho :: born_in=Daegu; educated_at=Yonsei University; @birth_year=1969; aka=Bong Joon Ho
Fernando Meirelles :: born_in=São Paulo; educated_at=University of São Paulo; @birth_year=1955
Danny Boyle :: @birth_year=1956
John Landis :: born_in=Chicago; @birth_year=1950
Joel Coen :: born_in=St. Louis Park; educated_at=New York University; sibling=Ethan Coen; @birth_year=1954
Ethan Coen :: born_in=St. Louis Park; educated_at=Princeton University; sibling=Joel Coen; @birth_year=1957
Elia Kazan :: born_in=Istanbul; educated_at=Yale University; @birth_year=1909
David Fincher :: born_in=Denver; @birth_year=1962
Taylor Hackford :: born_in=Santa Barbara; @birth_year=1944
James Mangold :: born_in=New York City; educated_at=Columbia University; @birth_year=1963
Bryan Singer :: born_in=New York City; @birth_year=1965
Olivier Dahan :: born_in=La Ciotat; @birth_year=1967
Baz Luhrmann :: born_in=Sydney; @birth_year=1962
Clint Eastwood :: born_in=San Francisco; @birth_year=1930
Damien Chazelle :: born_in=Providence; educated_at=Harvard University; @birth_year=1985
Alfonso Cuarón :: born_in=Mexico City; educated_at=National Autonomous University of Mexico; @birth_year=1961; aka=Alfonso Cuaron
Guillermo del Toro :: born_in=Guadalajara; @birth_year=1964
Lee Unkrich :: born_in=Cleveland; @birth_year=1967
Wim Wenders :: born_in=Düsseldorf; @birth_year=1945
Tom Tykwer :: born_in=Wuppertal; @birth_year=1965
Wolfgang Becker :: born_in=Hemer; @birth_year=1954
Florian Henckel von Donnersmarck :: born_in=Cologne; educated_at=University of Oxford; @birth_year=1973
Giuseppe Tornatore :: born_in=Bagheria; @birth_year=1956
Ang Lee :: born_in=Pingtung; educated_at=New York University; @birth_year=1954
Wong Kar-wai :: born_in=Shanghai; @birth_year=1958; aka=Wong Kar Wai
Ingmar Bergman :: born_in=Uppsala; @birth_year=1918
John G. Avildsen :: born_in=Oak Park; @birth_year=1935
Jonathan Demme :: @birth_year=1944
Nora Ephron :: born_in=New York City; @birth_year=1941
Robert Altman :: born_in=Kansas City, Missouri; @birth_year=1925
Ava DuVernay :: born_in=Long Beach; educated_at=University of California, Los Angeles; @birth_year=1972
Curtis Hanson :: born_in=Reno; @birth_year=1945
Spike Lee :: born_in=Atlanta; educated_at=New York University|Morehouse College; @birth_year=1957

[Person,Actor]
Humphrey Bogart :: born_in=New York City; @birth_year=1899; aka=Bogie
Ingrid Bergman :: born_in=Stockholm; @birth_year=1915
Lauren Bacall :: born_in=New York City; @birth_year=1924
Audrey Hepburn :: born_in=Brussels; @birth_year=1929
Robert De Niro :: born_in=New York City; @birth_year=1943; aka=Bobby De Niro
Al Pacino :: born_in=New York City; @birth_year=1940
Marlon Brando :: born_in=Omaha; @birth_year=1924
Song Kang-ho :: born_in=Gimhae; @birth_year=1967
Hugh Grant :: born_in=London; educated_at=University of Oxford; @birth_year=1960
Frances McDormand :: @birth_year=1957
Brad Pitt :: born_in=Shawnee; @birth_year=1963
Angelina Jolie :: born_in=Los Angeles; @birth_year=1975
Jamie Foxx :: born_in=Terrell; @birth_year=1967
Joaquin Phoenix :: born_in=San Juan; @birth_year=1974
Reese Witherspoon :: born_in=New Orleans; @birth_year=1976
Rami Malek :: born_in=Los Angeles; @birth_year=1981
Marion Cotillard :: born_in=Paris; @birth_year=1975
Austin Butler :: born_in=Anaheim; @birth_year=1991
Forest Whitaker :: born_in=Longview; @birth_year=1961
Tom Hanks :: born_in=Concord, California; @birth_year=1956
Rita Wilson :: born_in=Los Angeles; @birth_year=1956
Tony Leung Chiu-wai :: born_in=Hong Kong; @birth_year=1962; aka=Tony Leung
Daniel Brühl :: born_in=Barcelona; @birth_year=1978; aka=Daniel Bruhl
Cicely Tyson :: born_in=New York City; @birth_year=1924
Carrie Fisher :: born_in=Beverly Hills; @birth_year=1956
Mia Farrow :: born_in=Los Angeles; @birth_year=1945
Ava Gardner :: @birth_year=1922
Priscilla Presley :: born_in=New York City; @birth_year=1945
Barbara Bach :: born_in=New York City; @birth_year=1947
Michelle Williams (actress) :: name=Michelle Williams; born_in=Kalispell; @birth_year=1980

[Person]
Lucille Wilson :: @birth_year=1914; aka=Lucille Armstrong
Frances Taylor :: @birth_year=1929; aka=Frances Davis
Vivian Liberto :: born_in=San Antonio; @birth_year=1934; aka=Vivian Cash
Carl Dean :: born_in=Nashville; @birth_year=1942
Nancy Barbato :: @birth_year=1917
Barbara Marx :: @birth_year=1927; aka=Barbara Sinatra
Cynthia Lennon :: @birth_year=1939; aka=Cynthia Powell
Pattie Boyd :: @birth_year=1944
Iman :: born_in=Mogadishu; @birth_year=1955; aka=Iman Abdulmajid
David Furnish :: born_in=Toronto; @birth_year=1962
René Angélil :: born_in=Montreal; @birth_year=1942; aka=Rene Angelil
Martin Luther King Jr. :: born_in=Atlanta; educated_at=Morehouse College; @birth_year=1929; aka=MLK|Martin Luther King
"""

FILMS = """
[Film]
Casablanca (film) :: name=Casablanca; directed_by=Michael Curtiz; genre=romance film|drama; set_in=Casablanca; starring=Humphrey Bogart|Ingrid Bergman; @release_year=1942
Taxi Driver :: directed_by=Martin Scorsese; genre=crime film|drama; set_in=New York City; starring=Robert De Niro; @release_year=1976
Goodfellas :: directed_by=Martin Scorsese; genre=crime film; set_in=New York City; starring=Robert De Niro; @release_year=1990; aka=GoodFellas
The Godfather :: directed_by=Francis Ford Coppola; genre=crime film|drama; set_in=New York City; starring=Marlon Brando|Al Pacino; @release_year=1972; aka=Godfather
Manhattan (film) :: name=Manhattan; directed_by=Woody Allen; genre=romantic comedy; set_in=New York City; starring=Woody Allen; @release_year=1979
Annie Hall :: directed_by=Woody Allen; genre=romantic comedy; set_in=New York City; starring=Woody Allen; @release_year=1977
Midnight in Paris :: directed_by=Woody Allen; genre=fantasy|romantic comedy; set_in=Paris; @release_year=2011
Amélie :: directed_by=Jean-Pierre Jeunet; genre=romantic comedy; set_in=Paris; @release_year=2001; aka=Amelie|Le Fabuleux Destin d'Amélie Poulain
Ratatouille :: directed_by=Brad Bird; genre=animation; set_in=Paris; produced_by=Pixar; @release_year=2007
Roman Holiday :: directed_by=William Wyler; genre=romantic comedy; set_in=Rome; starring=Audrey Hepburn; @release_year=1953
La Dolce Vita :: directed_by=Federico Fellini; genre=drama; set_in=Rome; @release_year=1960; aka=The Sweet Life
The Third Man :: directed_by=Carol Reed; genre=film noir; set_in=Vienna; @release_year=1949
Before Sunrise :: directed_by=Richard Linklater; genre=romance film|drama; set_in=Vienna; @release_year=1995
Amadeus :: directed_by=Miloš Forman; genre=biographical film|drama; set_in=Vienna; about=Wolfgang Amadeus Mozart; @release_year=1984
Lost in Translation :: directed_by=Sofia Coppola; genre=drama; set_in=Tokyo; @release_year=2003
Tokyo Story :: directed_by=Yasujirō Ozu; genre=drama; set_in=Tokyo; @release_year=1953; aka=Tōkyō Monogatari
Seven Samurai :: directed_by=Akira Kurosawa; genre=action film|drama; set_in=Japan; @release_year=1954; aka=Shichinin no Samurai
Spirited Away :: directed_by=Hayao Miyazaki; genre=animation|fantasy; produced_by=Studio Ghibli; @release_year=2001; aka=Sen to Chihiro no Kamikakushi
My Neighbor Totoro :: directed_by=Hayao Miyazaki; genre=animation|fantasy; set_in=Japan; produced_by=Studio Ghibli; @release_year=1988; aka=Tonari no Totoro
Parasite :: directed_by=Bong Joon-ho; genre=thriller|drama; set_in=Seoul; starring=Song Kang-ho; @release_year=2019; aka=Gisaengchung
City of God :: directed_by=Fernando Meirelles; genre=crime film|drama; set_in=Rio de Janeiro; @release_year=2002; aka=Cidade de Deus
Slumdog Millionaire :: directed_by=Danny Boyle; genre=drama|romance film; set_in=Mumbai; @release_year=2008
Notting Hill :: genre=romantic comedy; set_in=London; starring=Hugh Grant; @release_year=1999
The Blues Brothers :: directed_by=John Landis; genre=musical|comedy; set_in=Chicago; starring=Aretha Franklin|Ray Charles|James Brown; @release_year=1980
Fargo :: directed_by=Joel Coen|Ethan Coen; genre=crime film|comedy; set_in=Minnesota; starring=Frances McDormand; @release_year=1996
A Streetcar Named Desire :: directed_by=Elia Kazan; genre=drama; set_in=New Orleans; starring=Marlon Brando; @release_year=1951
The Curious Case of Benjamin Button :: directed_by=David Fincher; genre=fantasy|drama; set_in=New Orleans; starring=Brad Pitt; @release_year=2008; aka=Benjamin Button
Ray :: directed_by=Taylor Hackford; genre=biographical film|drama; about=Ray Charles; starring=Jamie Foxx; @release_year=2004
Walk the Line :: directed_by=James Mangold; genre=biographical film|drama; about=Johnny Cash; starring=Joaquin Phoenix|Reese Witherspoon; @release_year=2005
Bohemian Rhapsody :: directed_by=Bryan Singer; genre=biographical film; set_in=London; about=Freddie Mercury|Queen; starring=Rami Malek; @release_year=2018
La Vie en Rose :: directed_by=Olivier Dahan; genre=biographical film|drama; set_in=Paris; about=Édith Piaf; starring=Marion Cotillard; @release_year=2007; aka=La Môme
Elvis (film) :: name=Elvis; directed_by=Baz Luhrmann; genre=biographical film; set_in=Memphis; about=Elvis Presley; starring=Austin Butler; @release_year=2022
Bird (film) :: name=Bird; directed_by=Clint Eastwood; genre=biographical film; about=Charlie Parker; starring=Forest Whitaker; @release_year=1988
Whiplash :: directed_by=Damien Chazelle; genre=drama; set_in=New York City; @release_year=2014
La La Land :: directed_by=Damien Chazelle; genre=musical|romance film; set_in=Los Angeles; @release_year=2016
Roma (film) :: name=Roma; directed_by=Alfonso Cuarón; genre=drama; set_in=Mexico City; @release_year=2018
Pan's Labyrinth :: directed_by=Guillermo del Toro; genre=fantasy; set_in=Spain; @release_year=2006; aka=El laberinto del fauno
Coco :: directed_by=Lee Unkrich; genre=animation|fantasy; set_in=Mexico; produced_by=Pixar; @release_year=2017
Wings of Desire :: directed_by=Wim Wenders; genre=fantasy|drama; set_in=Berlin; @release_year=1987; aka=Der Himmel über Berlin
"Paris, Texas (film)" :: name=Paris, Texas; directed_by=Wim Wenders; genre=drama; set_in=Texas; @release_year=1984
Run Lola Run :: directed_by=Tom Tykwer; genre=thriller; set_in=Berlin; @release_year=1998; aka=Lola rennt
Good Bye, Lenin! :: directed_by=Wolfgang Becker; genre=comedy|drama; set_in=Berlin; starring=Daniel Brühl; @release_year=2003; aka=Good Bye Lenin
The Lives of Others :: directed_by=Florian Henckel von Donnersmarck; genre=drama|thriller; set_in=Berlin; @release_year=2006; aka=Das Leben der Anderen
Cinema Paradiso :: directed_by=Giuseppe Tornatore; genre=drama; set_in=Sicily; @release_year=1988; aka=Nuovo Cinema Paradiso
"Crouching Tiger, Hidden Dragon" :: directed_by=Ang Lee; genre=wuxia; set_in=China; @release_year=2000
In the Mood for Love :: directed_by=Wong Kar-wai; genre=romance film|drama; set_in=Hong Kong; starring=Tony Leung Chiu-wai; @release_year=2000
Chungking Express :: directed_by=Wong Kar-wai; genre=romance film|comedy; set_in=Hong Kong; starring=Tony Leung Chiu-wai; @release_year=1994
The Seventh Seal :: directed_by=Ingmar Bergman; genre=drama|fantasy; set_in=Sweden; @release_year=1957; aka=Det sjunde inseglet
Rocky :: directed_by=John G. Avildsen; genre=sports film; set_in=Philadelphia; @release_year=1976
Philadelphia (film) :: name=Philadelphia; directed_by=Jonathan Demme; genre=drama; set_in=Philadelphia; starring=Tom Hanks; @release_year=1993
Sleepless in Seattle :: directed_by=Nora Ephron; genre=romantic comedy; set_in=Seattle; starring=Tom Hanks; @release_year=1993
Nashville (film) :: name=Nashville; directed_by=Robert Altman; genre=musical|drama; set_in=Nashville; @release_year=1975
Selma (film) :: name=Selma; directed_by=Ava DuVernay; genre=biographical film|drama; set_in=Selma; about=Martin Luther King Jr.; @release_year=2014
8 Mile :: directed_by=Curtis Hanson; genre=drama|musical; set_in=Detroit; starring=Eminem; @release_year=2002; aka=Eight Mile
Do the Right Thing :: directed_by=Spike Lee; genre=drama|comedy; set_in=New York City; starring=Spike Lee; @release_year=1989
"""

# --------------------------------------------------------------------------- business, education

COMPANIES = """
[Company]
IBM :: founded_by=Charles Ranlett Flint; headquartered_in=Armonk; industry=information technology; @founded=1911; aka=International Business Machines|Big Blue|IBM Corporation
Apple Inc. :: founded_by=Steve Jobs|Steve Wozniak|Ronald Wayne; headquartered_in=Cupertino; industry=consumer electronics|software; @founded=1976; aka=Apple|Apple Computer
Microsoft :: founded_by=Bill Gates|Paul Allen; headquartered_in=Redmond; industry=software; @founded=1975; aka=Microsoft Corporation|MSFT
Google :: founded_by=Larry Page|Sergey Brin; headquartered_in=Mountain View; industry=internet; parent_company=Alphabet Inc.; @founded=1998; aka=Google LLC
Alphabet Inc. :: founded_by=Larry Page|Sergey Brin; headquartered_in=Mountain View; industry=internet; @founded=2015; aka=Alphabet
Amazon :: founded_by=Jeff Bezos; headquartered_in=Seattle; industry=e-commerce|cloud computing; @founded=1994; aka=Amazon.com|Amazon.com, Inc.
Meta Platforms :: founded_by=Mark Zuckerberg|Eduardo Saverin; headquartered_in=Menlo Park; industry=social media; @founded=2004; aka=Meta|Facebook|Facebook, Inc.
Netflix :: founded_by=Reed Hastings|Marc Randolph; headquartered_in=Los Gatos; industry=streaming media; @founded=1997
Nintendo :: founded_by=Fusajiro Yamauchi; headquartered_in=Kyoto; industry=video games; @founded=1889
Sony :: founded_by=Masaru Ibuka|Akio Morita; headquartered_in=Tokyo; industry=consumer electronics|entertainment; @founded=1946; aka=Sony Group Corporation|Tokyo Tsushin Kogyo
Toyota Motor Corporation :: founded_by=Kiichiro Toyoda; headquartered_in=Toyota, Aichi; industry=automotive; @founded=1937; aka=Toyota
Samsung :: founded_by=Lee Byung-chul; headquartered_in=Seoul; industry=conglomerate; @founded=1938; aka=Samsung Group
Siemens :: founded_by=Werner von Siemens|Johann Georg Halske; headquartered_in=Munich; industry=conglomerate; @founded=1847; aka=Siemens AG
IKEA :: founded_by=Ingvar Kamprad; founded_in=Älmhult; industry=retail; @founded=1943; aka=Ikea
Spotify :: founded_by=Daniel Ek|Martin Lorentzon; headquartered_in=Stockholm; industry=streaming media; @founded=2006
Lego Group :: founded_by=Ole Kirk Christiansen; headquartered_in=Billund; industry=toys; @founded=1932; aka=LEGO|The Lego Group|Lego
Nestlé :: founded_by=Henri Nestlé; headquartered_in=Vevey; industry=food processing; @founded=1866; aka=Nestle
L'Oréal :: founded_by=Eugène Schueller; headquartered_in=Clichy; industry=cosmetics; @founded=1909; aka=L'Oreal|Loreal
Michelin :: founded_by=André Michelin|Édouard Michelin; headquartered_in=Clermont-Ferrand; industry=tires; @founded=1889
Ferrari :: founded_by=Enzo Ferrari; headquartered_in=Maranello; industry=automotive; @founded=1939
Alibaba Group :: founded_by=Jack Ma; headquartered_in=Hangzhou; industry=e-commerce; @founded=1999; aka=Alibaba
Tencent :: founded_by=Ma Huateng; headquartered_in=Shenzhen; industry=internet|video games; @founded=1998; aka=Tencent Holdings
The Coca-Cola Company :: founded_by=Asa Griggs Candler; headquartered_in=Atlanta; industry=beverages; @founded=1892; aka=Coca-Cola|Coke
The Walt Disney Company :: founded_by=Walt Disney|Roy O. Disney; headquartered_in=Burbank; industry=entertainment; @founded=1923; aka=Disney|Walt Disney Company
Pixar :: founded_by=Edwin Catmull|Alvy Ray Smith|Steve Jobs; headquartered_in=Emeryville; industry=animation studio; parent_company=The Walt Disney Company; @founded=1986; aka=Pixar Animation Studios
Warner Bros. :: founded_by=Harry Warner|Albert Warner|Sam Warner|Jack L. Warner; headquartered_in=Burbank; industry=film industry; @founded=1923; aka=Warner Bros. Pictures|Warner Brothers|WB
Studio Ghibli :: founded_by=Hayao Miyazaki|Isao Takahata|Toshio Suzuki; headquartered_in=Tokyo; industry=animation studio; @founded=1985; aka=Ghibli

[Person,Businessperson]
Charles Ranlett Flint :: @birth_year=1850; aka=Charles R. Flint|Charles Flint
Steve Jobs :: born_in=San Francisco; educated_at=Reed College; @birth_year=1955; aka=Steven Jobs
Steve Wozniak :: born_in=San Jose; educated_at=University of California, Berkeley; @birth_year=1950; aka=Woz
Ronald Wayne :: born_in=Cleveland; @birth_year=1934
Bill Gates :: born_in=Seattle; educated_at=Harvard University; @birth_year=1955; aka=William Henry Gates III
Paul Allen :: born_in=Seattle; educated_at=Washington State University; @birth_year=1953
Larry Page :: born_in=East Lansing; educated_at=Stanford University|University of Michigan; @birth_year=1973
Sergey Brin :: born_in=Moscow; educated_at=Stanford University; @birth_year=1973
Jeff Bezos :: born_in=Albuquerque; educated_at=Princeton University; @birth_year=1964
Mark Zuckerberg :: born_in=White Plains; educated_at=Harvard University; @birth_year=1984; aka=Zuck
Eduardo Saverin :: born_in=São Paulo; educated_at=Harvard University; @birth_year=1982
Reed Hastings :: born_in=Boston; educated_at=Stanford University; @birth_year=1960
Marc Randolph :: @birth_year=1958
Fusajiro Yamauchi :: born_in=Kyoto; @birth_year=1859
Masaru Ibuka :: @birth_year=1908
Akio Morita :: born_in=Nagoya; @birth_year=1921
Kiichiro Toyoda :: @birth_year=1894
Lee Byung-chul :: @birth_year=1910
Werner von Siemens :: @birth_year=1816
Johann Georg Halske :: @birth_year=1814
Ingvar Kamprad :: born_in=Pjätteryd; @birth_year=1926
Daniel Ek :: born_in=Stockholm; @birth_year=1983
Martin Lorentzon :: @birth_year=1969
Ole Kirk Christiansen :: @birth_year=1891
Henri Nestlé :: born_in=Frankfurt; @birth_year=1814; aka=Henri Nestle
Eugène Schueller :: born_in=Paris; @birth_year=1881; aka=Eugene Schueller
André Michelin :: born_in=Paris; sibling=Édouard Michelin; @birth_year=1853; aka=Andre Michelin
Édouard Michelin :: born_in=Clermont-Ferrand; sibling=André Michelin; @birth_year=1859; aka=Edouard Michelin
Enzo Ferrari :: born_in=Modena; @birth_year=1898
Jack Ma :: born_in=Hangzhou; educated_at=Hangzhou Normal University; @birth_year=1964; aka=Ma Yun
Ma Huateng :: born_in=Shantou; educated_at=Shenzhen University; @birth_year=1971; aka=Pony Ma
Asa Griggs Candler :: @birth_year=1851; aka=Asa Candler
Walt Disney :: born_in=Chicago; sibling=Roy O. Disney; @birth_year=1901
Roy O. Disney :: born_in=Chicago; sibling=Walt Disney; @birth_year=1893
Edwin Catmull :: @birth_year=1945; aka=Ed Catmull
Alvy Ray Smith :: @birth_year=1943
Harry Warner :: @birth_year=1881
Albert Warner :: @birth_year=1884
Sam Warner :: @birth_year=1887
Jack L. Warner :: born_in=London, Ontario; @birth_year=1892; aka=Jack Warner
Toshio Suzuki :: @birth_year=1948
Otto K. E. Heinemann :: @birth_year=1877
Alfred Lion :: born_in=Berlin; @birth_year=1908
Max Margulis :: @birth_year=1907
Norman Granz :: born_in=Los Angeles; @birth_year=1918
Creed Taylor :: @birth_year=1929
Ahmet Ertegun :: born_in=Istanbul; @birth_year=1923
Herb Abramson :: @birth_year=1916
Leonard Chess :: sibling=Phil Chess; @birth_year=1917
Phil Chess :: sibling=Leonard Chess; @birth_year=1921
Sam Phillips :: born_in=Florence, Alabama; @birth_year=1923
Jim Stewart :: @birth_year=1930
Estelle Axton :: @birth_year=1918
Berry Gordy :: born_in=Detroit; @birth_year=1929
Johnny Mercer :: born_in=Savannah; @birth_year=1909
Buddy DeSylva :: @birth_year=1895
Glenn Wallichs :: @birth_year=1910
Syd Nathan :: born_in=Cincinnati; @birth_year=1904
Chris Blackwell :: born_in=London; @birth_year=1937
Russell Simmons :: born_in=New York City; @birth_year=1957
Rick Rubin :: @birth_year=1963
Damon Dash :: @birth_year=1971
Kareem Burke :: @birth_year=1974
Tony Wilson :: born_in=Salford; @birth_year=1950; aka=Anthony H. Wilson
Alan Erasmus :: @birth_year=1949
Geoff Travis :: @birth_year=1952
Alan McGee :: born_in=Glasgow; @birth_year=1960
Stig Anderson :: @birth_year=1931
Bengt Bernhag :: @birth_year=1928
Bang Si-hyuk :: born_in=Seoul; @birth_year=1972; aka=Hitman Bang
David Geffen :: born_in=New York City; @birth_year=1943
Elliot Roberts :: @birth_year=1943
Johnny Pacheco :: @birth_year=1935
Jerry Masucci :: @birth_year=1934

[University]
Harvard University :: located_in=Cambridge, Massachusetts; @founded=1636; aka=Harvard
Massachusetts Institute of Technology :: located_in=Cambridge, Massachusetts; @founded=1861; aka=MIT
Stanford University :: located_in=Stanford; @founded=1885; aka=Stanford|Leland Stanford Junior University
Juilliard School :: located_in=New York City; @founded=1905; aka=Juilliard|The Juilliard School
Berklee College of Music :: located_in=Boston; @founded=1945; aka=Berklee
Columbia University :: located_in=New York City; @founded=1754; aka=Columbia University in the City of New York
New York University :: located_in=New York City; @founded=1831; aka=NYU
Princeton University :: located_in=Princeton; @founded=1746; aka=Princeton
"University of California, Berkeley" :: located_in=Berkeley; @founded=1868; aka=UC Berkeley|Berkeley|Cal
"University of California, Los Angeles" :: located_in=Los Angeles; @founded=1919; aka=UCLA
University of Minnesota :: located_in=Minneapolis; @founded=1851; aka=UMN
University of Michigan :: located_in=Ann Arbor; @founded=1817; aka=UMich
Reed College :: located_in=Portland; @founded=1908
McGill University :: located_in=Montreal; @founded=1821; aka=McGill
University of Toronto :: located_in=Toronto; @founded=1827; aka=U of T
University of Oxford :: located_in=Oxford; aka=Oxford University|Oxford
University of Cambridge :: located_in=Cambridge; @founded=1209; aka=Cambridge University
Imperial College London :: located_in=London; @founded=1907; aka=Imperial College|Imperial
Royal Academy of Music :: located_in=London; @founded=1822; aka=RAM
BRIT School :: located_in=London; @founded=1991; aka=The BRIT School|BRIT School for Performing Arts and Technology
University of Paris :: located_in=Paris; aka=Sorbonne|La Sorbonne|Université de Paris
Tokyo University of the Arts :: located_in=Tokyo; @founded=1887; aka=Geidai|Tokyo Geidai
Yonsei University :: located_in=Seoul; @founded=1885; aka=Yonsei
Hangzhou Normal University :: located_in=Hangzhou; @founded=1908
Shenzhen University :: located_in=Shenzhen; @founded=1983
University of North Texas :: located_in=Denton; @founded=1890; aka=UNT
Grinnell College :: located_in=Grinnell; @founded=1846
Washington State University :: located_in=Pullman; @founded=1890; aka=WSU
Yale University :: located_in=New Haven; @founded=1701; aka=Yale
Morehouse College :: located_in=Atlanta; @founded=1867; aka=Morehouse
California Institute of the Arts :: located_in=Santa Clarita; @founded=1961; aka=CalArts
Saint Petersburg Conservatory :: located_in=Saint Petersburg; @founded=1862; aka=St. Petersburg Conservatory
Leipzig Conservatory :: located_in=Leipzig; @founded=1843; aka=University of Music and Theatre Leipzig
National Film School in Łódź :: located_in=Łódź; @founded=1948; aka=Łódź Film School|Lodz Film School
University of São Paulo :: located_in=São Paulo; @founded=1934; aka=USP|Universidade de São Paulo|University of Sao Paulo
National Autonomous University of Mexico :: located_in=Mexico City; @founded=1910; aka=UNAM
"""

# Marriages: CVT-style event nodes; ``to`` is left out while the marriage lasts(ed) until now.
MARRIAGES = """
Louis Armstrong + Lucille Wilson :: @from=1942; @to=1971
Miles Davis + Frances Taylor :: @from=1958; @to=1968
Miles Davis + Cicely Tyson :: @from=1981; @to=1988
John Coltrane + Alice Coltrane :: @from=1965; @to=1967
Ella Fitzgerald + Ray Brown :: @from=1947; @to=1953
Johnny Cash + Vivian Liberto :: @from=1954; @to=1966
Johnny Cash + June Carter Cash :: @from=1968; @to=2003
Elvis Presley + Priscilla Presley :: @from=1967; @to=1973
Michael Jackson + Lisa Marie Presley :: @from=1994; @to=1996
Dolly Parton + Carl Dean :: @from=1966; @to=2025
Beyoncé + Jay-Z :: @from=2008
Frank Sinatra + Nancy Barbato :: @from=1939; @to=1951
Frank Sinatra + Ava Gardner :: @from=1951; @to=1957
Frank Sinatra + Mia Farrow :: @from=1966; @to=1968
Frank Sinatra + Barbara Marx :: @from=1976; @to=1998
Édith Piaf + Jacques Pills :: @from=1952; @to=1957
Édith Piaf + Théo Sarapo :: @from=1962; @to=1963
John Lennon + Cynthia Lennon :: @from=1962; @to=1968
John Lennon + Yoko Ono :: @from=1969; @to=1980
Paul McCartney + Linda McCartney :: @from=1969; @to=1998
George Harrison + Pattie Boyd :: @from=1966; @to=1977
Ringo Starr + Barbara Bach :: @from=1981
David Bowie + Iman :: @from=1992; @to=2016
Elton John + David Furnish :: @from=2014
Céline Dion + René Angélil :: @from=1994; @to=2016
Bob Marley + Rita Marley :: @from=1966; @to=1981
Celia Cruz + Pedro Knight :: @from=1962; @to=2003
João Gilberto + Astrud Gilberto :: @from=1959; @to=1964
Miriam Makeba + Hugh Masekela :: @from=1964; @to=1966
Agnetha Fältskog + Björn Ulvaeus :: @from=1971; @to=1980
Benny Andersson + Anni-Frid Lyngstad :: @from=1978; @to=1981
Clara Schumann + Robert Schumann :: @from=1840; @to=1856
Paul Simon + Carrie Fisher :: @from=1983; @to=1984
Paul Simon + Edie Brickell :: @from=1992
Humphrey Bogart + Lauren Bacall :: @from=1945; @to=1957
Brad Pitt + Angelina Jolie :: @from=2014; @to=2019
Tom Hanks + Rita Wilson :: @from=1988
Joel Coen + Frances McDormand :: @from=1984
"""

# A few edge properties (key: head, relation, tail).
EDGE_PROPERTIES: dict[tuple[str, str, str], dict[str, Any]] = {
    ("Freddie Mercury", "member_of", "Queen"): {"role": "lead vocals", "from": 1970, "to": 1991},
    ("Brian May", "member_of", "Queen"): {"role": "lead guitar", "from": 1970},
    ("John Lennon", "member_of", "The Beatles"): {"role": "rhythm guitar", "from": 1960, "to": 1970},
    ("Ringo Starr", "member_of", "The Beatles"): {"role": "drums", "from": 1962, "to": 1970},
    ("Beyoncé", "member_of", "Destiny's Child"): {"role": "lead vocals", "from": 1990, "to": 2006},
    ("Elvis Presley", "signed_to", "Sun Records"): {"from": 1954, "to": 1955},
    ("Elvis Presley", "signed_to", "RCA Victor"): {"from": 1955, "to": 1977},
    ("Johnny Cash", "signed_to", "Sun Records"): {"from": 1955, "to": 1958},
    ("Aretha Franklin", "signed_to", "Atlantic Records"): {"from": 1967, "to": 1979},
}

# --------------------------------------------------------------------------- questions

# (question, topic entities, relation path, inverted flags or None, answers, kind)
Q = tuple[str, list[str], list[str], list[bool] | None, list[str], str]
QUESTIONS: list[Q] = [
    ("Where was Wynton Marsalis born?", ["Wynton Marsalis"], ["born_in"], None,
     ["New Orleans"], "simple"),
    ("Where was Satchmo born?", ["Louis Armstrong"], ["born_in"], None,
     ["New Orleans"], "alias"),
    ("What instruments does Trombone Shorty play?", ["Troy Andrews"], ["instrument"], None,
     ["trombone", "trumpet"], "alias"),
    ("Which record label is Beyonce signed to?", ["Beyoncé"], ["signed_to"], None,
     ["Columbia Records"], "accent"),
    ("What is the capital of Jamaica?", ["Jamaica"], ["capital"], None, ["Kingston"], "simple"),
    ("What are the official languages of Switzerland?", ["Switzerland"], ["official_language"],
     None, ["German", "French", "Italian", "Romansh"], "simple"),
    ("Where was Agnetha Fältskog born?", ["Agnetha Fältskog"], ["born_in"], None,
     ["Jönköping"], "accent"),
    ("Where was Celine Dion born?", ["Céline Dion"], ["born_in"], None, ["Charlemagne"], "accent"),
    ("Who directed Paris, Texas?", ["Paris, Texas (film)"], ["directed_by"], None,
     ["Wim Wenders"], "disambiguation"),
    ("In which state is the town of Paris, Texas?", ["Paris, Texas"], ["located_in"], None,
     ["Texas"], "disambiguation"),
    ("Which genre is bebop a subgenre of?", ["bebop"], ["subgenre_of"], None, ["jazz"], "simple"),
    ("Which band was Freddie Mercury a member of?", ["Freddie Mercury"], ["member_of"], None,
     ["Queen"], "simple"),
    ("Who founded Hitsville U.S.A.?", ["Motown"], ["founded_by"], None, ["Berry Gordy"], "alias"),
    ("Who founded Studio Ghibli?", ["Studio Ghibli"], ["founded_by"], None,
     ["Hayao Miyazaki", "Isao Takahata", "Toshio Suzuki"], "simple"),
    ("Which record labels did the Queen of Soul sign with?", ["Aretha Franklin"], ["signed_to"],
     None, ["Columbia Records", "Atlantic Records"], "alias"),
    ("Where was Bird born?", ["Charlie Parker"], ["born_in"], None, ["Kansas City, Kansas"],
     "alias"),
    ("Which country's capital is Reykjavík?", ["Reykjavík"], ["capital"], [True], ["Iceland"],
     "simple"),
    ("Who were the members of ABBA?", ["ABBA"], ["member_of"], [True],
     ["Agnetha Fältskog", "Björn Ulvaeus", "Benny Andersson", "Anni-Frid Lyngstad"], "simple"),
    ("Who are the parents of Lisa Marie Presley?", ["Lisa Marie Presley"], ["parent"], None,
     ["Elvis Presley", "Priscilla Presley"], "simple"),
    ("Who is Beyoncé's sister?", ["Beyoncé"], ["sibling"], None, ["Solange Knowles"], "simple"),
    # two hops
    ("Which country is the birthplace of Björk in?", ["Björk"], ["born_in", "located_in"], None,
     ["Iceland"], "multi_hop"),
    ("Who was Johnny Cash married to?", ["Johnny Cash"], ["marriage", "spouse"], None,
     ["Vivian Liberto", "June Carter Cash"], "cvt"),
    ("Who is Beyoncé's spouse?", ["Beyoncé"], ["marriage", "spouse"], None, ["Jay-Z"], "cvt"),
    ("Who were the wives of Frank Sinatra?", ["Frank Sinatra"], ["marriage", "spouse"], None,
     ["Nancy Barbato", "Ava Gardner", "Mia Farrow", "Barbara Marx"], "cvt"),
    ("Who was Edith Piaf married to?", ["Édith Piaf"], ["marriage", "spouse"], None,
     ["Jacques Pills", "Théo Sarapo"], "cvt"),
    ("In which state is Big Blue headquartered?", ["IBM"], ["headquartered_in", "located_in"],
     None, ["New York"], "alias"),
    ("Where was the director of Amélie born?", ["Amélie"], ["directed_by", "born_in"], None,
     ["Roanne"], "multi_hop"),
    ("Which university did the founder of Amazon attend?", ["Amazon"],
     ["founded_by", "educated_at"], None, ["Princeton University"], "multi_hop"),
    ("In which city is the school Wynton Marsalis attended?", ["Wynton Marsalis"],
     ["educated_at", "located_in"], None, ["New York City"], "multi_hop"),
    ("In which city is the university Bob Dylan attended?", ["Bob Dylan"],
     ["educated_at", "located_in"], None, ["Minneapolis"], "multi_hop"),
    ("What is the official language of the country where Shakira was born?", ["Shakira"],
     ["born_in", "located_in", "official_language"], None, ["Spanish"], "multi_hop"),
    ("In which country was Chopin born?", ["Frédéric Chopin"], ["born_in", "located_in"], None,
     ["Poland"], "accent"),
    ("Who directed films set in Vienna?", ["Vienna"], ["set_in", "directed_by"], [True, False],
     ["Carol Reed", "Richard Linklater", "Miloš Forman"], "multi_hop"),
    ("Where is the record label of The Beatles headquartered?", ["The Beatles"],
     ["signed_to", "headquartered_in"], None, ["London"], "multi_hop"),
    ("Who founded a record label that Elvis Presley was signed to?", ["Elvis Presley"],
     ["signed_to", "founded_by"], None, ["Sam Phillips"], "multi_hop"),
    ("Which instrument family does the instrument Miles Davis played belong to?",
     ["Miles Davis"], ["instrument", "instrument_family"], None, ["brass instruments"],
     "multi_hop"),
    ("What is the currency of the country whose capital is Bern?", ["Bern"],
     ["capital", "currency"], [True, False], ["Swiss franc"], "multi_hop"),
    ("What industry is the company headquartered in Cupertino in?", ["Cupertino"],
     ["headquartered_in", "industry"], [True, False], ["consumer electronics", "software"],
     "multi_hop"),
    ("Who directed the film about Édith Piaf?", ["Édith Piaf"], ["about", "directed_by"],
     [True, False], ["Olivier Dahan"], "multi_hop"),
    ("Which actor starred in the biopic about Freddie Mercury?", ["Freddie Mercury"],
     ["about", "starring"], [True, False], ["Rami Malek"], "multi_hop"),
    ("Which films did the director born in Düsseldorf make?", ["Düsseldorf"],
     ["born_in", "directed_by"], [True, True], ["Wings of Desire", "Paris, Texas (film)"],
     "multi_hop"),
    ("Which films are set in the Big Apple?", ["New York City"], ["set_in"], [True],
     ["Taxi Driver", "Goodfellas", "The Godfather", "Manhattan (film)", "Annie Hall",
      "Whiplash", "Do the Right Thing"], "alias"),
    ("Where was the subject of the film Ray born?", ["Ray"], ["about", "born_in"], None,
     ["Albany, Georgia"], "multi_hop"),
    ("Who is the parent company of the label that signed Destiny's Child?", ["Destiny's Child"],
     ["signed_to", "parent_company"], None, ["Sony Music Entertainment"], "multi_hop"),
    # three hops
    ("What genre of film is set in the city where Louis Armstrong was born?", ["Louis Armstrong"],
     ["born_in", "set_in", "genre"], [False, True, False], ["drama", "fantasy"], "multi_hop"),
    ("Which currency is used in the country where Björk was born?", ["Björk"],
     ["born_in", "located_in", "currency"], None, ["Icelandic króna"], "multi_hop"),
    ("Which continent is Fela Kuti's birthplace in?", ["Fela Kuti"],
     ["born_in", "located_in", "continent"], None, ["Africa"], "multi_hop"),
    ("In which country was Freddie Mercury born?", ["Freddie Mercury"],
     ["born_in", "located_in", "located_in"], None, ["Tanzania"], "multi_hop"),
    ("Where was the wife of David Bowie born?", ["David Bowie"],
     ["marriage", "spouse", "born_in"], None, ["Mogadishu"], "cvt"),
    ("Who was married to the subject of the film Walk the Line?", ["Walk the Line"],
     ["about", "marriage", "spouse"], None, ["Vivian Liberto", "June Carter Cash"], "cvt"),
    ("In which country was the founder of Atlantic Records born?", ["Atlantic Records"],
     ["founded_by", "born_in", "located_in"], None, ["Turkey"], "multi_hop"),
    ("Which country is the Sorbonne in?", ["University of Paris"],
     ["located_in", "located_in", "located_in"], None, ["France"], "alias"),
    ("In which state were the founders of Microsoft born?", ["Microsoft"],
     ["founded_by", "born_in", "located_in"], None, ["Washington (state)"], "multi_hop"),
]

# --------------------------------------------------------------------------- build


def _split_id(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    return text


def _value(raw: str) -> Any:
    raw = raw.strip()
    return int(raw) if raw.lstrip("-").isdigit() else raw


def _parse(block: str, where: str) -> list[dict[str, Any]]:
    """Parse one block of ``id :: key=value; …`` lines under ``[Label,…]`` headers."""
    labels: list[str] = []
    out: list[dict[str, Any]] = []
    for n, line in enumerate(block.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            labels = [x.strip() for x in line[1:-1].split(",")]
            continue
        head, _, rest = line.partition(" :: ")
        node: dict[str, Any] = {
            "id": _split_id(head),
            "labels": list(labels),
            "aliases": [],
            "properties": {},
            "edges": [],
            "name": None,
        }
        for part in filter(None, (p.strip() for p in rest.split(";"))):
            key, eq, val = part.partition("=")
            if not eq:
                raise ValueError(f"{where} line {n}: {part!r} is not key=value")
            key = key.strip()
            if key == "aka":
                node["aliases"] += [a.strip() for a in val.split("|") if a.strip()]
            elif key == "name":
                node["name"] = val.strip()
            elif key.startswith("@"):
                node["properties"][key[1:]] = _value(val)
            else:
                node["edges"] += [(key, _split_id(t)) for t in val.split("|") if t.strip()]
        if not labels:
            raise ValueError(f"{where} line {n}: node {node['id']!r} has no [Label] section")
        out.append(node)
    return out


def _marriages(block: str) -> tuple[list[dict[str, Any]], list[tuple[str, str, str]]]:
    nodes, triplets = [], []
    rows = [ln.strip() for ln in block.splitlines() if ln.strip() and not ln.startswith("#")]
    for k, line in enumerate(rows, start=1):
        pair, _, rest = line.partition(" :: ")
        a, b = (s.strip() for s in pair.split(" + "))
        mid = f"m.demo_marriage_{k:02d}"
        props = {p.split("=")[0].strip()[1:]: _value(p.split("=")[1]) for p in rest.split(";")}
        nodes.append({"id": mid, "labels": ["Marriage"], "aliases": [], "properties": props,
                      "edges": [], "name": None})
        for person in (a, b):
            triplets.append((person, "marriage", mid))
        for person in (a, b):
            triplets.append((mid, "spouse", person))
    return nodes, triplets


def build_records() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return (node rows, triplet rows), validated: unique ids, every target defined."""
    blocks = {"PLACES": PLACES, "VOCAB": VOCAB, "RECORD_LABELS": RECORD_LABELS, "BANDS": BANDS,
              "MUSICIANS": MUSICIANS, "FILM_PEOPLE": FILM_PEOPLE, "FILMS": FILMS,
              "COMPANIES": COMPANIES}
    nodes: list[dict[str, Any]] = []
    for where, block in blocks.items():
        nodes += _parse(block, where)
    cvt_nodes, cvt_triplets = _marriages(MARRIAGES)
    nodes += cvt_nodes
    by_id: dict[str, dict[str, Any]] = {}
    for n in nodes:
        if n["id"] in by_id:
            raise ValueError(f"node {n['id']!r} is defined twice")
        by_id[n["id"]] = n
    # Eminem acts in 8 Mile: give the musician node the Actor label too.
    by_id["Eminem"]["labels"].append("Actor")
    triplets: list[tuple[str, str, str]] = []
    for n in nodes:
        triplets += [(n["id"], rel, t) for rel, t in n["edges"]]
    triplets += cvt_triplets
    seen: set[tuple[str, str, str]] = set()
    for t in triplets:
        for end in (t[0], t[2]):
            if end not in by_id:
                raise ValueError(f"triplet {t} refers to undefined node {end!r}")
        if t in seen:
            raise ValueError(f"triplet {t} is listed twice")
        seen.add(t)
    for key in EDGE_PROPERTIES:
        if key not in seen:
            raise ValueError(f"edge property for a missing triplet {key}")
    node_rows = []
    for n in nodes:
        row: dict[str, Any] = {"id": n["id"], "name": n["name"] or n["id"], "labels": n["labels"]}
        if n["aliases"]:
            row["aliases"] = n["aliases"]
        if n["properties"]:
            row["properties"] = n["properties"]
        node_rows.append(row)
    triplet_rows = []
    for h, r, t in triplets:
        row = {"head": h, "relation": r, "tail": t}
        if (h, r, t) in EDGE_PROPERTIES:
            row["properties"] = EDGE_PROPERTIES[(h, r, t)]
        triplet_rows.append(row)
    return node_rows, triplet_rows


def question_rows() -> list[dict[str, Any]]:
    rows = []
    for k, (question, topics, path, inverted, answers, kind) in enumerate(QUESTIONS, start=1):
        row: dict[str, Any] = {
            "id": f"demo-{k:03d}",
            "question": question,
            "answers": answers,
            "topic_entities": topics,
            "hops": len(path),
            "relation_path": path,
            "inverted": inverted or [False] * len(path),
            "kind": kind,
        }
        rows.append(row)
    return rows


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def build(out_dir: str | Path = HERE) -> tuple[Path, Path]:
    """Write ``demo_kg.jsonl`` and ``questions.jsonl`` into ``out_dir``; return both paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    node_rows, triplet_rows = build_records()
    graph_path, questions_path = out / "demo_kg.jsonl", out / "questions.jsonl"
    _write_jsonl(graph_path, node_rows + triplet_rows)
    _write_jsonl(questions_path, question_rows())
    return graph_path, questions_path


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    graph_path, questions_path = build(args[0] if args else HERE)
    nodes, triplets = build_records()
    print(f"wrote {graph_path} ({len(nodes)} nodes, {len(triplets)} triplets)")
    print(f"wrote {questions_path} ({len(QUESTIONS)} questions)")


if __name__ == "__main__":
    main()
