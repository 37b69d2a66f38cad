"""`flamer fight`: a one-cell combat written on one line, turned into a scenario.

    "수문장 x2 vs 개미(lv1 hp2 atk1), 증폭기(정착 atk0)"

Left of `vs` (or a lone `대`) is the attacker, right the defender. Pieces are
separated by commas; each is a card name (corrected like `flamer card`, never
silently) or an ad-hoc name with lv, hp and atk, with optional modifiers in
parentheses or after the name and an optional count. Response declarations
and (전투) cards come from options in the same small language:

    WHO CARD [ABILITY] [TARGET] [비용 PIECE] [셀 CELL]

The result is a plain scenario mapping (English keys, as a scenario file
would hold) plus the notices to show. Nothing here resolves anything: the
scenario goes through the same parser and engine as `flamer simulate`
(flamer_ref/dispute.py), so `fight --json` equals `simulate --json` of the
scenario that `--save` writes (plus `player_stats` when the player gave values,
and `link` with --link).

Stats the card data leaves unknown (미상) stay unknown in the scenario: the
engine's run tells what it reads to decide and nobody gave, and that is what
the fight asks for (`needs`, `supply`) — card by card, as `--stat "개미 hp 2"`
(`apply_stats`) gives it; those values are recorded as the player's own
(`Fight.player`), never as card data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .engine.types import STAT_MIN, stat_in_range
from .digits import fold
from .errors import Ambiguous, BadInput, NotFound
from .korean import cut, josa, quoted


def _rule_no(cid: str) -> str:
    """'조항 4.8': a clause named by its number (render.rule_no, read when a message is made)."""
    from .render import rule_no

    return rule_no(cid)

#: The combat cell of a one-line fight (there is only one).
DEFAULT_CELL = "1,1"
#: Fallback side codes when the cards do not tell the two factions apart.
FALLBACK_SIDES = ("A", "B")

#: the side separator: ` vs `, ` 대 `, or a `vs` no letter touches. Linear time: a match may start only where a
#: run of whitespace starts (`(?<!\s)`) — where the leftmost match starts anyway — so a long run that is not
#: followed by `vs` is scanned once, not once from each of its positions (40,000 spaces: 114 s → 0.01 s).
_SEP = re.compile(r"(?<!\s)\s+(?:vs\.?|VS\.?|Vs\.?|대)\s+|(?<!\s)\s*(?<![A-Za-z])vs\.?(?![A-Za-z])\s*", re.IGNORECASE)
_COUNT = re.compile(r"^(?:[x×X*]\s*(\d+)|(\d+)\s*기)$")
_STAT = re.compile(r"^(lv|level|레벨|hp|체력|atk|공격력|공격|cost|비용|코스트)\s*(?:[:=]\s*)?(-?\d+)$", re.IGNORECASE)
_STAT_KEYS = {"lv": "lv", "level": "lv", "레벨": "lv", "hp": "hp", "체력": "hp", "atk": "atk", "공격력": "atk",
              "공격": "atk", "cost": "cost", "비용": "cost", "코스트": "cost"}
_STATES = {"정착": "settled", "뒷면": "settled", "settled": "settled",
           "기동": "mobile", "앞면": "mobile", "mobile": "mobile"}
_STRUCTURE = {"구조물", "structure"}
_ATTACKER_WORDS = {"공격자", "공격", "턴플레이어", "attacker", "a"}
_DEFENDER_WORDS = {"수비자", "수비", "defender", "d"}
#: Largest count a piece may have: a side holds at most three pieces in a cell (move.limit).
MAX_COUNT = 3
STAT_NAMES = {"lv": "Lv", "hp": "HP", "atk": "ATK", "cost": "cost"}


@dataclass(frozen=True)
class Missing:
    """A stat the card database does not know and the line does not give, which the verdict needs
    (the engine read it: a stat-unknown problem)."""

    piece: str  # piece id
    label: str  # what the player typed for the piece (the card's name as typed, or the ad-hoc name)
    stat: str  # lv | hp | atk | cost
    card: str | None = None  # the card (None: a piece named in the line only)
    why: dict | None = None  # what the engine needed it for (the problem's `why`, worded by the catalogue)

    def to_json(self) -> dict:
        """The interface's entry of a missing-stats error: {piece, card, label, stat}."""
        return {"piece": self.piece, "card": self.card, "label": self.label, "stat": self.stat}


