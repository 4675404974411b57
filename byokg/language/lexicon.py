"""The English lexicon: every word list that decides what an English word means, as data.

byokg reads the user's questions and the graph's names in English. Whatever it knows about
English *words* (which ones ask a question, which are auxiliaries or prepositions, which ask
for a kind of thing or a count, how a verb forms its participle) lives here and nowhere else;
the code that reads questions and relation names imports these tables.
``tests/core/test_lexicon.py`` parses every module of ``byokg/`` and ``plugins/`` and fails
on a literal word list anywhere else.

Nothing here names a relation, a label or a question template of any graph or benchmark: the
entries are general English (grammar words, morphology, generic nouns for kinds of things).
What a *graph's* words mean comes from its vocabulary (relation verbalisation in
:mod:`byokg.language.relwords`, the profile's vocabulary, a user lexicon) and from the model
of meaning, never from a table here.

Sections: grammar words · question words and what they ask for · answer kinds · arithmetic ·
morphology · relation-name grammar · property-name priors · calibration pairs.
"""

from __future__ import annotations

# --------------------------------------------------------------------------- grammar words

# English function words and question fillers: never content on their own (one list for
# question analysis, spotting and relation scoring)
STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me might more most must my myself no nor not now of off on once one ones only
    or other our ours out over own same shall she should so some such than that the their theirs
    them then there these they this those through to too under until up us very was we were what
    whats when where wheres which while who whom whos whose why will with would yes you your yours
    s may name named called kind type sort many much""".split()
)

# the name index's stop words: function words that never make a name match on their own
# (kept apart from STOPWORDS: "one", "may", "kind", "type" are real names' words)
NAME_STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    out over own same she should so some such than that the their theirs them then there these
    they this those through to too under until up very was we were what when where which while
    who whom whose why will with would you your yours also did does whats wheres whos name named
    called many much""".split()
)

# prepositions a relation name or a question may end a verb phrase with ("directed *by*")
PREPOSITIONS = frozenset({"by", "in", "of", "to", "at", "on", "into", "from", "with", "for",
                          "about", "as", "under", "over", "near", "within", "via", "per"})
# endings of nouns in -s that are no plurals ("class", "bus", "basis")
NON_PLURAL_ENDINGS = ("ss", "us", "is")
# the prepositions that may end a relation's name after its verb (``FLEW_ABOARD``,
# ``NAMED_AFTER``): more than the question reader's, where "look *after*" is one phrasal verb
NAME_PREPOSITIONS = PREPOSITIONS | frozenset({
    "aboard", "after", "against", "among", "around", "before", "behind", "between", "beyond",
    "through", "toward", "towards", "across", "along", "alongside", "upon", "onto", "during",
    "without", "beside"})
# prepositions of place and direction the question reader does not take as words of a
# relation ("the house *behind* X", "the harbours *along* the coast")
PLACE_PREPOSITIONS = frozenset({"aboard", "across", "along", "alongside", "amid", "around",
                                "behind", "beneath", "beside", "beyond", "onto", "throughout",
                                "toward", "towards", "underneath", "upon"})
# auxiliary verbs: they open yes/no questions and carry tense, never a relation's meaning
AUXILIARIES = frozenset({"is", "are", "does", "do", "did", "was", "were", "has", "have", "had"})
# a verb that says only that the subject has the asked-for noun ("what *illness* does X
# *have*": X's illness)
POSSESSION_VERBS = frozenset({"have"})
DO_WORDS = frozenset({"do", "does", "did"})  # "what does Mars orbit": the object is asked for
# words that open a relative clause ("the city *where* X was born", "films *that* …")
CLAUSE_WORDS = frozenset({"where", "that", "which", "who", "whom", "whose", "when"})
# "are"/"were" after a question word ask for a list ("what *are* the films …")
PLURAL_COPULAS = frozenset({"are", "were"})
COPULAS = frozenset({"is", "was", "are", "were"})
# a question word that asks for a possessor: "*whose* pupil was X" (X is the pupil)
POSSESSOR_WORDS = frozenset({"whose"})
SINGULAR_COPULAS = frozenset({"is", "s", "was"})  # "what *is* the …", "what's the …"
ARTICLES = frozenset({"a", "an", "the"})
# words that open a noun phrase: after a noun they mark the noun before them as a verb's
# subject ("which winery *grows its* grapes", "which ship *flies the* flag")
DETERMINERS = ARTICLES | frozenset({"its", "their", "his", "her", "my", "our", "your", "this",
                                    "these", "those"})
