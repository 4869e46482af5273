#!/usr/bin/env python
"""Train the project's English tagger, lemmatizer and dependency parser (spaCy 3.8, CPU).

From the openly licensed treebanks in ``../shared/treebanks/`` (their README: UD English
EWT v2.16, CC BY-SA 4.0; the commercially reusable genres of UD English GUM v2.16), with
no pretrained vectors or third-party weights of any kind:

1. **convert**: every CoNLL-U file through spaCy's own converter (``conllu_to_docs``,
   ten sentences a ``Doc``, never across a ``# newdoc`` boundary), into DocBins under
   ``--work``. Train is EWT train plus GUM train, GUM's news documents ``--news-weight``
   times; dev is EWT dev plus GUM dev.
2. **train**: one pipeline, a shared CNN ``tok2vec`` (hash embeddings of NORM, PREFIX,
   SUFFIX and SHAPE, a maxout window encoder) under ``tagger`` (XPOS), ``morphologizer``
   (UPOS and features), ``trainable_lemmatizer`` (edit trees from the treebanks' lemmas)
   and ``parser`` (arc-eager, UD labels), for ``--epochs`` epochs; the best checkpoint on
   dev (mostly LAS) is kept. Every seed is pinned and one thread is used, so the same
   command at the same commit writes the same weights.
3. **evaluate**: UAS, LAS, UPOS, XPOS, morphology, lemma and sentence F on the EWT and GUM
   test files (raw text through spaCy's tokenizer, as the reader meets it; UAS/LAS also on
   the treebank's own words), the motion-attachment check (``scripts/parser_check.py``)
   and parse speed (words a second, one thread). All of it goes into the model's meta,
   with the spaCy/thinc versions, the settings, the commit and the treebanks' sha256.

``package`` copies a trained run's model into ``routes/extract/model/`` with GUM's list of
documents (authors, sources) and writes its ``SHA256SUMS``; ``NOTICE.md`` (licence,
attribution, figures) stays beside it.

    python scripts/train_parser.py train --epochs 1 --max-steps 200 --run build/parser/smoke
    nohup python scripts/train_parser.py train --run build/parser/w96 > w96.log 2>&1 &
    python scripts/train_parser.py evaluate build/parser/w96/model
    python scripts/train_parser.py package build/parser/w96/model

Training is not part of install or CI. Figures and the runs tried: docs/extraction.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Span

ROOT = Path(__file__).resolve().parents[1]
TREEBANKS = ROOT.parent / "shared" / "treebanks"
WORK = ROOT / "build" / "parser"
MODEL = ROOT / "routes" / "extract" / "model"
CHECK = ROOT / "bench" / "parser" / "motion_attachment.jsonl"

#: The treebank files, by split, as ``../shared/treebanks/README.md`` lists them.
FILES = {
    "ewt-train": "ewt/en_ewt-ud-train.conllu",
    "ewt-dev": "ewt/en_ewt-ud-dev.conllu",
    "ewt-test": "ewt/en_ewt-ud-test.conllu",
    "gum-train": "gum/en_gum-news-etc-train.conllu",
    "gum-dev": "gum/en_gum-news-etc-dev.conllu",
    "gum-test": "gum/en_gum-news-etc-test.conllu",
}
SENTENCES_PER_DOC = 10
SEED = 0


@dataclass(frozen=True)
class Settings:
    """What a run may vary; everything else is fixed in :func:`config`."""

    epochs: int = 20
    width: int = 96  # tok2vec width
    depth: int = 4  # tok2vec encoder layers
    window: int = 1  # words each side each encoder layer sees
    rows: int = 5000  # NORM embedding rows (PREFIX, SUFFIX, SHAPE: 1/5, 1/2, 1/2 of it)
    hidden: int = 128  # parser hidden width
    extra_state: int = 0  # 1: the parser also sees the stack's words' children
    news_weight: int = 1  # times GUM's news documents appear in train
    direction_weight: int = 1  # times a document with a directional phrase appears in train
    max_steps: int = 0  # 0: no limit (a smoke run sets one)
    seed: int = SEED


# --- convert -------------------------------------------------------------------------


def documents(path: Path) -> Iterator[tuple[str, str]]:
    """``(newdoc id, CoNLL-U text)`` for each document of a treebank file."""
    name, lines = "", []
    for line in path.read_text(encoding="utf-8").splitlines():
        found = re.match(r"# newdoc id = (\S+)", line)
        if found and lines:
            yield name, "\n".join(lines) + "\n"
            lines = []
        name = found.group(1) if found else name
        lines.append(line)
    if lines:
        yield name, "\n".join(lines) + "\n"


def convert_file(path: Path) -> list[tuple[str, Doc]]:
    """Each ``(document id, Doc)`` of a treebank file: spaCy's CoNLL-U converter, run per
    document so that no ``Doc`` spans two (empty nodes are skipped; words, not surface
    tokens, become tokens: "don't" is "do" + "n't")."""
    from spacy.training.converters import conllu_to_docs

    return [
        (name, doc)
        for name, text in documents(path)
        for doc in conllu_to_docs(text, n_sents=SENTENCES_PER_DOC, no_print=True)
    ]


#: Prepositions of direction, "to" aside (it is mostly an infinitive or a recipient).
DIRECTIONAL = frozenset(["from", "into", "towards", "toward", "via", "through", "across"])


def directional(doc: Doc) -> list[Doc]:
    """The sentences of a gold ``Doc`` with a phrase of direction ("from X", "into Y")
    attached to a verb (obl) or a noun (nmod), each as a ``Doc``: the decision the motion
    check scores, in either outcome."""

    def has_direction(sent: Span) -> bool:
        return any(
            t.text.lower() in DIRECTIONAL
            and t.dep_ == "case"
            and t.head.dep_.split(":")[0] in ("obl", "nmod")
            for t in sent
        )

    return [sent.as_doc() for sent in doc.sents if has_direction(sent)]


def convert(
    treebanks: Path, work: Path, news_weight: int, direction_weight: int = 1
) -> dict[str, Path]:
    """DocBins ``train``, ``dev``, ``ewt-test`` and ``gum-test`` under ``work/corpus``."""
    from spacy.tokens import DocBin

    folder = work / "corpus"
    folder.mkdir(parents=True, exist_ok=True)
    parts = {key: convert_file(treebanks / rel) for key, rel in FILES.items()}
    news = [d for name, d in parts["gum-train"] if name.startswith("GUM_news_")]
    train_docs = [d for _, d in parts["ewt-train"] + parts["gum-train"]] + news * (news_weight - 1)
    extra = [sent for d in train_docs for sent in directional(d)]
    sets = {
        "train": train_docs + extra * (direction_weight - 1),
        "dev": [d for _, d in parts["ewt-dev"] + parts["gum-dev"]],
        "ewt-test": [d for _, d in parts["ewt-test"]],
        "gum-test": [d for _, d in parts["gum-test"]],
    }
    paths = {}
    for key, docs in sets.items():
        paths[key] = folder / f"{key}-news{news_weight}-dir{direction_weight}.spacy"
        DocBin(docs=docs, store_user_data=False).to_disk(paths[key])
    return paths


# --- train ---------------------------------------------------------------------------

_CONFIG = """
[paths]
train = null
dev = null