@dataclass
class Fight:
    """The scenario built from a line, and what the CLI still has to tell or ask."""

    doc: dict
    notices: list[dict] = field(default_factory=list)  # {"typed": …, "card": …, "where": …}
    missing: list[Missing] = field(default_factory=list)
    #: piece id → the name the player typed for it
    typed: dict = field(default_factory=dict)
    #: side codes the line did not give and the cards could not tell apart (FALLBACK_SIDES), by role:
    #: {code: "attacker" | "defender"} — people read 공격자 / 수비자 for them, never the codes
    roles: dict = field(default_factory=dict)
    #: the player's own values for stats the card data leaves unknown, in the order given:
    #: {card, label, stat, value, pieces, spec, prompted} (spec: as --stat takes it, for the link;
    #: prompted: typed at the terminal prompt rather than given with --stat)
    player: list[dict] = field(default_factory=list)


def stat_rule(stat: str) -> str:
    """The stat rule in words, for the line and the prompt: 'HP는 1 이상 — 전투를 시작할 때의 HP', '0 이상'."""
    least = STAT_MIN[stat]
    return f"HP는 {least} 이상 — 전투를 시작할 때의 HP" if stat == "hp" else f"{least} 이상"


def _q(word, pair: str) -> str:
    """'word' quoted with the particle its last syllable takes: '개미'가, '수문장'이; a long word cut as every
    error repeats a person's input (korean.quoted: its first ECHO_MAX characters and '…')."""
    return quoted(word, pair)


# ------------------------------------------------------------------ pieces ----
@dataclass
class _PieceText:
    name: str
    state: str | None = None
    stats: dict = field(default_factory=dict)
    structure: bool | None = None
    count: int = 1
    text: str = ""


_KO_COUNTS = {"하나": 1, "한": 1, "둘": 2, "두": 2, "셋": 3, "세": 3}


def _modifier(tok: str, p: _PieceText) -> bool:
    """Apply one modifier token to p; False when the token is not a modifier."""
    t = tok.strip()
    if not t:
        return True
    low = t.lower()
    if low in _STATES:
        if p.state is not None and p.state != _STATES[low]:
            raise BadInput(f"{quoted(p.text)}: 정착과 기동을 함께 적었습니다. 하나만 적으세요.")
        p.state = _STATES[low]
        return True
    if low in _STRUCTURE:
        p.structure = True
        return True
    m = _STAT.match(t)
    if m:
        key, value = _STAT_KEYS[m.group(1).lower()], int(m.group(2))
        if not stat_in_range(key, value):  # the one rule of scenario files (engine.types.STAT_MIN)
            raise BadInput(f"{quoted(p.text)}: {josa(f'{STAT_NAMES[key]} {value}', '은/는')} 쓸 수 없습니다 "
                           f"({stat_rule(key)}).")
        p.stats[key] = value
        return True
    m = _COUNT.match(t) or re.match(r"^(\d+)\s*(?:기|개|명)?$", t)
    if m:
        p.count = int(next(g for g in m.groups() if g))
        return True
    m = re.match(r"^(하나|한|둘|두|셋|세)\s*(?:기|개|명)?$", t)
    if m and (t not in ("한", "두", "세")):
        p.count = _KO_COUNTS[m.group(1)]
        return True
    return False


def _join_stat_words(words: list[str]) -> list[str]:
    """`lv 6`, `HP: 3` → `lv6`, `HP3`; `2 기` → `2기`."""
    out: list[str] = []
    for w in words:
        if out and re.fullmatch(r"[:=]?-?\d+", w) and re.fullmatch(r"(?i)(lv|level|레벨|hp|체력|atk|공격력|공격|cost|비용|코스트)[:=]?",
                                                                 out[-1]):
            out[-1] = out[-1].rstrip(":=") + w.lstrip(":=")
        elif out and w in ("기", "개", "명") and re.fullmatch(r"\d+|하나|둘|셋|한|두|세", out[-1]):
            out[-1] += w
        else:
            out.append(w)
    return out


