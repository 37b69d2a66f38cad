"""The searchable entries of a corpus: what each clause, ruling, FAQ item, example, term and card
says, as the search index (flamer_ref/search.py), the site's offline index and the data's own checks
(corpus: every synonym's terms occur in the rules) read it. Plain data in, plain data out."""

from __future__ import annotations


def card_text(card: dict) -> str:
    """A card as one readable Korean paragraph (the `text` of a card result)."""
    from .constants import FACTIONS

    def val(v):
        return "미상" if v is None else str(v)

    parts = []
    kind = "특수카드" if card["type"] == "special" else ("구조물 기물 카드" if card["structure"] else "기물 카드")
    faction = FACTIONS.get(card["faction"], "진영 미상") if card["faction"] else "진영 미상"
    head = f"{kind} · {faction} · 등급 {val(card['grade'])}"
    if card["type"] == "piece":
        head += f" · Lv {val(card['lv'])} · HP {val(card['hp'])} · ATK {val(card['atk'])} · cost {val(card['cost'])}"
    elif card.get("timing"):
        head += f" · ({card['timing']})"
    parts.append(head + ".")
    for ab in card["abilities"]:
        tag = f"({ab['timing']}) " if ab["timing"] else ""
        parts.append(f"{tag}{ab['name']}: {ab['text']}")
    if card.get("notes"):
        parts.append(card["notes"])
    return " ".join(parts)


def entries_of(corpus) -> list[tuple]:
    """(id, kind, title, text, keys, body[, names]) for every searchable entry;
    `keys` holds keywords, aliases and the id's words (the title is indexed
    apart); `names`, for terms and cards, the other names the entry goes by."""
    out = []
    for c in corpus.clauses.values():
        interp = " ".join(corpus.interpretations[i]["title"] + " " + corpus.interpretations[i]["text"]
                          for i in c["interpretations"])
        head = " ".join([*c["keywords"], c["id"].replace(".", " ").replace("-", " ")])
        out.append((c["id"], "clause", c["title"], c["text"], head, c["text"] + " " + interp))
    for r in corpus.rulings.values():
        title = f"{r['date']} {r['label']} — {r['title']}"
        body = " ".join(x for x in (r["summary"], r.get("supersedes") or "", r.get("earlier_rule") or "") if x)
        out.append((r["id"], "ruling", title, r["summary"], f"판정 {r['label']} {r['status']}", body))
    for f in corpus.faq.values():
        out.append((f["id"], "faq", f["question"], f["answer"], " ".join(f["keywords"]), f["answer"]))
    for e in corpus.examples.values():
        text = " ".join([e["situation"], *e["steps"], e["result"]])
        head = e.get("point") or ""
        out.append((e["id"], "example", e["title"], text, head, text + " " + (e.get("reason") or "")))
    for t in corpus.terms.values():
        out.append((t["id"], "term", t["term"], t["definition"], " ".join(t["aliases"]), t["definition"],
                    list(t["aliases"])))
    for card in corpus.cards.values():
        names = " ".join([*card["aliases"], *(a["name"] for a in card["abilities"])])
        out.append((card["name"], "card", card["name"], card_text(card), names, card_text(card),
                    list(card["aliases"])))
    return out