# subject pronouns: after "what are" / "what did" the clause's subject, not the asked-for type
# ("what are *they* performing")
SUBJECT_PRONOUNS = frozenset({"i", "you", "he", "she", "it", "we", "they"})
# possessive markers a tokenizer leaves as a word ("X 's other half", "X' s")
POSSESSIVES = frozenset({"s"})
OR_WORDS = frozenset({"or"})  # "a man *or* a woman": the answer is one of the alternatives
RELATIONAL_OF = "of"  # "the *advisor of* X": a relational noun names what X is linked to
HAS = "has"  # a relation read from the end that has the other ("TAIL *has* writer HEAD")
# what a question's mention is written as when a contextual model compares the question with a
# relation chain read as English ("where was X born" against "X born in"): a name-like letter
MENTION_PLACEHOLDER = "X"
# the preposition of a passive's agent: a noun it follows after an article names a class of
# things, not a relation ("the other *movies by* the director of X": the movies are what the
# director made; the relation is the one the agent's noun says)
AGENT_PREPOSITIONS = frozenset({"by"})
# prepositions after a verb that put its doer in their object: "X *trained under* Y" is
# taught by Y, so "who trained X" asks for the tail of ``trained_under``
SUBORDINATE_PREPOSITIONS = frozenset({"under"})

# --------------------------------------------------------------------------- question words

WH_WORDS = frozenset({"which", "what"})  # followed by the asked-for type ("which *films*")
# question words that stand for a preposition's object: "*where* does X play" asks what X
# plays *at* (the answer is governed by the verb's preposition, X is its subject)
ADVERBIAL_WH_WORDS = frozenset({"where"})
WHO_WORDS = frozenset({"who", "whom"})
# verbs whose object takes an infinitive that is the skill or act the verb is about ("who
# *taught* X to fly", "who *inspired* X to write"): the infinitive says no relation of its own
OBJECT_CONTROL_VERBS = frozenset({"teach", "train", "help", "coach", "instruct", "inspire",
                                  "encourage", "show", "mentor", "tutor", "persuade"})
INFINITIVE_MARKER = "to"
# verbs that say when an activity begins or ends; the gerund after them names the activity
# ("when did X *start flying*": X's start, not its flights)
ASPECTUAL_VERBS = frozenset({"start", "begin", "commence", "stop", "cease", "quit", "finish"})
# "which *of* the films", "who *among* the chefs": the noun after the partitive is the
# asked-for type ("which *one* of the films": the pronoun stands for it)
PARTITIVES = frozenset({"of", "among", "amongst"})
PARTITIVE_ONES = frozenset({"one", "ones"})
HOW = "how"
# "how much / long / old …": a measured number is asked for
HOW_MEASURES = frozenset({"much", "long", "old", "big", "large", "tall", "far", "high", "heavy",
                          "deep"})
COUNT_PHRASES = ("how many", "number of")  # a count is asked for
# generic English question-word semantics (never a relation name of any graph): the kind of
# thing a question word asks for, as words a relation or label may carry
QUESTION_WORD_HINTS: dict[str, tuple[str, ...]] = {
    "where": ("place", "location"),
    "when": ("date", "year", "time"),
    "who": ("person", "people"),
    "whom": ("person", "people"),
}
# prepositions that say a relation of their own when they are the question's predicate: a
# thing is *about* its topic ("which films are about X", "what is X about", "which papers
# are about X", "songs about love"); the words are what English calls such a relation on
# any catalogue (a paper's subject, a song's theme, a post's tags, an article's keywords)
PREPOSITION_SENSES: dict[str, tuple[str, ...]] = {
    "about": ("topic", "subject", "theme", "keyword", "tag"),
    "regarding": ("topic", "subject", "theme", "keyword", "tag"),
    "concerning": ("topic", "subject", "theme", "keyword", "tag"),
}
# the kind of answer a question word asks for
QUESTION_WORD_KINDS: dict[str, str] = {"when": "date", "who": "person", "whom": "person",
                                       "whose": "person", "where": "place"}