def _split_piece(text: str) -> _PieceText:
    raw = text.strip()
    p = _PieceText(name="", text=raw)
    # counts glued to the name or the parentheses: 수문장x2, 수문장×2, 수문장*2, 개미(lv1)x2
    if re.search(r"(?:(?<=[^\sA-Za-z])|\s)[x×X*]\s*[-−]\s*\d+\s*$", raw):
        raise BadInput(f"{quoted(raw)}: 개수는 1~{MAX_COUNT}만 됩니다 (한 셀에 한 진영은 3기까지, {_rule_no('move.limit')}).")
    m = re.search(r"(?:(?<=[^\sA-Za-z])|\s)([x×X*])\s*(\d+)\s*$", raw)
    if m:
        p.count = int(m.group(2))
        raw = raw[: m.start()].rstrip()
    mods: list[str] = []
    for group in re.findall(r"[(（]([^)）]*)[)）]", raw):
        mods += _join_stat_words(re.split(r"[\s,，/·]+", group.strip()))
    rest = re.sub(r"[(（][^)）]*[)）]", " ", raw)
    if re.search(r"[()（）]", rest):
        raise BadInput(f"{quoted(text.strip())}: 괄호가 맞지 않습니다. 예: 개미(lv1 hp2 atk1)")
    words = _join_stat_words(rest.split())
    # a count written before the name: 2기 수문장, 두 수문장
    while len(words) > 1 and _modifier_probe(words[0]) == "count":
        mods.insert(0, words.pop(0))
    # modifiers written after the name without parentheses: 행성굴착기 정착, 수문장 2기, 수문장 3
    while len(words) > 1 and _modifier_probe(words[-1]):
        mods.insert(0, words.pop())
    for tok in mods:
        if not _modifier(tok, p):
            raise BadInput(f"{quoted(text.strip())}: {_q(tok, '을/를')} 모릅니다. "
                           "쓸 수 있는 말: 정착, 기동, 구조물, lv5, hp3, atk2, cost4 (레벨5, 체력3, 공격2, 비용4), "
                           "개수 x2·2기·둘")
    p.name = " ".join(words)
    if not p.name:
        raise BadInput(f"{quoted(text.strip())}: 기물 이름이 없습니다.")
    if not 1 <= p.count <= MAX_COUNT:
        raise BadInput(f"{quoted(text.strip())}: 개수는 1~{MAX_COUNT}만 됩니다 (한 셀에 한 진영은 3기까지, {_rule_no('move.limit')}).")
    return p


def _modifier_probe(tok: str) -> str | None:
    """What kind of modifier a loose word is ('count', 'other'), without applying it."""
    probe = _PieceText(name="", text=tok)
    try:
        if not _modifier(tok, probe):
            return None
    except BadInput:
        return "other"
    return "count" if probe.count != 1 or re.match(r"^(\d+|하나|한)", tok) else "other"


def _split_top(text: str) -> list[str]:
    """Split on commas (and + 、) that are not inside parentheses."""
    items, depth, cur = [], 0, []
    for ch in text:
        if ch in "(（":
            depth += 1
        elif ch in ")）":
            depth = max(0, depth - 1)
        if depth == 0 and ch in ",，、+":
            items.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    items.append("".join(cur))
    return [t.strip() for t in items if t.strip()]


def _card_names(corpus) -> dict[str, str]:
    names = {c["name"]: c["name"] for c in corpus.cards.values()}
    for c in corpus.cards.values():
        for a in c.get("aliases") or []:
            names.setdefault(a, c["name"])
    return names


def _squash(s: str) -> str:
    return "".join(s.split()).lower()


def _exact_card(corpus, name: str) -> str | None:
    key = _squash(name)
    for alias, card in _card_names(corpus).items():
        if _squash(alias) == key:
            return card
    return None


def _resolve_card(corpus, typed: str, where: str, notices: list[dict], pieces_only: bool) -> str:
    """A typed card name → the card, as `flamer card` resolves it (a correction becomes a notice)."""
    from .names import resolve_name

    exact = _exact_card(corpus, typed)
    if exact:
        return exact
    names = {a: c for a, c in _card_names(corpus).items()
             if not pieces_only or corpus.cards[c]["type"] == "piece"}
    try:
        card, corrected = resolve_name(typed, names, "카드")
    except Ambiguous as exc:
        raise Ambiguous(f"{where}: {quoted(typed)}에 맞는 카드가 여럿입니다. 하나를 골라 다시 입력하세요.",
                        exc.candidates) from None
    except NotFound as exc:
        raise NotFound(f"{where}: 카드 데이터베이스에 {_q(typed, '이/가')} 없습니다. 데이터베이스에 없는 기물이면 "
                       f"'{cut(typed)}(lv2 hp2 atk1)'처럼 Lv, HP, ATK를 함께 적으세요.", exc.candidates) from None
    if corrected:
        notices.append({"typed": typed, "card": card, "where": where})
    return card


# ------------------------------------------------------------------ sides ----
def split_sides(line: str) -> tuple[str, str]:
    parts = _SEP.split(line.strip(), maxsplit=1) if line.strip() else []
    if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
        raise BadInput("전투를 '공격자 기물 vs 수비자 기물'로 적으세요 — 왼쪽이 공격자(턴 플레이어), 오른쪽이 수비자. "
                       "예: flamer fight \"거신 vs 별마대, 행성굴착기(정착)\"")
    if _SEP.search(parts[1]):
        raise BadInput("'vs'가 두 번 나옵니다. 한 줄에는 공격자와 수비자 두 편만 적을 수 있습니다.")
    return parts[0].strip(), parts[1].strip()


