"""The n-gram likeness model (flamer_ref/similar.py, issue 9): how much a query reads like the questions
players ask about an entry, learned from the entries' titles, keywords and rules/phrasings.yaml."""

from __future__ import annotations

import math
import marshal

import pytest

from flamer_ref import searchindex, similar
from flamer_ref.corpus import load
from flamer_ref.searchindex import load_index, load_similar, similar_docs
from flamer_ref.search import KINDS, search, search_report


# ------------------------------------------------------------------ model ----
def test_grams_are_jamo_ngrams_inside_framed_words():
    g = similar.grams("적 칸")
    # '적' is ㅈㅓㄱ, framed ' ㅈㅓㄱ ': 2- to 4-grams, never across the space between words
    assert g[" ㅈ"] == 1 and g["ㄱ "] == 1 and g[" ㅈㅓㄱ"] == 1 and g["ㅈㅓㄱ "] == 1
    assert all(len(k) in (2, 3, 4) for k in g)
    assert not any("ㄱ ㅋ" in k or "ㄱ  " in k for k in g)
    assert similar.grams("칸 칸")[" ㅋㅏㄴ"] == 2 and similar.grams("칸 칸")["ㅋㅏㄴ "] == 2
    assert similar.grams("") == {} and similar.grams("   ") == {}


def test_a_paraphrase_is_nearer_its_own_entry_than_another():
    model = similar.train([(0, "적 있는 칸 지나갈 수 있어?"), (0, "적 칸에서 멈춰야 돼?"),
                           (1, "돈 얼마 들어와?"), (1, "보급턴 수익은 얼마")])
    packed = similar.Model(similar.pack(model))
    near = packed.similarity("적이 있는 칸을 지나가도 돼", 2)
    assert near[0] > near.get(1, 0.0)
    far = packed.similarity("수익 얼마나 들어오나", 2)
    assert far[1] > far.get(0, 0.0)


def test_similarity_is_a_cosine():
    docs = [(0, "대응 스택"), (1, "대응 스택은 하나"), (2, "암막턴 정착")]
    model = similar.Model(similar.pack(similar.train(docs)))
    sims = model.similarity("대응 스택", 3)
    assert all(0.0 <= v <= 1.0 + 1e-6 for v in sims.values())
    assert sims[0] == pytest.approx(1.0, abs=1e-4)  # the query is entry 0's only text
    assert sims[0] > sims[1] > sims.get(2, 0.0)
    assert model.similarity("", 3) == {} and model.similarity("ㅋㅋ zz 🙂", 3) == {}
    assert set(model.similarity("대응 스택", 1)) == {0}  # entries past the size are left out


def test_centroids_are_unit_vectors_and_packing_keeps_them():
    c = load()
    raw = similar.train(similar_docs(c), min_weight=0.0, max_entries=0)
    pruned = similar.train(similar_docs(c))
    assert all(w >= similar.MIN_WEIGHT for post in pruned["post"] for _, w in post)
    assert max(map(len, pruned["post"])) <= similar.MAX_ENTRIES
    capped = similar.train(similar_docs(c), min_weight=0.0, max_entries=5)
    at = {k: i for i, k in enumerate(raw["keys"])}  # (a dict: list.index in these loops was quadratic)
    for k, post in zip(capped["keys"], capped["post"]):  # the heaviest five, in entry order
        full = raw["post"][at[k]]
        assert post == sorted(sorted(full, key=lambda ew: -ew[1])[:5])
    assert set(pruned["keys"]) <= set(raw["keys"]) and sum(map(len, pruned["post"])) < sum(map(len, raw["post"]))
    per_entry: dict[int, float] = {}
    for post in raw["post"]:
        for e, w in post:
            per_entry[e] = per_entry.get(e, 0.0) + w * w
    assert per_entry and all(math.isclose(v, 1.0, rel_tol=1e-6) for v in per_entry.values())
    # every entry with a title has a centroid: terms and cards too
    assert len(per_entry) == len(load_index()["ids"])
    packed = similar.pack(raw)
    assert marshal.loads(marshal.dumps(packed)) == packed  # the cache stores it as is
    model = similar.Model(packed)
    assert model.keys == raw["keys"]
    q = "상대 말 있는 칸 지나갈 수 있어?"
    direct = {}
    vec = {k: (1.0 + math.log(n)) * raw["idf"][at[k]] for k, n in similar.grams(q).items() if k in at}
    norm = math.sqrt(sum(v * v for v in vec.values()))
    for k, v in vec.items():
        for e, w in raw["post"][at[k]]:
            direct[e] = direct.get(e, 0.0) + v / norm * w
    got = model.similarity(q, len(load_index()["ids"]))
    assert set(got) == set(direct)
    assert all(math.isclose(got[e], direct[e], abs_tol=2e-4) for e in got)  # weights kept to 1/65535


def test_training_is_deterministic():
    docs = similar_docs(load())[:600]
    assert similar.pack(similar.train(docs)) == similar.pack(similar.train(list(docs)))


# ------------------------------------------------------- in the search ----
@pytest.fixture(scope="module")
def index():
    return load_index()


def test_a_one_word_lookup_is_decided_by_its_word(index):
    # no likeness for a single word: the glossary term it names still comes first
    for q, want in (("아면", "term.mobile"), ("대응", "term.tag-response"), ("ㅈㄴㅍㄱ", "진내폭격")):
        res = search(index, q, limit=1, details=True)
        assert res[0]["id"] == want, (q, res[0]["id"])
        assert res[0]["likeness_share"] == 0.0