# imperative openers of a list request ("*List* the products …", "*Which* …")
LIST_WORDS = frozenset({"list", "show", "display", "find", "name", "give", "which", "who",
                        "identify", "retrieve", "get", "return"})
GROUP_WORDS = frozenset({"each", "per", "every"})  # one value per group is asked for

# --------------------------------------------------------------------------- answer kinds

DATE_WORDS = frozenset({"year", "date", "day", "decade", "century", "month"})
PERSON_WORDS = frozenset({"person", "people", "persons", "someone", "somebody"})
PLACE_WORDS = frozenset({"place", "places", "location", "locations"})
# words of a noun's dictionary definition that make it someone ("*someone who* cooks food")
PERSON_GLOSS_WORDS = frozenset({"someone", "somebody", "person", "who", "whose"})
# words of a noun's dictionary definition that make it somewhere ("a building *where* people
# go to eat"): read by ``thesaurus.names_a_place`` for what *where* asks
PLACE_GLOSS_WORDS = frozenset({"where", "place", "building", "buildings", "structure",
                               "facility", "area", "room", "workplace", "airfield", "dwelling",
                               "land", "landmasses", "territory", "region", "location"})
# English nouns that ask for a category of things rather than the things ("what *kind* of
# films", "what *types* are the films …"): the answer classifies what follows them
CATEGORY_NOUNS = frozenset({"kind", "kinds", "type", "types", "sort", "sorts", "category",
                            "categories", "variety", "varieties"})
# generic words for what "when", "where" and "who" ask for, and for a category of things: a
# label or relation carrying one of them names what its ends are
KIND_WORDS: dict[str, tuple[str, ...]] = {
    "date": ("date", "year", "time"),
    "place": ("place", "location"),
    "person": ("person", "people"),
    "category": ("kind", "type", "sort", "category", "class", "genre", "form", "style",
                 "variety"),
}
# words close to "someone who does things" besides people: agents a *who* question may mean
AGENT_KIND_WORDS = ("person", "people", "organization", "group")
# English words that ask for things sharing something with the question's entity ("the same
# director as", "co-starred with", "other films by", "the director of X also directed"): the
# answer chain goes out along a relation and back along the same one
SHARING_WORDS = frozenset({"same", "share", "shares", "shared", "sharing", "co", "together",
                           "fellow", "other", "others", "alongside", "common", "also"})
YEAR_WORDS = frozenset({"year", "years"})  # a year (not a full date) is asked for

# --------------------------------------------------------------------------- arithmetic

SUM_WORDS = frozenset({"total", "sum", "altogether", "combined", "overall"})
AVG_WORDS = frozenset({"average", "mean", "avg"})
MOST_WORDS = frozenset({"most", "highest", "largest", "biggest", "greatest", "maximum", "max",
                        "top", "best", "longest", "oldest", "heaviest", "costliest", "priciest"})
LEAST_WORDS = frozenset({"least", "lowest", "smallest", "fewest", "minimum", "min", "cheapest",
                         "shortest", "youngest", "lightest", "worst", "bottom"})
COMPARATIVES = frozenset({"more", "less", "fewer", "greater", "higher", "lower", "larger",
                          "smaller", "bigger", "cheaper", "older", "younger", "longer",
                          "shorter"})
# comparatives that put the smaller one first
DESCENDING_NOT = frozenset({"less", "fewer", "lower", "smaller", "cheaper", "younger",
                            "shorter"})
# "25 *or higher*": a filter's bound, not a comparison
BOUND_WORDS = frozenset({"more", "less", "fewer", "higher", "lower", "greater", "above",
                         "below", "over", "under"})
RANK_ENDS = frozenset({"top", "bottom"})
# words before a number that make it a quantity, not a value named in the graph ("the top
# *5*", "more than *3*", "over *30*"): a short number after them is never spotted as a node
QUANTITY_CUES = frozenset({"top", "bottom", "first", "last", "than", "over", "under", "above",
                           "below", "least", "most", "about", "around", "nearly", "almost",
                           "exactly", "only", "just", "within", "after", "before", "since",
                           "until", "past", "next", "every", "per"})
NUMBER_WORDS: dict[str, int] = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                                "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twenty": 20}
YES, NO = "yes", "no"