def _side_prefix(text: str) -> tuple[str | None, str]:
    """`DGM: 수문장, 장인` → ("DGM", "수문장, 장인")."""
    m = re.match(r"^\s*([A-Za-z][A-Za-z0-9_-]{0,11}|[가-힣]{1,6})\s*[:：]\s*(.*)$", text, re.DOTALL)
    if m and m.group(2).strip():
        return m.group(1), m.group(2)
    odd = re.match(r"^\s*([^\s:：]{1,24})\s*[:：]", text)
    if odd:  # a side code the scenario format cannot take (<b>: 수문장) is refused, never read as a name
        raise BadInput(f"진영 코드 {_q(odd.group(1), '은/는')} 쓸 수 없습니다. 영문자로 시작하는 영문·숫자 12자까지"
                       "(예: DGM) 또는 한글 6자까지 적으세요.")
    return None, text


def _pieces(text: str) -> list[_PieceText]:
    items = _split_top(text)
    if not items:
        raise BadInput("기물이 없는 편이 있습니다. 양쪽에 기물을 하나 이상 적으세요.")
    return [_split_piece(t) for t in items]


# ----------------------------------------------------------- declarations ----
def _side_of(word: str, sides: tuple[str, str]) -> str | None:
    w = word.lower()
    if w in _ATTACKER_WORDS or word == sides[0]:
        return sides[0]
    if w in _DEFENDER_WORDS or word == sides[1]:
        return sides[1]
    return None


def _piece_ref(corpus, word: str, doc_pieces: list[dict], where: str, notices: list[dict]) -> str:
    """A piece named in a declaration: its id, or a card name that only one piece has."""
    ids = [p["id"] for p in doc_pieces]
    if word in ids:
        return word
    hits = [p for p in doc_pieces if p.get("card") and _squash(p["card"]) == _squash(word)]
    if not hits:
        hits = [p for p in doc_pieces if p.get("name") and _squash(p["name"]) == _squash(word)]
    if not hits:
        card = _exact_card(corpus, word)
        if card is None:
            try:
                card = _resolve_card(corpus, word, where, notices, pieces_only=True)
            except (NotFound, Ambiguous):
                raise NotFound(f"{where}: 기물 {_q(word, '이/가')} 이 전투에 없습니다.", [(i, "") for i in ids]) from None
        hits = [p for p in doc_pieces if p.get("card") == card]
    if len(hits) == 1:
        return hits[0]["id"]
    if not hits:
        raise NotFound(f"{where}: 기물 {_q(word, '이/가')} 이 전투에 없습니다.", [(i, "") for i in ids])
    named = [p["id"] for p in hits]
    raise Ambiguous(f"{where}: {_q(word, '이/가')} 가리키는 기물이 여럿입니다. {', '.join(named[:2])}처럼 번호를 붙여 "
                    "적으세요.",
                    [(p["id"], f"{p['_side']} · {'정착' if p.get('state') == 'settled' else '기동'}") for p in hits],
                    [f"{p['id']} ({'정착' if p.get('state') == 'settled' else '기동'})" for p in hits])


def parse_declaration(corpus, text: str, sides: tuple[str, str], doc_pieces: list[dict], cell: str,
                      where: str, notices: list[dict]) -> dict:
    """`수비자 재부팅 행성굴착기` → {side: …, card: 재부팅, target: <id>}."""
    words = text.split()
    if len(words) < 2:
        raise BadInput(f"{where} {quoted(text)}: '누가 카드 [대상] [비용 기물] [셀 x,y]' 순서로 적으세요. "
                       "예: 수비자 재부팅 행성굴착기")
    side = _side_of(words[0], sides)
    if side is None:
        raise BadInput(f"{where} {quoted(text)}: 첫 말 {_q(words[0], '은/는')} 공격자·수비자 또는 진영 코드({sides[0]}, {sides[1]})여야 합니다.")
    rest = words[1:]
    # the longest run of words that is a card name exactly (card names may hold spaces: 피 땀 눈물). A run of k
    # words squashes to at least k characters, so no run longer than the longest squashed name can be one
    # (20,000 words tried every run, each a join of up to 40,000 characters)
    card = None
    longest = max(len(_squash(a)) for a in _card_names(corpus))
    for k in range(min(len(rest), longest), 0, -1):
        card = _exact_card(corpus, " ".join(rest[:k]))
        if card:
            rest = rest[k:]
            break
    if card is None:
        card = _resolve_card(corpus, rest[0], where, notices, pieces_only=False)
        rest = rest[1:]
    item: dict = {"side": side, "card": card}
    abilities = [a["name"] for a in corpus.cards[card]["abilities"]]
    i = 0
    while i < len(rest):
        w = rest[i]
        if w in ("비용", "cost", "헌납", "파괴") and i + 1 < len(rest):
            item.setdefault("cost", []).append({"destroy": _piece_ref(corpus, rest[i + 1], doc_pieces, where,
                                                                      notices)})
            i += 2
        elif w in ("셀", "cell") and i + 1 < len(rest):
            item["cell"] = rest[i + 1]
            i += 2
        elif w in abilities and w != card and "ability" not in item:
            item["ability"] = w
            i += 1
        elif "target" not in item:
            item["target"] = _piece_ref(corpus, w, doc_pieces, where, notices)
            i += 1
        else:
            raise BadInput(f"{where} {quoted(text)}: {_q(w, '을/를')} 어떻게 읽을지 모릅니다 (대상은 하나만 적을 수 있습니다).")
    if "cost" in item and len(item["cost"]) == 1:
        item["cost"] = item["cost"][0]
    item.setdefault("cell", cell)
    return item


