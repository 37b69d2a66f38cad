"""`flamer simulate --format html|md`: every scenario in scenarios/ and every
example scenario of the corpus renders as a real HTML page (balanced markup,
inline SVG, lang="ko", keep-all) and as real Markdown; input-derived text is
escaped in both; the pictures (flamer_ref/diagram.py) show what the result says."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from inprocess import invoke

from flamer_ref import diagram
from flamer_ref.people import piece_names
from flamer_ref.corpus import load
from flamer_ref.engine.turns import parse_any, run_any
from flamer_ref.render import md_escape

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))

XSS = ("<script>alert(1)</script>", "<img src=x onerror=1>")
XSS_ESCAPED = ("&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=1&gt;")


def example_cases() -> list[tuple[str, dict]]:
    """Every example scenario, enumerated as runner.check_examples does (examples, then FAQ;
    a list of scenarios is one case each, named ID#n)."""
    corpus = load()
    out = []
    items = list(corpus.examples.items()) + list(corpus.faq.items())
    for eid, ex in items:
        scn = ex.get("scenario")
        if not scn:
            continue
        if isinstance(scn, list):
            out += [(f"{eid}#{i + 1}", s) for i, s in enumerate(scn)]
        else:
            out.append((eid, scn))
    return out


EXAMPLES = example_cases()


def simulate(path, *args) -> str:
    res = invoke("simulate", str(path), *args)
    assert res.exit_code == 0, (res.stdout, res.stderr)
    assert "Traceback" not in res.stdout + res.stderr
    return res.stdout


def write_example(tmp_path, case_id: str, scn: dict) -> Path:
    p = tmp_path / (re.sub(r"[^\w.-]", "_", case_id) + ".yaml")
    p.write_text(json.dumps(scn, ensure_ascii=False, default=str), encoding="utf-8")  # JSON is YAML
    return p


# ------------------------------------------------------------- HTML check ----
VOID = {"meta", "link", "br", "hr", "img", "input", "col", "area", "base", "wbr", "source"}


class PageCheck(HTMLParser):
    """Balanced tags (every element opened is closed in order), the tags used, text seen."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: dict[str, int] = {}
        self.attrs: list[tuple[str, dict]] = []
        self.svg_text: list[str] = []
        self._in_text = 0

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attrs.append((tag, dict(attrs)))
        if tag in ("text", "title") and "svg" in self.stack:  # labels and tooltips of the pictures
            self._in_text += 1
            self.svg_text.append("")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attrs.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag in ("text", "title") and "svg" in self.stack:
            self._in_text -= 1

    def handle_data(self, data):
        if self._in_text and self.svg_text:
            self.svg_text[-1] += data


def check_page(html: str) -> PageCheck:
    assert html.lstrip().startswith("<!DOCTYPE html>")
    p = PageCheck()
    p.feed(html)
    p.close()
    assert not p.errors, p.errors[:5]
    assert not p.stack, f"unclosed: {p.stack}"
    assert '<html lang="ko">' in html
    assert re.search(r":lang\(ko\)\s*\{[^}]*word-break:\s*keep-all", html)
    assert "<svg" in html and p.tags.get("svg", 0) >= 1
    assert "<pre" not in html
    for bad in ("script", "iframe", "object", "embed", "img"):
        assert bad not in p.tags, f"<{bad}> in the page"
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    for tag, attrs in p.attrs:
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
    ids = [a["id"] for _, a in p.attrs if "id" in a]
    assert len(ids) == len(set(ids)), "ids (SVG patterns, markers) unique on the page"
    for ref in re.findall(r"url\(#([^)]+)\)", html):
        assert ref in ids, ref
    return p


def check_markdown(md: str) -> None:
    assert "<script" not in md.lower() and "<img" not in md.lower()
    assert not md.lstrip().startswith("```"), "the whole answer in a code block is not Markdown"
    assert re.search(r"^# \S", md, re.M), "a Markdown heading"


# ---------------------------------------------------- scenarios/ and corpus ----
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_files_render_as_pages_and_markdown(path):
    page = check_page(simulate(path, "--format", "html"))
    assert page.tags.get("rect", 0) > 3
    check_markdown(simulate(path, "--format", "md"))


@pytest.mark.parametrize("case_id,scn", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_corpus_examples_render_as_pages_and_markdown(tmp_path, case_id, scn):
    path = write_example(tmp_path, case_id, scn)
    html = simulate(path, "--format", "html")
    check_page(html)
    kind = scn.get("kind", "combat")
    assert {"combat": "전투 셀", "move": "이동 전", "victory": "승리확인턴", "field": "번 자리",
            "round": "라운드 끝 상태"}[kind] in html
    check_markdown(simulate(path, "--format", "md"))


def test_examples_cover_every_kind():
    assert {s.get("kind") for _, s in EXAMPLES} >= {"combat", "move", "victory", "field"}
    assert len(EXAMPLES) >= 30


# --------------------------------------------------------------- escaping ----
HOSTILE = {
    "combat": """\
kind: combat
title: "<script>alert(1)</script> 제목 <img src=x onerror=1>"
attacker: "<script>alert(1)</script>"
cells:
  "2,4":
    "<script>alert(1)</script>":
    - {id: "<img src=x onerror=1>", card: 수문장}
    - {id: "a*b_[x](y)", name: "<script>alert(1)</script>", lv: 2, hp: 2, atk: 1}
    "<img src=x onerror=1>":
    - {id: "<script>alert(1)</script>", name: "<img src=x onerror=1>", lv: 1, hp: 1, atk: 1}
    - {id: s1, card: 개미, state: settled}
""",
    "move": """\
kind: move
title: "<script>alert(1)</script> 이동 <img src=x onerror=1>"
attacker: "<script>alert(1)</script>"
board: {width: 5, height: 5}
cells:
  "1,1":
    "<script>alert(1)</script>":
    - {id: "<img src=x onerror=1>", card: 수문장}
    - {id: "p2", name: "<script>alert(1)</script>", lv: 2, hp: 2, atk: 1}
  "2,2":
    "<img src=x onerror=1>":
    - {id: "<script>x</script>", name: "<img src=x onerror=1>", lv: 1, hp: 1, atk: 1, state: settled}
activate: ["1,1"]
moves:
- {piece: "<img src=x onerror=1>", path: ["2,2"]}
- {piece: "p2", path: ["2,2", "3,3"]}
""",
    "victory": """\
kind: victory
title: "<script>alert(1)</script> 승리 <img src=x onerror=1>"
player: "<script>alert(1)</script>"
vp: {"<script>alert(1)</script>": 3, "<img src=x onerror=1>": 1}
homes: {"<img src=x onerror=1>": ["4,4"]}
cells:
  "0,2": {"<script>alert(1)</script>": [{id: "<img src=x onerror=1>", name: "<script>alert(1)</script>", lv: 1, hp: 1,
          atk: 1, state: settled}]}
  "4,4": {"<script>alert(1)</script>": [{id: d2, card: 수문장}],
          "<img src=x onerror=1>": [{id: "<script>y</script>", card: 개미, state: settled}]}
""",
    "field": """\
kind: field
title: "<script>alert(1)</script> 필드 <img src=x onerror=1>"
side: "<script>alert(1)</script>"
field: [수문장, 장인, null, null, null]
actions:
- {place: 별마대, slot: 3, face: up}
- {place: 개미, slot: 1, face: down}
""",
    "game": """\
kind: game
title: "<script>alert(1)</script> 게임 <img src=x onerror=1>"
first_player: "<script>alert(1)</script>"
board: {width: 5, height: 5, homes: {"<img src=x onerror=1>": ["4,4"]}}
cells:
  "1,1":
    "<script>alert(1)</script>":
    - {id: "<img src=x onerror=1>", card: 수문장}
  "2,2":
    "<img src=x onerror=1>":
    - {id: "<script>x</script>", name: "<img src=x onerror=1>", lv: 1, hp: 1, atk: 1, state: settled}
rounds:
- move: {activate: ["1,1"], moves: [{piece: "<img src=x onerror=1>", path: ["2,2", "3,3"]}]}
- move: {activate: ["2,2"], moves: [{piece: "<script>x</script>", path: ["1,1"]}]}
""",
}


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_hostile_input_is_escaped_in_html_and_md(tmp_path, kind):
    path = tmp_path / f"{kind}.yaml"
    path.write_text(HOSTILE[kind], encoding="utf-8")
    html = simulate(path, "--format", "html")
    page = check_page(html)
    assert "<script" not in html and "<img" not in html
    for esc in XSS_ESCAPED:
        assert esc in html, esc
    # hostile ids and side codes reach the pictures too, as text
    if kind != "field":
        assert any(XSS[0] in t or XSS[1] in t for t in page.svg_text)
    md = simulate(path, "--format", "md")
    check_markdown(md)
    for esc in XSS_ESCAPED:
        assert esc in md, esc
    text = simulate(path)
    assert XSS[0] in text  # plain text is shown as written


def test_md_escape_filter():
    assert md_escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert md_escape("a*b_c`d[e](f)|g") == "a\\*b\\_c\\`d\\[e\\](f)\\|g"
    assert md_escape("# 제목") == "\\# 제목" and md_escape("#1 BGM") == "#1 BGM"
    assert md_escape("- x") == "\\- x" and md_escape("1. x") == "1\\. x" and md_escape("2,4") == "2,4"
    assert md_escape("a\nb") == "a b" and md_escape(None) == ""


# ------------------------------------------------------- what is drawn ----
@pytest.fixture(scope="module")
def corpus():
    return load()


def run_file(path: Path, corpus) -> dict:
    from flamer_ref.yamlio import read_yaml

    return run_any(parse_any(read_yaml(path, path.name), path.name, corpus), corpus, None)


def texts(scene) -> list[dict]:
    return [i for i in scene["items"] if i["el"] == "text"]


def test_side_colours_follow_the_rulebook_then_the_order():
    c = diagram.side_colours(["DGM", "BGM"])
    assert c["DGM"]["name"] == "blue" and c["BGM"]["name"] == "green"
    c = diagram.side_colours(["BGM", "DGM"])
    assert c["DGM"]["name"] == "blue" and c["BGM"]["name"] == "green"
    c = diagram.side_colours(["A", "B"])
    assert c["A"]["name"] == "blue" and c["B"]["name"] == "green"
    c = diagram.side_colours(["ME", "DGM"])  # DGM keeps blue; the other side gets what is left
    assert c["DGM"]["name"] == "blue" and c["ME"]["name"] == "green"


def test_combat_cards_show_faces_and_fates(corpus):
    data = run_file(ROOT / "scenarios" / "combat-scene5.yaml", corpus)
    (scene,) = diagram.combat_cells(data)
    assert scene["cell"] == "2,4" and scene["outcome"] == {"word": "won", "args": {"side": "DGM", "rounds": 4}}
    hatched = [i for i in scene["items"] if i["el"] == "rect" and str(i["fill"]).startswith("url(#cb0-hatch")]
    # the two pieces set face down, named by their cards (issue 17: no piece id in front of a person)
    assert {i["tip"] for i in hatched} == {"행성굴착기", "증폭기"}
    assert all(i["dash"] for i in hatched)
    fates = {i["word"]: i["args"] for i in texts(scene) if (i["word"] or "").startswith("fate-")}
    assert set(fates) == {"fate-captured", "fate-survived"}
    words = [(i["word"], i["args"]) for i in texts(scene) if i["word"] == "fate-captured"]
    assert sorted(a.get("side") for _, a in words) == ["BGM", "DGM", "DGM", "DGM"]
    flip = [i["args"] for i in texts(scene) if i["word"] == "face" and i["args"]["flip_to"]]
    assert flip == [{"state": "settled", "flip_to": "mobile", "flip_step": 2, "came_from": None}]


def test_calculation_table_has_rounds_and_settled_hits(corpus):
    data = run_file(ROOT / "scenarios" / "combat-scene5.yaml", corpus)
    groups = diagram.combat_rounds(data)["2,4"]
    assert [g["round"] for g in groups] == [1, 2, 3, 4]
    attacks = [r for g in groups for r in g["rows"] if r["kind"] == "attack"]
    assert len(attacks) == len([e for e in data["events"] if e["type"] == "attack"])
    settled = [r for r in attacks if r["settled"]]
    assert [(r["actor"], r["target"]) for r in settled] == [("art", "amp")]
    assert settled[0]["results"][0]["what"] == "capture"
    first = groups[0]["rows"][3]
    assert (first["actor"], first["target"], first["hp_before"], first["hp_after"]) == ("giant", "gk", 3, 0)
    assert first["results"][0]["side"] == "BGM"
    assert groups[0]["check"]["next"] == "repeat" and groups[-1]["check"]["next"] == "step7"
    html = simulate(ROOT / "scenarios" / "combat-scene5.yaml", "--format", "html")
    row = re.search(r"<tr><td class=\"num\">4</td><td><span class=\"pl\">장인</span>.*?</tr>", html.split('<th colspan="6">4회차</th>')[1], re.S)
    assert row and "포획(정착 피격)" in row.group(0) and "3 → 2" not in row.group(0)


def test_long_combats_are_shortened_in_the_table():
    events = []
    for r in range(1, 41):
        events += [{"type": "step", "cell": "1,1", "step": 4, "round": r, "order": ["a"]},
                   {"type": "attack", "cell": "1,1", "step": 4, "round": r, "actor": "a", "side": "A", "target": "b",
                    "target_state": "mobile", "amount": 1, "hp_before": 100 - r, "hp_after": 99 - r}]
    groups = diagram.combat_rounds({"events": events})["1,1"]
    rounds = [g["round"] for g in groups if g["round"]]
    assert rounds == list(range(1, 11)) + list(range(36, 41))
    (gap,) = [g for g in groups if "elided" in g]
    assert (gap["elided"], gap["from"], gap["to"]) == (25, 11, 35)


def test_move_board_draws_paths_refusals_and_encounters(corpus, tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text(HOSTILE["move"].replace("<script>alert(1)</script>", "A").replace("<img src=x onerror=1>", "B")
                    .replace("<script>x</script>", "b1"), encoding="utf-8")
    data = run_file(path, corpus)
    assert [e["move"] for e in data["errors"]] == [1]
    fig = diagram.move_boards(data)
    before, after = fig["before"], fig["after"]
    lines = [i for i in before["items"] if i["el"] == "polyline"]
    # move 2 runs on past the enemy cell (2,2): it stops there (drawn as gone), the rest is refused
    assert len(lines) == 3
    ok, went, refused = lines
    assert ok["stroke"] == went["stroke"] == diagram.BLUE["stroke"] and not ok["dash"] and not went["dash"]
    assert refused["stroke"] == diagram.RED and refused["dash"]
    assert [i["args"]["nums"] for i in texts(before) if i["word"] == "move-no"] == ["1·2", "2"]
    assert [i["word"] for i in texts(after)].count("encounter") == 1
    # 25 cells of the 5 x 5 board, drawn as squares; pieces as numbered tokens, the settled one hatched
    assert len([i for i in before["items"] if i["el"] == "rect" and i["w"] == diagram.SQ]) == 25
    # (each side in its own shape: the first side's discs, the other side's diamonds — polygons)
    tokens = [i for i in after["items"] if i["el"] in ("circle", "polygon") and i["tip"]]
    assert {t["el"] for t in tokens} == {"circle", "polygon"}
    names = piece_names(data)  # tooltips name the pieces as a player reads them, never by id
    assert {t["tip"] for t in tokens} == {names[p] for p in ("B", "p2", "b1")}
    assert [t["tip"] for t in tokens if str(t["fill"]).startswith("url(")] == [names["b1"]]
    assert data["board"]["cells"][:3] == ["0,0", "0,1", "0,2"] and data["pieces"]["b1"]["state"] == "settled"


def test_hex_boards_are_drawn_as_hexagons(corpus, tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text('kind: move\nattacker: A\nboard: {width: 3, height: 3, adjacency: hex}\n'
                    'cells:\n  "0,0": {A: [{id: a, card: 수문장}]}\nactivate: ["0,0"]\n'
                    'moves:\n- {piece: a, path: ["1,0", "1,1"]}\n', encoding="utf-8")
    data = run_file(path, corpus)
    fig = diagram.move_boards(data)
    hexes = [i for i in fig["before"]["items"] if i["el"] == "polygon" and len(i["points"]) == 6]
    assert len(hexes) == 9
    check_page(simulate(path, "--format", "html"))


def test_victory_board_colours_cells_by_status(corpus):
    data = run_file(ROOT / "scenarios" / "victory-scene1.yaml", corpus)
    fig = diagram.victory_board(data)
    words = [i["word"] for i in texts(fig["board"])]
    assert words.count("secured") == 6 and words.count("home") == 2
    fills = {i["fill"] for i in fig["board"]["items"] if i["el"] == "rect"}
    assert diagram.BLUE["fill"] in fills and diagram.GREEN["fill"] in fills


def test_field_slots_show_faces_stacks_and_levels(corpus):
    ex = dict(EXAMPLES)["ex.field.full-field-response#1"]
    data = run_any(parse_any(ex, "x", corpus), corpus, None)
    fig = diagram.field_slots(data)["field"]
    words = [(i["word"], i["args"]) for i in texts(fig)]
    assert [a["n"] for w, a in words if w == "slot"] == [1, 2, 3, 4, 5]
    downs = [a for w, a in words if w == "face-card" and a["face"] == "down"]
    assert downs, "a face-down card"
    assert [(a["name"], a["retired"]) for w, a in words if w == "under"] == [
        (u, u in data["retired"]) for s in data["slots"] for u in s["under"]]
    assert any(w == "level" for w, _ in words)


def test_compare_and_branches_pages(tmp_path):
    html = simulate(ROOT / "scenarios" / "vacated-by-cost.yaml", "--compare", "2026-09-23", "--format", "html")
    page = check_page(html)
    assert page.tags["svg"] == 2  # the cell at each date
    ids = [a["id"] for _, a in page.attrs if "id" in a]
    assert ids and len(ids) == len(set(ids)), "SVG ids unique on the page"
    assert "2026-09-23 기준 결과" in html and "2026-09-25 기준 결과" in html
    html = simulate(ROOT / "scenarios" / "two-cells.yaml", "--all-branches", "--format", "html")
    p = PageCheck()
    p.feed(html)
    assert not p.errors and not p.stack and '<html lang="ko">' in html and "<pre" not in html
    md = simulate(ROOT / "scenarios" / "two-cells.yaml", "--all-branches", "--format", "md")
    assert md.startswith("```")  # no Markdown page of its own: the text answer, as a code block