# --------------------------------------------------------------------------- morphology

# suffixes the light stemmer strips, longest first
STEM_SUFFIXES = ("ing", "ies", "ed", "es", "s")
# endings of an agent noun made from a verb (act-or, play-er, produce-r)
AGENT_ENDINGS = ("or", "er", "r")
# endings a word may carry that make it an agent noun (direct-or, writ-er, novel-ist, histor-ian)
AGENT_NOUN_SUFFIXES = ("or", "er", "ist", "ian")
# verb endings a past form adds to its stem ("acted", "playing")
VERB_FORM_SUFFIXES = ("ed", "ing", "s", "d")
# verb endings after which the agent noun takes -or, not -er (act-or, edit-or, creat-or)
AGENT_OR_AFTER = ("ct", "it", "at", "ut", "ss")
# WordNet's detachment rules (its "morphy"): an inflected ending and what replaces it, tried
# in order until the thesaurus knows the result ("killed" -> "kill", "cities" -> "city")
BASE_FORM_RULES: tuple[tuple[str, str], ...] = (
    ("ies", "y"), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
    ("men", "man"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
    ("ing", ""), ("s", ""),
)
# derivational endings of English nouns: letters a word shares with another only there
# (depart-ment / ment-or, relation-ship / ship-ping) make no common root
DERIVATIONAL_ENDINGS = frozenset({"ment", "ness", "tion", "sion", "ship", "hood", "ance",
                                  "ence", "dom", "ism", "ity"})
# English place adjectives: America-n, Europe-an, Asia-n
ADJECTIVE_ENDINGS = ("n", "an")
# endings only adjectives have (fam-ous, use-ful, note-able): such a word before a plural
# makes it a noun ("famous *writers* live", not "famous writes")
ADJECTIVE_SUFFIXES = ("ous", "ful", "less", "able", "ible", "ish")
# the endings of derived words, some of them words of their own too (owner-ship, child-hood,
# real-ism, post-age, fact-ion): a word ending so is no compound (analysis.compound_of)
WORD_ENDINGS = (DERIVATIONAL_ENDINGS | frozenset(ADJECTIVE_SUFFIXES)
                | frozenset(AGENT_NOUN_SUFFIXES) | frozenset({"ion", "age", "let", "ling", "ette"}))
COMPOUND_REST_MIN = 3  # letters of a compound's second word at least ("film-maker")
# endings after which a verb's -es is an ending of its own (watch-es, go-es); after any other
# letter the "e" is the stem's ("wines" is no form of *win*)
SIBILANT_ENDINGS = ("s", "x", "z", "ch", "sh", "o")
# irregular verbs: base -> (past, past participle)
IRREGULAR_VERBS: dict[str, tuple[str, str]] = {
    "be": ("was", "been"), "bear": ("bore", "born"), "become": ("became", "become"),
    "begin": ("began", "begun"), "bring": ("brought", "brought"), "build": ("built", "built"),
    "buy": ("bought", "bought"), "catch": ("caught", "caught"), "choose": ("chose", "chosen"),
    "come": ("came", "come"), "do": ("did", "done"), "draw": ("drew", "drawn"),
    "drive": ("drove", "driven"), "eat": ("ate", "eaten"), "fight": ("fought", "fought"),
    "find": ("found", "found"), "fly": ("flew", "flown"), "forget": ("forgot", "forgotten"),
    "get": ("got", "gotten"), "give": ("gave", "given"), "go": ("went", "gone"),
    "grow": ("grew", "grown"), "have": ("had", "had"), "hold": ("held", "held"),
    "keep": ("kept", "kept"), "know": ("knew", "known"), "lead": ("led", "led"),
    "leave": ("left", "left"), "lose": ("lost", "lost"), "make": ("made", "made"),
    "meet": ("met", "met"), "pay": ("paid", "paid"), "put": ("put", "put"),
    "read": ("read", "read"), "ride": ("rode", "ridden"), "rise": ("rose", "risen"),
    "run": ("ran", "run"), "say": ("said", "said"), "see": ("saw", "seen"),
    "sell": ("sold", "sold"), "send": ("sent", "sent"), "set": ("set", "set"),
    "shoot": ("shot", "shot"), "sing": ("sang", "sung"), "sit": ("sat", "sat"),
    "speak": ("spoke", "spoken"), "spend": ("spent", "spent"), "stand": ("stood", "stood"),
    "steal": ("stole", "stolen"), "swim": ("swam", "swum"), "take": ("took", "taken"),
    "teach": ("taught", "taught"), "tell": ("told", "told"), "think": ("thought", "thought"),
    "throw": ("threw", "thrown"), "wear": ("wore", "worn"), "win": ("won", "won"),
    "write": ("wrote", "written"),
}
# past forms of the irregular verbs ("what *killed*" is regular; "who *wrote*" is not)
PAST_FORMS = frozenset(past for past, _pp in IRREGULAR_VERBS.values())
# verbs English doubles the last consonant of before -ed / -er (star-r-ed, plan-n-ed)
DOUBLED_CONSONANT = frozenset({"star", "plan", "stop", "ship", "shop", "admit", "commit",
                               "refer", "prefer", "control", "drum", "rap", "rob", "tag",
                               "map", "wrap", "chat", "jog", "dub", "scan", "submit"})

# irregular plurals (plural -> singular); regular ones follow the -s / -es / -ies rules
IRREGULAR_PLURALS: dict[str, str] = {
    "children": "child", "people": "person", "men": "man", "women": "woman", "feet": "foot",
    "teeth": "tooth", "mice": "mouse", "geese": "goose", "wives": "wife", "lives": "life",
    "knives": "knife", "halves": "half", "wolves": "wolf", "criteria": "criterion",
    "phenomena": "phenomenon", "indices": "index", "alumni": "alumnus", "theses": "thesis",
    "analyses": "analysis", "series": "series", "species": "species", "offspring": "offspring",
}
# endings after which a final -s is no plural ("boss", "genus", "analysis", "news")
SINGULAR_S_ENDINGS = ("ss", "us", "is", "ics", "ews")

# --------------------------------------------------------------------------- relation names

# words a relation name may open with that carry no meaning of their own (``hasAuthor``,
# ``is_part_of``, ``getsFunding``): dropped before the name is read
RELATION_PREFIXES = frozenset({"has", "have", "had", "is", "are", "was", "were", "get", "gets",
                               "rel", "relation", "prop", "property"})
# generic relation names that say only that a link exists (``HAS``, ``RELATED_TO``): their
# meaning comes from the labels at their ends
GENERIC_RELATION_WORDS = frozenset({"has", "have", "is", "in", "of", "to", "rel", "relation",
                                    "related", "link", "linked", "edge", "property", "prop",
                                    "relationship", "with", "a", "an", "the"})
# common English verbs a one-word relation name may be (``orbits``, ``EMPLOYS``, ``knows``):
# read as a verb ("is orbited by") rather than a plural noun ("has orbits")
RELATION_VERBS = frozenset(
    """accept acquire act admire advise affect agree allow appear apply appoint approve attack
    attend author award ban beat believe belong border borrow break call capture carry cause
    celebrate change cite claim coach command compete compose conduct connect contain control
    cover create cure defeat defend deliver depend describe design destroy develop direct
    discover distribute divorce donate edit elect employ endorse enjoy establish exhibit export
    feature follow found fund govern guide hate help host house illustrate import include
    influence inhabit inherit inspire install interview invade invent invest invite join kill
    know lead like link love manage manufacture marry mention mentor narrate need nominate
    observe occupy operate orbit order organize own paint participate perform photograph play
    portray precede predict prefer prepare present preserve produce program promote protect
    provide publish purchase rank rate receive recommend record release rent replace report
    represent require reside review rule sample score serve ship sign speak sponsor star study
    succeed supervise supply support surround teach train translate treat trust use visit vote
    want watch win work worship write""".split()
)
# nominalisations morphology cannot derive (born -> birth, die -> death): the noun goes
# beside the verb in a relation's phrases ("born in" is also "place of birth"). Derivational
# English only; what a *graph's* words mean comes from its vocabulary and the model of meaning
VERB_NOUNS: dict[str, tuple[str, ...]] = {
    "born": ("birth", "birthplace", "place of birth"),
    "bear": ("birth",),
    "die": ("death",),
    "died": ("death", "place of death"),
    "marry": ("marriage",),
    "married": ("marriage",),
    "locate": ("location",),
    "located": ("location",),
    "situated": ("location",),
    "reside": ("residence",),
    "resides": ("residence",),
    "live": ("residence",),
    "lives": ("residence",),
    "educate": ("education",),
    "educated": ("education",),
    "found": ("foundation",),
    "founded": ("foundation",),
    "bury": ("burial",),
    "buried": ("burial", "burial place"),
    "release": ("release",),
    "released": ("release",),
    "publish": ("publication",),
    "published": ("publication",),
}
# the preposition a verb of VERB_NOUNS takes before a place ("born *in*", "educated *at*")
VERB_PREPOSITION: dict[str, str] = {"born": "in", "died": "in", "located": "in", "situated": "in",
                                    "buried": "in", "lives": "in", "live": "in", "resides": "in",
                                    "reside": "in", "educated": "at", "married": "to",
                                    "marry": "to"}
HAVE_WORDS = frozenset({"has", "have", "had"})  # ``hasAuthor``: a noun follows
# nouns of a performing or taking-part role (a film's *actor*, an album's *performer*, a
# show's *guest*, a race's *competitor*): what such a role does in the work is said with
# verbs of its own the noun does not spell ("X *appears in* which films", "which albums
# *feature* X"), read beside the noun both ways
PERFORMER_NOUNS = frozenset({"actor", "actress", "performer", "player", "cast", "singer",
                             "vocalist", "musician", "dancer", "soloist", "guest",
                             "presenter", "narrator", "participant", "contestant",
                             "competitor", "entrant", "panelist", "panellist"})
PERFORMER_PHRASES = ("appears in", "stars in")  # the performer's side: "X appears in W"
FEATURING_PHRASES = ("features",)  # the work's side: "W features X"
# nouns of kin and partnership that read the same both ways ("spouse of" / "has spouse"):
# a symmetric relation's backward phrases equal its forward ones
SYMMETRIC_NOUNS = frozenset({"spouse", "partner", "sibling", "friend", "neighbor",
                             "neighbour", "colleague", "twin", "cousin", "peer", "rival",
                             "teammate", "ally", "border", "borders"})

# --------------------------------------------------------------------------- relational nouns

# Converse relational nouns of English: if A is the *child* of B, B is the *parent* of A. A
# relation read as one of them walked backwards reads as the other ("children" backwards is
# "parent of"), so "the parents of X" and "X 's daughter" pick the two directions of one
# relation. Pairs of general English, read both ways (a noun may have several converses:
# an advisor's advisees are their students); a compound is looked up whole first ("parent
# company"), then by its last word.
CONVERSE_NOUNS: tuple[tuple[str, str], ...] = (
    ("parent", "child"), ("grandparent", "grandchild"), ("ancestor", "descendant"),
    ("employer", "employee"), ("teacher", "student"), ("advisor", "advisee"),
    ("advisor", "student"), ("adviser", "advisee"), ("adviser", "student"), ("supervisor", "supervisee"),
    ("supervisor", "student"), ("mentor", "mentee"), ("mentor", "protege"),
    ("master", "apprentice"), ("predecessor", "successor"), ("parent company", "subsidiary"),
    ("parent organization", "subsidiary"), ("owner", "possession"), ("leader", "follower"),
    ("doctor", "patient"), ("landlord", "tenant"), ("host", "guest"), ("seller", "buyer"),
    ("lender", "borrower"), ("creditor", "debtor"), ("creator", "creation"),
    ("inventor", "invention"), ("superior", "subordinate"),
)
# Relational nouns of English that name a kind of a more general one: "X 's *daughter*" is
# one of X's *children*, "X 's *mother*" one of X's *parents*. A question word is compared
# with a relation through its general noun too (kinship and partnership; general English).
RELATIONAL_HYPERNYMS: dict[str, str] = {
    "son": "child", "daughter": "child", "kid": "child", "kids": "child", "offspring": "child",
    "sons": "child", "daughters": "child", "mother": "parent", "father": "parent",
    "mom": "parent", "mum": "parent", "dad": "parent", "mothers": "parent",
    "fathers": "parent", "husband": "spouse", "wife": "spouse", "husbands": "spouse",
    "wives": "spouse", "brother": "sibling", "sister": "sibling", "brothers": "sibling",
    "sisters": "sibling", "grandson": "grandchild", "granddaughter": "grandchild",
    "grandmother": "grandparent", "grandfather": "grandparent", "boyfriend": "partner",
    "girlfriend": "partner", "stepson": "stepchild", "stepdaughter": "stepchild",
}
# Relational nouns of English that name a chain of one relation taken again: X 's
# *grandparent* is a parent of a parent of X. Read (after RELATIONAL_HYPERNYMS: grandfather
# -> grandparent) as that many steps, each said by the noun, when no relation of the graph
# says the noun itself.
COMPOSED_RELATIONAL_NOUNS: dict[str, tuple[str, ...]] = {
    "grandparent": ("parent", "parent"), "grandchild": ("child", "child"),
    "great grandparent": ("parent", "parent", "parent"),
    "great grandchild": ("child", "child", "child"),
    # a sibling shares a parent: read as the walk up and down again only when no relation of
    # the graph names siblings (an uncle is then a parent's parent's child)
    "sibling": ("parent", "child"),
    "uncle": ("parent", "sibling"), "aunt": ("parent", "sibling"),
    "nephew": ("sibling", "child"), "niece": ("sibling", "child"),
    "cousin": ("parent", "sibling", "child"),
    "parent in law": ("spouse", "parent"), "father in law": ("spouse", "parent"),
    "mother in law": ("spouse", "parent"), "child in law": ("child", "spouse"),
    "son in law": ("child", "spouse"), "daughter in law": ("child", "spouse"),
    "sibling in law": ("spouse", "sibling"), "brother in law": ("spouse", "sibling"),
    "sister in law": ("spouse", "sibling"),
}
# the words after a kin noun that make it a relative by marriage ("father *in law*")
IN_LAW: tuple[str, str] = ("in", "law")
# Verbs whose doer English names by a relational noun not made from the verb (the regular
# ones are: *found* -> founder, *own* -> owner, *employ* -> employer / employee): who raises a
# child is its parent. Read by the direction a verb asks of a noun-named relation ("who
# *raised* X" walks ``children`` backwards, to the parent).
VERB_AGENT_NOUNS: dict[str, tuple[str, ...]] = {
    "raise": ("parent",), "rear": ("parent",), "bear": ("parent", "mother"),
    "adopt": ("parent",), "father": ("parent", "father"), "mother": ("parent", "mother"),
    "beget": ("parent", "father"), "run": ("head", "leader", "chief"),
    "lead": ("leader", "head", "chief"), "head": ("head",),
    "teach": ("teacher", "instructor", "tutor"),
    "coach": ("coach",), "mentor": ("mentor",), "guide": ("mentor", "guide"),
    "write": ("writer", "author"), "compose": ("composer",), "marry": ("spouse",),
}
# Verbs of English that say one event from its two ends: if A *teaches* B, B *learns from*
# A. A relation named by one (``learned_from``) reached by a question asking with the other
# ("who taught X") has the asked verb's doer at its tail. Base forms, read both ways.
CONVERSE_VERBS: tuple[tuple[str, str], ...] = (
    ("teach", "learn"), ("sell", "buy"), ("give", "receive"), ("lend", "borrow"),
    ("employ", "work"), ("own", "belong"), ("lead", "follow"), ("send", "receive"),
)
AGENT_ENDINGS = ("er", "or", "ar", "ist", "ent", "ant")  # employ*er*, direct*or*
PATIENT_ENDINGS = ("ee",)  # employ*ee*, advis*ee*, ment*ee*
# Words that join two content words into one unit of meaning ("cause *of* death", "line
# *of* work", "a man *or* a woman"): what a question says with them is one thing
JOINING_WORDS = frozenset({"of", "or"})
# particles of English phrasal verbs: "come *out*", "set *up*", "put *out*" mean something
# else than their verb alone, so the verb and its particle are read together
PARTICLES = frozenset({"out", "up", "off", "down", "away"})
# English idioms whose words mean a noun none of them is: the last words of the idiom ->
# the nouns it means, the first one its text ("what does X do *for a living*": X's
# occupation, not where X lives); the idiom's own verb ("*earn* a living") is part of it
_LIVING = ("occupation", "profession", "job")
_LEISURE = ("hobby", "pastime", "recreation")
IDIOMS: dict[tuple[str, ...], tuple[str, ...]] = {
    **{(*verb, det, "living"): _LIVING
       for verb in ((), ("earn",), ("earns",), ("earned",), ("make",), ("makes",), ("made",))
       for det in ("a", "their", "his", "her")},
    ("for", "work"): _LIVING, ("for", "fun"): _LEISURE,
    ("spare", "time"): _LEISURE, ("free", "time"): _LEISURE, ("leisure", "time"): _LEISURE,
}
# Words that end a relative clause's head noun: "the city *where* X was born", "the films
# *that* X directed" (the noun names the kind of thing the clause describes, not a relation)
RELATIVE_WORDS = frozenset({"where", "that", "which", "who", "whom", "whose"})
# words that open a clause of its own in a question ("which person was born in X *and* is
# married to Y"): each clause's words are about the entity of that clause
CLAUSE_SPLITS = frozenset({"and", "but"})

# --------------------------------------------------------------------------- property names

# A prior from a property's *name*, weighed together with its values: words that usually
# mean "this names the thing" or "this identifies it" (never enough on their own).
NAME_PROPERTY_WORDS = frozenset({"name", "title", "label", "caption", "heading"})
ID_PROPERTY_WORDS = frozenset({"id", "ids", "key", "code", "uuid", "guid", "iri", "uri", "url",
                               "hash", "ref", "no", "num", "number", "sku", "isbn", "email",
                               "phone", "fax", "zip", "postal"})
# --- the graph's vocabulary (byokg.graph.vocabulary; issue 24a's section) ---
# words a property name carries when its values are other names of the node ("nickname",
# "aliases", "aka"): beside NAME_PROPERTY_WORDS, what makes a text property an alias for linking
ALIAS_PROPERTY_WORDS = frozenset({"alias", "aliases", "aka", "synonym", "synonyms", "nickname",
                                  "nicknames", "moniker", "pseudonym"})
# a property name's last word ending like this names things too ("nickname", "surname")
NAME_WORD_ENDING = "name"

# text a property holds when it holds nothing
MISSING_VALUES = frozenset({"", "null", "none", "n/a", "nan"})

# --------------------------------------------------------------------------- calibration

# Synonym and paraphrase pairs of everyday English: single words, a word and a phrase, two
# phrases; an embedder's cosines are calibrated on them (byokg.models.calibration). Kept
# generic on purpose: no graph schema's names.
CALIBRATION_PAIRS: tuple[tuple[str, str], ...] = (
    ("car", "automobile"), ("begin", "start"), ("big", "large"), ("child", "kid"),
    ("buy", "purchase"), ("house", "home"), ("quick", "fast"), ("happy", "glad"),
    ("doctor", "physician"), ("shop", "store"), ("road", "street"), ("error", "mistake"),
    ("answer", "reply"), ("rich", "wealthy"), ("sick", "ill"), ("town", "city"),
    ("photo", "picture"), ("job", "occupation"), ("wife", "spouse"), ("boat", "ship"),
    ("couch", "sofa"), ("story", "tale"), ("gift", "present"), ("film", "movie"),
    ("author", "writer"), ("speak", "talk"), ("hat", "cap"), ("stone", "rock"),
    ("mother", "mom"), ("lawyer", "attorney"), ("ocean", "sea"), ("price", "cost"),
    ("died", "passed away"), ("born in", "birthplace"), ("married to", "husband"),
    ("works for", "employer"), ("lives in", "residence"), ("made by", "manufacturer"),
    ("written by", "penned by"), ("located in", "situated in"), ("how old", "age"),
    ("how tall", "height"), ("speaks", "language spoken"), ("belongs to", "owned by"),
    ("cause of death", "what killed"), ("place of birth", "where was born"),
    ("starting date", "when did it begin"), ("phone number", "telephone"),
    ("brother or sister", "sibling"), ("studied at", "attended university"),
    ("capital city", "seat of government"), ("team member", "plays for"),
    ("country of origin", "comes from"), ("release date", "came out"),
    ("leader", "head of"), ("teacher", "instructor"), ("salary", "wage"),
    ("illustration", "drawing"), ("last name", "surname"), ("nickname", "also known as"),
    ("weight", "how heavy"), ("founded", "established"), ("member of", "part of the group"),
    ("expensive", "costly"),
)