# ------------------------------------------------------------------- build ----
def build(corpus, line: str, responses: list[str] | None = None, battles: list[str] | None = None,
          cell: str = DEFAULT_CELL, as_of: str | None = None) -> Fight:
    """The scenario mapping for a one-line fight (not yet validated: the scenario parser does that)."""
    notices: list[dict] = []
    for what, text in (("전투", line), *((f"--response #{i}", t) for i, t in enumerate(responses or (), 1)),
                       *((f"--battle #{i}", t) for i, t in enumerate(battles or (), 1))):
        bad = next((i for i, ch in enumerate(text) if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0), None)
        if bad is not None:  # a control character the user could not see: say which and where, not 'YAML'
            from .cleantext import clean

            raise BadInput(f"{what}: {bad + 1}번째 글자에 제어 문자({clean(text[bad])})가 있습니다. 지우고 다시 적으세요.")
    # what a Korean IME types in full-width mode, and other scripts' digits, read as ASCII (digits.fold):
    # 수문장（ｈｐ２）, --cell ２，４, 셀 ２,４ in a declaration are what they say
    line = fold(line)
    responses = [fold(t) for t in responses or ()]
    battles = [fold(t) for t in battles or ()]
    typed_cell, cell = cell, fold(cell or "")
    if not re.fullmatch(r"\s*-?[0-9]+\s*,\s*-?[0-9]+\s*", cell):
        raise BadInput(f"--cell {_q(typed_cell, '은/는')} 셀 이름이 아닙니다. 'x,y'처럼 적으세요 (예: 2,4).")
    cell = "".join(cell.split())
    left, right = split_sides(line)
    (acode, ltext), (dcode, rtext) = _side_prefix(left), _side_prefix(right)
    groups = [_side_cards(corpus, role, text, notices) for role, text in (("공격자", ltext), ("수비자", rtext))]
    acode, dcode, roles = _side_codes(corpus, groups, acode, dcode)
    cells, doc_pieces, typed = _cell_pieces(cell, (acode, dcode), groups)
    if len(cells[cell][acode]) > 3 or len(cells[cell][dcode]) > 3:
        side = acode if len(cells[cell][acode]) > 3 else dcode
        role = "공격자" if side == acode else "수비자"  # the line names sides by where they stand, not by code
        raise BadInput(f"{role}({side}) 기물이 {len(cells[cell][side])}기입니다. 한 셀에 한 진영은 3기까지입니다 ({_rule_no('move.limit')}).")

    doc: dict = {"kind": "combat", "title": line.strip(), "attacker": acode}
    if as_of:
        doc["as_of"] = as_of
    doc["cells"] = cells
    sides = (acode, dcode)
    for key, texts, opt in (("battle_cards", battles, "--battle"), ("response", responses, "--response")):
        items = [parse_declaration(corpus, t, sides, doc_pieces, cell, f"{opt} #{i + 1}", notices)
                 for i, t in enumerate(texts or [])]
        if items:
            doc[key] = items
    # keep the scenario's own key order: response before battle_cards, as files usually read
    if "battle_cards" in doc:
        doc["battle_cards"] = doc.pop("battle_cards")
    return Fight(doc=doc, notices=notices, typed=typed, roles=roles)


def _side_cards(corpus, role: str, text: str, notices: list[dict]) -> list[tuple[_PieceText, str | None]]:
    """One side's pieces as written, each with its card (None: an ad-hoc piece, all of lv, hp and atk given
    and no card by that name); a name read as another card's is a notice."""
    specs = []
    for p in _pieces(text):
        card = None
        have_all = all(k in p.stats for k in ("lv", "hp", "atk"))
        exact = _exact_card(corpus, p.name)
        if exact and corpus.cards[exact]["type"] != "piece":  # a special card is never a piece
            raise BadInput(f"{role}: {_q(exact, '은/는')} 특수카드라 기물이 될 수 없습니다. 기물 카드 이름을 적으세요.")
        if exact:
            card = exact
        elif not have_all:
            card = _resolve_card(corpus, p.name, role, notices, pieces_only=True)
        specs.append((p, card))
    return specs