def test_a_sentence_is_scored_with_its_likeness(index):
    res = search(index, "쳐들어간 칸에 적 애들 잔뜩이면 싸움 도중에 빠질 수 있나", limit=5, details=True)
    assert all(0.0 <= r["likeness"] <= 100.0 for r in res)
    assert res[0]["likeness_share"] == pytest.approx(1.2 / 2.2, abs=0.01)
    assert any(r["likeness"] > 0 for r in res)


def test_a_question_whose_words_are_not_the_rules_is_found_by_how_it_reads(index):
    # everyday words the rules never use; the entry's players' questions read like it
    top = [r["id"] for r in search(index, "우리 애 셋이 한 놈 돌아가며 패면 피 깎인 게 누적돼?", limit=3)]
    assert "combat.attack" in top, top


def test_likeness_is_explained_and_kept_out_of_plain_json(index):
    rep = search_report(index, "대응 카드 깔아둔 거 언제 뒤집어", limit=3, explain=True)
    assert all("likeness" in r and "likeness_share" in r for r in rep["results"])
    plain = search_report(index, "대응 카드 깔아둔 거 언제 뒤집어", limit=3)
    assert all("likeness" not in r and "likeness_share" not in r for r in plain["results"])


def test_kind_filter_still_holds_for_entries_found_by_likeness_alone(index):
    for kind in KINDS:
        res = search(index, "상대 본진에 들어가면 바로 이기는 거야?", kind=kind, limit=5)
        assert res, kind  # each kind answers this question: an empty list must not pass the filter check
        assert {r["kind"] for r in res} == {kind}


def test_nonsense_stays_weak(index):
    for q in ("냉장고 수리 방법", "오늘 날씨 어때", "주식 투자 어떻게 해"):
        assert search_report(index, q, limit=3)["weak"] is True, q


# ------------------------------------------------------------- caching ----
def test_the_model_is_trained_on_first_need_and_cached(tmp_path, monkeypatch):
    import shutil
    from pathlib import Path

    from flamer_ref import cachefile

    root = Path(__file__).resolve().parents[2]
    data = tmp_path / "data"
    shutil.copytree(root / "rules", data / "rules")
    shutil.copytree(root / "cards", data / "cards")
    monkeypatch.setenv("FLAMER_CACHE_DIR", str(tmp_path / "cache"))
    cachefile.MEMO.clear()
    index = load_index(data)
    cache = tmp_path / "cache"
    assert not list(cache.glob("*.similar"))  # building the index trains nothing
    search(index, "아면", limit=3)
    assert not list(cache.glob("*.similar"))  # a one-word lookup needs no model
    first = [r["id"] for r in search(index, "적 있는 칸 지나갈 수 있어?", limit=5)]
    (saved,) = cache.glob("*.similar")
    cachefile.MEMO.clear()
    searchindex.TRAINED.clear()  # a fresh process: nothing trained in it yet
    calls = []
    monkeypatch.setattr(similar, "train", lambda docs: calls.append(1))  # a fresh process reads the cache
    again = [r["id"] for r in search(load_index(data), "적 있는 칸 지나갈 수 있어?", limit=5)]
    assert again == first and not calls
    # a damaged cache file is not trusted: the model is trained again, with the same answer
    monkeypatch.undo()
    monkeypatch.setenv("FLAMER_CACHE_DIR", str(tmp_path / "cache"))
    blob = bytearray(saved.read_bytes())
    blob[-5] ^= 0xFF
    saved.write_bytes(bytes(blob))
    cachefile.MEMO.clear()
    assert [r["id"] for r in search(load_index(data), "적 있는 칸 지나갈 수 있어?", limit=5)] == first
    assert load_similar(data) is load_similar(data)  # one model per data tree in a process
    cachefile.MEMO.clear()


def test_the_same_texts_are_trained_once_per_process(tmp_path, monkeypatch):
    """searchindex.trained: a copy of the data tree, or an edit that leaves every title, keyword and question
    as it was, reuses the model this process trained; other texts are trained anew (their own model)."""
    import shutil
    from pathlib import Path

    from flamer_ref import cachefile, corpus

    root = Path(__file__).resolve().parents[2]
    trees = []
    for name in ("a", "b"):
        shutil.copytree(root / "rules", tmp_path / name / "rules")
        shutil.copytree(root / "cards", tmp_path / name / "cards")
        trees.append(tmp_path / name)
    combat = trees[1] / "rules" / "clauses" / "combat.yaml"
    text = combat.read_text(encoding="utf-8")
    combat.write_text(text + "\n# 주석 한 줄: 제목, 키워드, 질문은 그대로\n", encoding="utf-8")
    monkeypatch.setenv("FLAMER_CACHE_DIR", "")
    cachefile.MEMO.clear()
    searchindex.TRAINED.clear()
    calls = []
    real = similar.train
    monkeypatch.setattr(similar, "train", lambda docs: calls.append(len(docs)) or real(docs))
    first = load_similar(trees[0])
    second = load_similar(trees[1])
    assert len(calls) == 1 and first is not second  # one model per tree, trained once
    assert (first.keys, first.wts, first.ents) == (second.keys, second.wts, second.ents)
    docs = similar_docs(corpus.load(trees[1]))
    changed = [(e, t + " 추가") if i == 0 else (e, t) for i, (e, t) in enumerate(docs)]
    searchindex.trained(changed)
    assert len(calls) == 2  # other texts: trained
    assert len(searchindex.TRAINED) <= searchindex.TRAINED_KEPT
    cachefile.MEMO.clear()