[system]
gpu_allocator = null
seed = {seed}

[nlp]
lang = "en"
pipeline = ["tok2vec", "tagger", "morphologizer", "trainable_lemmatizer", "parser"]
batch_size = 256

[components]

[components.tok2vec]
factory = "tok2vec"

[components.tok2vec.model]
@architectures = "spacy.Tok2Vec.v2"

[components.tok2vec.model.embed]
@architectures = "spacy.MultiHashEmbed.v2"
width = {width}
attrs = ["NORM", "PREFIX", "SUFFIX", "SHAPE"]
rows = [{rows}, {rows_prefix}, {rows_half}, {rows_half}]
include_static_vectors = false

[components.tok2vec.model.encode]
@architectures = "spacy.MaxoutWindowEncoder.v2"
width = {width}
depth = {depth}
window_size = {window}
maxout_pieces = 3

{heads}
[components.trainable_lemmatizer]
factory = "trainable_lemmatizer"
backoff = "orth"
min_tree_freq = 3
top_k = 1

[components.trainable_lemmatizer.model]
@architectures = "spacy.Tagger.v2"

[components.parser]
factory = "parser"
min_action_freq = 30

[components.parser.model]
@architectures = "spacy.TransitionBasedParser.v2"
state_type = "parser"
extra_state_tokens = {extra_state_bool}
hidden_width = {hidden}
maxout_pieces = 3
use_upper = true

[corpora]

[corpora.train]
@readers = "spacy.Corpus.v1"
path = ${{paths.train}}

[corpora.dev]
@readers = "spacy.Corpus.v1"
path = ${{paths.dev}}

[training]
seed = ${{system.seed}}
gpu_allocator = ${{system.gpu_allocator}}
dropout = 0.1
patience = 0
max_epochs = {epochs}
max_steps = {max_steps}
eval_frequency = 1000

[training.optimizer]
@optimizers = "Adam.v1"
learn_rate = 0.001
use_averages = true

[training.batcher]
@batchers = "spacy.batch_by_words.v1"
tolerance = 0.2