def _side_codes(corpus, groups: list, acode: str | None, dcode: str | None) -> tuple[str, str, dict]:
    """The two sides' codes: written (`DGM: …`), else the one faction each side's cards share, else 공격/수비
    (FALLBACK_SIDES, then the roles people read for them: {code: "attacker" | "defender"})."""
    def faction(specs):
        fs = {corpus.cards[c]["faction"] for _, c in specs if c} - {None}  # unknown factions do not disagree
        return next(iter(fs)) if len(fs) == 1 else None

    fa, fd = faction(groups[0]), faction(groups[1])
    if fa and fd and fa != fd:  # a code written on one side only: the other still comes from its cards
        acode, dcode = acode or (fa if fa != dcode else None), dcode or (fd if fd != acode else None)
    roles = {}
    if acode is None:
        acode = next(c for c in FALLBACK_SIDES + ("C",) if c != dcode)
        roles[acode] = "attacker"
    if dcode is None:
        dcode = next(c for c in FALLBACK_SIDES + ("C",) if c != acode)
        roles[dcode] = "defender"
    if acode == dcode:
        raise BadInput(f"두 편의 진영 코드가 같습니다 ({acode}). 서로 다른 코드를 적으세요.")
    return acode, dcode, roles


def _cell_pieces(cell: str, codes: tuple[str, str], groups: list) -> tuple[dict, list[dict], dict[str, str]]:
    """The fight's cell with each side's pieces (scenario keys), the pieces with their sides (for the
    declarations), and piece id → the name typed. An id is the card (or ad-hoc) name, numbered when the
    name occurs more than once in the fight."""
    labels = [p.name if card is None else card for specs in groups for p, card in specs for _ in range(p.count)]
    repeated = {n for n in labels if labels.count(n) > 1}
    seen: dict[str, int] = {}
    cells: dict = {cell: {}}
    doc_pieces: list[dict] = []
    typed: dict[str, str] = {}
    for code, specs in zip(codes, groups):
        plist = []
        for p, card in specs:
            for _ in range(p.count):
                label = card or p.name
                if label in repeated:
                    seen[label] = seen.get(label, 0) + 1
                    pid = f"{label}{seen[label]}"
                else:
                    pid = label
                piece: dict = {"id": pid}
                piece["card" if card else "name"] = label
                for k in ("lv", "hp", "atk", "cost"):
                    if k in p.stats:
                        piece[k] = p.stats[k]
                if p.state == "settled":
                    piece["state"] = "settled"
                if p.structure:
                    piece["structure"] = True
                typed[pid] = p.name
                plist.append(piece)
                doc_pieces.append(dict(piece, _side=code))
        cells[cell][code] = plist
    return cells, doc_pieces, typed


# --------------------------------------------------------- player's stats ----
def _doc_pieces(fight: Fight) -> list[dict]:
    return [piece for cell in fight.doc["cells"].values() for plist in cell.values() for piece in plist]


def _give(fight: Fight, card: str | None, label: str, stat: str, value: int, spec: str,
          prompted: bool = False) -> dict:
    """Put the player's value of `stat` into every piece of the card (or, card None, of the ad-hoc
    name) whose line does not state it; record it as the player's. Returns the record."""
    pieces = [p for p in _doc_pieces(fight)
              if (p.get("card") == card if card else (not p.get("card") and p.get("name") == label))]
    took = []
    for piece in pieces:
        if stat not in piece:  # a value the line states wins
            piece[stat] = value
            took.append(piece["id"])
    rec = {"card": card, "label": label, "stat": stat, "value": value, "pieces": took, "spec": spec,
           "prompted": prompted}
    if took:
        fight.player.append(rec)
    return rec


def _player_pieces(fight: Fight, stat: str) -> set:
    return {pid for r in fight.player if r["stat"] == stat for pid in r["pieces"]}


#: `NAME STAT VALUE`. Linear time: the name ends with a non-space (the shortest name the old `.+?` found always
#: did), so its lazy growth tries the run of spaces after it once, not from each of the run's positions; and
#: one `\s*` before an optional `:`/`=` (two `\s*` around an optional sign split a run every possible way).
_STAT_SPEC = re.compile(r"^(?P<name>.*?\S)\s+(?P<word>lv|level|레벨|hp|체력|atk|공격력|공격|cost|비용|코스트)\s*(?:[:=]\s*)?"
                        r"(?P<value>[-−]?\d+)$", re.IGNORECASE | re.DOTALL)


