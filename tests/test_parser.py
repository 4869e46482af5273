"""The project's own parser: the shipped model is whole, refuses to load damaged, and reads
the phrases of movement right; its training script reads the treebanks it was made from.

Nothing here trains (``scripts/train_parser.py`` does, outside CI); the motion-attachment
check parses 90 sentences with the shipped model in about a second.
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import SHARED, shared

from routes.errors import RoutesError
from routes.extract import parse

ROOT = Path(__file__).resolve().parents[1]
TREEBANKS = SHARED / "treebanks"


def _script(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A module of ``scripts/``, loaded as the script runs (its folder on the path)."""
    folder = ROOT / "scripts"
    monkeypatch.syspath_prepend(str(folder))
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def _sums(folder: Path) -> dict[str, str]:
    lines = (folder / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    return {name: sha for sha, _, name in (line.partition("  ") for line in lines)}


def test_the_shipped_model_is_every_file_its_sums_list() -> None:
    sums = _sums(parse.MODEL_DIR)
    files = {
        p.relative_to(parse.MODEL_DIR).as_posix()
        for p in parse.MODEL_DIR.rglob("*")
        if p.is_file() and p.name != "SHA256SUMS"
    }
    assert set(sums) == files
    assert {"NOTICE.md", "meta.json", "config.cfg", "parser/model"} <= files
    for name, sha in sums.items():
        assert hashlib.sha256((parse.MODEL_DIR / name).read_bytes()).hexdigest() == sha, name


@pytest.mark.parametrize("damage", ["changed", "missing", "no sums"])
def test_a_damaged_model_is_one_line_saying_to_reinstall(damage: str, tmp_path: Path) -> None:
    folder = tmp_path / "model"
    shutil.copytree(parse.MODEL_DIR, folder)
    target = {"changed": "parser/model", "missing": "tok2vec/model", "no sums": "SHA256SUMS"}
    if damage == "changed":
        data = bytearray((folder / target[damage]).read_bytes())
        data[len(data) // 2] ^= 1  # one bit
        (folder / target[damage]).write_bytes(bytes(data))
    else:
        (folder / target[damage]).unlink()
    with pytest.raises(RoutesError) as raised:
        parse.load(folder)
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"the parser model in {folder} is damaged")
    assert target[damage] in message and message.endswith("; reinstall routes")


def test_texts_are_parsed_in_order_with_the_shipped_model() -> None:
    texts = ["Families fled to Idlib.", "The road to Idlib was closed."]
    docs = list(parse.load().pipe(texts))
    assert [d.text for d in docs] == texts
    fled, road = docs[0], docs[1]
    assert (fled[3].text, fled[3].dep_, fled[3].head.text) == ("Idlib", "obl", "fled")
    assert (road[3].text, road[3].dep_, road[3].head.text) == ("Idlib", "nmod", "road")
    assert parse.load() is parse.load(parse.MODEL_DIR)  # loaded once


@pytest.mark.xfail(
    strict=True,
    reason="the model of 2026-12-07 is right 85.3 % of the time (244 of 286); the goal is 90 %: "
    "when a better model reaches it, this fails as XPASS and the mark goes",
)
def test_the_motion_attachment_check_is_right_nine_times_in_ten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    check = _script("parser_check", monkeypatch)
    report = check.score(parse.load(), check.CHECK)
    assert report.total >= 250
    assert report.share >= 0.90, "\n".join(report.failures)


def test_the_check_counts_a_wrong_attachment_as_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scorer can fail: on a sentence whose parse is given, a phrase attached to another
    word, with another relation, or split in two, is wrong."""
    from spacy.tokens import Doc

    check = _script("parser_check", monkeypatch)
    nlp = parse.load()
    words = ["Thousands", "of", "civilians", "fled", "eastern", "Aleppo", "for", "Idlib", "."]
    heads = [3, 2, 0, 3, 5, 3, 7, 3, 3]
    deps = ["nsubj", "case", "nmod", "ROOT", "amod", "obj", "case", "obl", "punct"]

    def parsed(**changes: tuple[int, str]) -> Doc:
        h, d = list(heads), list(deps)
        for word, (head, dep) in changes.items():
            h[words.index(word)], d[words.index(word)] = head, dep
        return Doc(nlp.vocab, words=words, heads=h, deps=d)

    right = parsed()
    assert check.check(nlp, right, "Thousands of civilians", "nsubj", "fled") is None
    assert check.check(nlp, right, "Idlib", "obl:to", "fled") is None  # the family counts
    assert check.check(nlp, right, "Idlib", "nmod", "fled") is not None
    assert check.check(nlp, parsed(Idlib=(5, "nmod")), "Idlib", "obl", "fled") is not None
    split = parsed(civilians=(3, "obj"))
    assert check.check(nlp, split, "Thousands of civilians", "nsubj", "fled") is not None


def test_the_training_script_converts_the_treebanks(monkeypatch: pytest.MonkeyPatch) -> None:
    """spaCy's CoNLL-U converter, one document at a time: GUM dev is 12 documents, 455
    sentences and 10,235 words (``../shared/treebanks/README.md``)."""
    path = shared(TREEBANKS / "gum" / "en_gum-news-etc-dev.conllu")
    train = _script("train_parser", monkeypatch)
    converted = train.convert_file(path)
    assert len({name for name, _ in converted}) == 12
    assert sum(len(list(doc.sents)) for _, doc in converted) == 455
    assert sum(len(doc) for _, doc in converted) == 10_235
    assert all(doc.has_annotation("DEP") and doc.has_annotation("LEMMA") for _, doc in converted)
    news = [doc for name, doc in converted if name.startswith("GUM_news_")]
    assert news and all(len(list(doc.sents)) <= train.SENTENCES_PER_DOC for doc in news)