[training.batcher.size]
@schedules = "compounding.v1"
start = 100
stop = 1000
compound = 1.001

[training.logger]
@loggers = "spacy.ConsoleLogger.v1"
progress_bar = false

[training.score_weights]
dep_las = 0.5
dep_uas = 0.1
pos_acc = 0.1
tag_acc = 0.1
lemma_acc = 0.1
morph_acc = 0.05
sents_f = 0.05
"""

_HEAD = """
[components.{name}]
factory = "{factory}"

[components.{name}.model]
@architectures = "spacy.Tagger.v2"
"""

_LISTENER = """
[components.{name}.model.tok2vec]
@architectures = "spacy.Tok2VecListener.v1"
width = {width}
upstream = "tok2vec"
"""


def config(settings: Settings, corpus: dict[str, Path]) -> Any:
    """The training config: fixed choices here, the varied ones from ``settings``."""
    from spacy import util

    heads = "".join(_HEAD.format(name=n, factory=n) for n in ("tagger", "morphologizer"))
    text = _CONFIG.format(
        heads=heads,
        rows_prefix=settings.rows // 5,
        rows_half=settings.rows // 2,
        extra_state_bool=str(bool(settings.extra_state)).lower(),
        **asdict(settings),
    )
    for name in ("tagger", "morphologizer", "trainable_lemmatizer", "parser"):
        text += _LISTENER.format(name=name, width=settings.width)
    overrides = {"paths.train": str(corpus["train"]), "paths.dev": str(corpus["dev"])}
    return util.load_config_from_str(text, overrides=overrides, interpolate=False)


def provenance(settings: Settings, treebanks: Path) -> dict[str, Any]:
    """What made the model: script, commit, settings, library versions, the data's sha256."""
    import spacy
    import thinc

    sys.path.insert(0, str(ROOT))
    from routes._io import file_sha256

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.strip()

    return {
        "script": "scripts/train_parser.py",
        "commit": git("rev-parse", "HEAD"),
        "script_changed_since_commit": bool(git("status", "--porcelain", __file__)),
        "settings": asdict(settings),
        "spacy": spacy.__version__,
        "thinc": thinc.__version__,
        "python": sys.version.split()[0],
        "treebanks": {rel: file_sha256(treebanks / rel) for rel in FILES.values()},
    }


META = {
    "name": "routes_parser",
    "description": "English tagger, morphologizer, lemmatizer and dependency parser of "
    "`routes`, trained from UD English EWT and the reusable genres of UD English GUM "
    "(v2.16) with no pretrained vectors or third-party weights.",
    "license": "CC BY-SA 4.0",
    "author": "routes contributors",
    "sources": [
        {
            "name": "UD English EWT v2.16",
            "url": "https://github.com/UniversalDependencies/UD_English-EWT",
            "license": "CC BY-SA 4.0",
        },
        {
            "name": "UD English GUM v2.16 (news, interview, bio, voyage, vlog, textbook)",
            "url": "https://github.com/UniversalDependencies/UD_English-GUM",
            "license": "CC BY 4.0 (annotations); texts CC BY 2.5, CC BY-SA 3.0, CC BY",
        },
    ],
}


def train(settings: Settings, treebanks: Path, run: Path) -> Path:
    """Convert, train and evaluate; the model (with its provenance and scores in its meta)
    is ``run/model``."""
    from spacy.training.initialize import init_nlp
    from spacy.training.loop import train as train_loop

    run.mkdir(parents=True, exist_ok=True)
    corpus = convert(treebanks, WORK, settings.news_weight, settings.direction_weight)
    cfg = config(settings, corpus)
    cfg.to_disk(run / "config.cfg")
    nlp = init_nlp(cfg)
    nlp.meta.update(META, version="1.0.0", routes=provenance(settings, treebanks))
    (run / "training").mkdir(exist_ok=True)
    train_loop(nlp, run / "training", stdout=sys.stdout, stderr=sys.stderr)
    return evaluate(run / "training" / "model-best", run / "model", corpus)


# --- evaluate ------------------------------------------------------------------------


def scores(nlp: Language, path: Path) -> dict[str, float]:
    """A test file's scores: raw text through the tokenizer, and LAS/UAS on gold words."""
    from spacy.tokens import Doc, DocBin
    from spacy.training import Example

    gold = list(DocBin().from_disk(path).get_docs(nlp.vocab))
    raw = nlp.evaluate([Example(nlp.make_doc(d.text), d) for d in gold])
    words = [Doc(nlp.vocab, words=[t.text for t in d], spaces=[bool(t.whitespace_) for t in d])
             for d in gold]  # fmt: skip
    given = nlp.evaluate([Example(w, d) for w, d in zip(words, gold, strict=True)])
    keys = ("dep_uas", "dep_las", "pos_acc", "tag_acc", "morph_acc", "lemma_acc", "sents_f")
    out = {key: round(float(raw[key]), 4) for key in keys}
    out |= {f"{k}_gold_words": round(float(given[k]), 4) for k in ("dep_uas", "dep_las")}
    out["words"] = sum(len(d) for d in gold)
    return out