def parse_stat(text: str, where: str) -> tuple[str, str, int]:
    """`개미 hp 2` (or 개미 체력 2, 개미 hp2, 32대 라루나피 레벨 3) → ("개미", "hp", 2)."""
    m = _STAT_SPEC.match(text.strip())
    if not m or not m.group("name").strip():
        raise BadInput(f"{where} {quoted(text.strip())}: '카드이름 스탯 값'으로 적으세요. 스탯은 lv, hp, atk, cost "
                       "(레벨, 체력, 공격, 비용). 예: --stat \"개미 hp 2\"")
    stat = _STAT_KEYS[m.group("word").lower()]
    value = int(m.group("value").replace("−", "-"))
    if not stat_in_range(stat, value):  # the one rule of the line, the prompt and scenario files
        raise BadInput(f"{where} {quoted(text.strip())}: {josa(f'{STAT_NAMES[stat]} {value}', '은/는')} 쓸 수 없습니다 "
                       f"({stat_rule(stat)}).")
    return " ".join(m.group("name").split()), stat, value


def apply_stats(corpus, fight: Fight, specs: list[str] | None) -> None:
    """`--stat "카드이름 스탯 값"`: the player's own value for a stat the card data leaves unknown (미상),
    given to the pieces of that card whose line does not state it (the line's own value wins).

    The name is an ad-hoc piece of the line, or a card read as the line reads card names (a correction
    is a notice; several candidates stop with the list). Refused: a stat the card data states (that
    is card data — a variant is written in the line), a card with no piece in this fight, the same card
    and stat twice with different values."""
    seen: dict[tuple, tuple[int, str]] = {}
    for i, text in enumerate(specs or (), 1):
        where = f"--stat #{i}"
        bad = next((j for j, ch in enumerate(text) if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0), None)
        if bad is not None:
            from .cleantext import clean

            raise BadInput(f"{where}: {bad + 1}번째 글자에 제어 문자({clean(text[bad])})가 있습니다. 지우고 다시 적으세요.")
        text = fold(text)  # 개미 hp ２ is 개미 hp 2 (digits.fold)
        name, stat, value = parse_stat(text, where)
        pieces = _doc_pieces(fight)
        adhoc = [p for p in pieces if not p.get("card") and _squash(p.get("name", "")) == _squash(name)]
        if adhoc:
            card, label = None, adhoc[0]["name"]
        else:
            card = _exact_card(corpus, name) or _resolve_card(corpus, name, where, fight.notices, pieces_only=True)
            label = card
            if corpus.cards[card]["type"] != "piece":
                raise BadInput(f"{where}: {_q(card, '은/는')} 특수카드라 기물의 수치가 없습니다.")
            known = corpus.cards[card].get(stat)
            if known is not None:
                raise BadInput(f"{where}: {card}의 {josa(STAT_NAMES[stat], '은/는')} 카드 데이터에 있습니다"
                               f"({known}). --stat은 카드 데이터에 없는(미상) 수치만 채웁니다. 다른 값으로 풀어 보려면 "
                               f"전투 문장에 {card}({stat}{value})처럼 적으세요.")
            if not any(p.get("card") == card for p in pieces):
                raise BadInput(f"{where}: 이 전투에 {_q(card, '이/가')} 없습니다. 전투 문장에 있는 기물의 카드를 적으세요.")
        key = (card, label, stat)
        if key in seen and seen[key][0] != value:
            raise BadInput(f"{where}: {label}의 {josa(STAT_NAMES[stat], '을/를')} {seen[key][1]}에서 "
                           f"{josa(str(seen[key][0]), '으로/로')} 적었습니다. 한 번만 적으세요.")
        if key in seen:
            continue
        seen[key] = (value, where)
        _give(fight, card, label, stat, value, text.strip())


def supply(fight: Fight, values: dict[tuple[str, str], int]) -> None:
    """Values the player typed at the prompt, (piece id, stat) → value: each goes to every piece of
    that piece's card (or ad-hoc name) whose line does not state it, recorded as the player's own,
    as `--stat` would give it."""
    by_id = {p["id"]: p for p in _doc_pieces(fight)}
    for (pid, stat), value in values.items():
        piece = by_id[pid]
        card = piece.get("card")
        label = card or piece["name"]
        if stat in piece and pid in _player_pieces(fight, stat):
            continue  # given already with another piece of its card
        _give(fight, card, label, stat, value, f"{label} {stat} {value}", prompted=True)
    fight.missing = [m for m in fight.missing if (m.piece, m.stat) not in values]


def needs(fight: Fight, exc) -> list[Missing]:
    """The stat-unknown problems of a run (runner.is_need) → what to ask the player, piece by piece."""
    by_id = {p["id"]: p for p in _doc_pieces(fight)}
    out = []
    for p in exc.problems:
        pid, stat = p.params["piece"], p.params["stat"]
        piece = by_id.get(pid, {})
        out.append(Missing(pid, fight.typed.get(pid, p.params.get("label") or pid), stat, piece.get("card"),
                           p.params.get("why")))
    return out


def player_json(fight: Fight) -> list[dict]:
    """The player's values as the fight's answer shows them: {card, label, stat, value, pieces}."""
    return [{k: r[k] for k in ("card", "label", "stat", "value", "pieces")} for r in fight.player]


#: the Korean keys a saved fight is written with (the scenario reader takes them: engine/aliases.py)
_KO_TOP = {"kind": "종류", "title": "제목", "as_of": "기준일", "attacker": "공격자", "cells": "셀", "response": "대응",
           "battle_cards": "전투카드"}
_KO_PIECE = {"id": "아이디", "card": "카드", "name": "이름", "lv": "레벨", "hp": "체력", "atk": "공격력", "cost": "비용",
             "state": "상태", "structure": "구조물"}
_KO_DECL = {"side": "진영", "card": "카드", "ability": "능력", "piece": "기물", "target": "대상", "cell": "셀",
            "cost": "비용"}
_KO_VALUES = {"combat": "전투", "settled": "정착", "mobile": "기동"}


def korean_doc(doc: dict) -> dict:
    """The fight's scenario with Korean keys and values, as a Korean player would write the file."""
    def piece(p):
        return {_KO_PIECE[k]: (_KO_VALUES.get(v, v) if k == "state" else ("예" if v is True else v))
                for k, v in p.items()}

    def decl(d):
        out = {}
        for k, v in d.items():
            if k == "cost":
                v = [{"파괴": c["destroy"]} for c in v] if isinstance(v, list) else {"파괴": v["destroy"]}
            out[_KO_DECL[k]] = v
        return out

    out = {}
    for k, v in doc.items():
        if k == "cells":
            v = {cell: {side: [piece(p) for p in plist] for side, plist in sides.items()} for cell, sides in v.items()}
        elif k in ("response", "battle_cards"):
            v = [decl(d) for d in v]
        elif k == "kind":
            v = _KO_VALUES[v]
        out[_KO_TOP[k]] = v
    return out


def to_yaml(fight: Fight, command: str | None = None) -> str:
    """The scenario as a YAML file people can edit and run with `flamer simulate` (Korean keys).

    The scenario is data serialised by a safe dumper; the command typed goes only into the `#` header,
    through the `yaml_comment` filter and checked line by line (yamltext.comment_header): no argument
    text can become a key, whatever line breaks it holds."""
    from .render import render
    from .yamlio import comment_header, dump

    body = dump(korean_doc(fight.doc), default_flow_style=None, width=100)
    return comment_header(render("scenario/fight_header.txt.j2", command=command, player=player_json(fight))) + body


def _option_of(key: str | None, fight: Fight) -> str | None:
    """A scenario key of the built file → what the person typed: `response[1].target` → `--response #2`."""
    if not key:
        return key
    m = re.match(r"^(response|battle_cards)\[(\d+)\]", key)
    if m:
        return f"{'--response' if m.group(1) == 'response' else '--battle'} #{int(m.group(2)) + 1}"
    m = re.match(r"^cells\.[^.]+\.([^\[]+)\[(\d+)\]", key)
    if m:
        plist = next(iter(fight.doc["cells"].values())).get(m.group(1), [])
        i = int(m.group(2))
        if i < len(plist):
            return f"기물 {plist[i]['id']}"
    return key


def relocate(exc, fight: Fight, display: str = "flamer fight"):
    """An error about the scenario built from the line, pointed at the line and its options instead of
    the lines of a file the person never saw. `display` is the name the built scenario was read under
    ("flamer fight", or the --save path): a problem of another file (cards/effects.yaml unreadable …)
    keeps its file's name."""
    from .errors import DataError, Forbidden

    if isinstance(exc, Forbidden):
        return exc.relocated(None, None, _option_of(exc.where.get("key"), fight))
    if isinstance(exc, DataError):
        ours = [p for p in exc.problems if p.file in (display, None)]
        if not ours:  # nothing about the line: the data's own error, as every command words it
            return exc
        # the fixes speak of scenario-file keys; on the command line the grammar is the fix
        lines = [f"{_option_of(p.key, fight) or '전투'}: {p.message}" if p.file in (display, None)
                 else p.render() for p in exc.problems]
        if any(p.key and p.key.startswith(("response", "battle_cards")) for p in ours):
            lines.append("선언은 '누가 카드 [능력] [대상] [비용 기물] [셀 x,y]'로 적습니다 "
                         "(예: -r \"수비자 재부팅 행성굴착기\", -r \"수비자 진내폭격 비용 개미\").")
        return BadInput("\n".join(lines))
    return exc


def check_same(yaml_text: str, built) -> None:
    """The file `fight --save` writes holds the scenario resolved, built from the line, and nothing else:
    read back, it is exactly that data (no argument text became structure). A difference is a bug."""
    from .yamlio import parse_text, plain

    if plain(parse_text(yaml_text, "flamer fight")) != korean_doc(built.doc):
        raise RuntimeError("the saved fight scenario does not read back as the scenario built")