def speed(nlp: Language, texts: list[str], *, repeats: int = 3) -> float:
    """Words a second, one thread, ``nlp.pipe`` in batches of 64: the best of ``repeats``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        words = sum(len(doc) for doc in nlp.pipe(texts, batch_size=64))
        best = min(best, time.perf_counter() - start)
    return round(words / best)


def evaluate(trained: Path, out: Path, corpus: dict[str, Path]) -> Path:
    """Score ``trained`` on both test files and the motion-attachment check; write it with
    the figures in its meta to ``out``."""
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.load(trained)
    tests = {key: scores(nlp, corpus[key]) for key in ("ewt-test", "gum-test")}
    sys.path.insert(0, str(ROOT / "scripts"))
    from parser_check import score

    check = score(nlp, CHECK)
    texts = [d.text for d in DocBin().from_disk(corpus["ewt-test"]).get_docs(nlp.vocab)]
    figures: dict[str, Any] = {
        "test": tests,
        "motion_attachment": {
            "right": check.right,
            "checks": check.total,
            "share": round(check.share, 4),
        },
    }
    nlp.meta.setdefault("routes", {})["evaluation"] = figures
    if out.exists():
        shutil.rmtree(out)
    nlp.to_disk(out)
    # Measured, so not in the meta: the same training writes the same files.
    figures["words_per_second_one_thread"] = speed(nlp, texts)
    figures["size_bytes"] = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    (out.parent / "report.json").write_text(json.dumps(figures, indent=1) + "\n")
    print(json.dumps(figures, indent=1))
    return out


# --- package -------------------------------------------------------------------------


def write_sums(folder: Path) -> Path:
    """``SHA256SUMS`` (sha256sum's format) of every file in ``folder`` but itself."""
    sys.path.insert(0, str(ROOT))
    from routes._io import file_sha256, write_atomically

    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "SHA256SUMS")
    lines = [f"{file_sha256(p)}  {p.relative_to(folder).as_posix()}\n" for p in files]
    return write_atomically(folder / "SHA256SUMS", "".join(lines).encode())


def package(model: Path, treebanks: Path, out: Path = MODEL) -> None:
    """Replace the shipped model's files with ``model``'s (NOTICE.md kept), add GUM's list
    of documents with their authors and sources (the attribution points to it), sum them."""
    notice = (out / "NOTICE.md").read_bytes() if (out / "NOTICE.md").exists() else None
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(model, out)
    shutil.copyfile(treebanks / "gum" / "documents.tsv", out / "gum-documents.tsv")
    if notice is not None:
        (out / "NOTICE.md").write_bytes(notice)
    write_sums(out)


def main() -> None:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS"):
        os.environ[var] = "1"  # one thread (numpy is imported later): the other core is shared
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("train", help="convert, train and evaluate")
    run.add_argument("--run", type=Path, required=True, help="folder for the run's files")
    run.add_argument("--treebanks", type=Path, default=TREEBANKS)
    for field, default in asdict(Settings()).items():
        run.add_argument(f"--{field.replace('_', '-')}", type=int, default=default)
    ev = sub.add_parser("evaluate", help="score a trained model again")
    ev.add_argument("model", type=Path)
    ev.add_argument("--treebanks", type=Path, default=TREEBANKS)
    pk = sub.add_parser("package", help="ship a run's model as routes/extract/model")
    pk.add_argument("model", type=Path)
    pk.add_argument("--treebanks", type=Path, default=TREEBANKS)
    sums = sub.add_parser("sums", help="rewrite the shipped model's SHA256SUMS")
    sums.add_argument("folder", type=Path, nargs="?", default=MODEL)
    args = parser.parse_args()
    if args.command == "train":
        fields = asdict(Settings()).keys()
        settings = Settings(**{f: getattr(args, f) for f in fields})
        train(settings, args.treebanks, args.run)
    elif args.command == "evaluate":
        trained = json.loads((args.model / "meta.json").read_text())["routes"]["settings"]
        corpus = convert(args.treebanks, WORK, trained["news_weight"],
                         trained.get("direction_weight", 1))  # fmt: skip
        evaluate(args.model, args.model.parent / "model", corpus)
    elif args.command == "package":
        package(args.model, args.treebanks)
    else:
        write_sums(args.folder)


if __name__ == "__main__":
    main()
