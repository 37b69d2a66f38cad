"""별마대 — 병풍 (등장효과): '가장 왼쪽 카드인 수문장은 전부 Lv 6' — while a face-up 별마대 is on the side's
field, the pieces of the leftmost card (when it is a face-up piece card) are Lv 6 (field.position-reference,
interp.screen.leftmost). The card is chosen when 별마대 enters and stays fixed; with entry effects that
outlast their card (entry-effect-ends-with-card false, '영구 적용') it stays after 별마대 retired or left.
"""

from __future__ import annotations

from ..types import EventType as E
from .base import CardHooks, special_card, tops_of

SCREEN_LV = 6  # 병풍: '가장 왼쪽 카드인 수문장은 전부 Lv 6'
SCREEN = "병풍"


def screen_target(tops: list) -> tuple[int, str] | None:
    """병풍's 'leftmost card' (interp.screen.leftmost): the top card of the leftmost
    non-empty slot, when it is a face-up piece card. `tops` holds, per slot,
    None or (name, face_up, type)."""
    left = next(((i, t) for i, t in enumerate(tops) if t is not None), None)
    if left is None:
        return None
    i, (name, face_up, type_) = left
    return (i, name) if face_up and type_ == "piece" else None


@special_card
class Byeolmadae(CardHooks):
    name = "별마대"

    # ----------------------------------------------------------------- field ----
    def field_entered(self, fp, i, card):
        target = screen_target(fp.tops())
        card.target = fp.top(target[0]) if target is not None else None
        fp.lasting[self.name] = target[1] if target is not None else None

    def field_levels(self, fp, levels, ends):
        permanent = not ends.applied  # '영구 적용'
        star = next((c for _, c in fp.active_piece_cards() if c.name == self.name), None)
        star_active = star is not None
        # the card 병풍 chose when 별마대 entered (interp.screen.leftmost: fixed at entry); before the
        # revision it stayed after 별마대 retired or left (영구 적용: entry-effect-ends-with-card false)
        if star_active:
            chosen = star.target.name if star.target is not None and fp.on_field(star.target) else None
        else:
            chosen = fp.lasting.get(self.name) if permanent else None
        if chosen is None:
            return
        levels[chosen] = SCREEN_LV
        fp.events.append({"type": "field-effect", "effect": SCREEN, "source": self.name,
                          "card": chosen, "lv": SCREEN_LV,
                          "rule": "field.entry-effect.duration" if star_active else "field.entry-effect",
                          "ruling": None if star_active else ends.cite,
                          "interpretation": "interp.screen.leftmost", "permanent": not star_active})

    # ---------------------------------------------------------------- combat ----
    def combat_setup(self, c):
        self.screen(c, "setup")

    def combat_entered_again(self, c, side, i, cell, step):
        self.screen(c, "uncover", cell, only_side=side, step=step, rule="field.uncover")

    def entry_lasts(self, c, side, card):
        return card == self.name

    def combat_card_left(self, c, side, card, cell, step):
        if card == self.name:  # 병풍 ends with its card (field.entry-effect.duration)
            self.screen(c, "removed", cell, only_side=side, step=step, rule="field.entry-effect.duration")

    def screen(self, c, when: str, cell: str | None = None, only_side: str | None = None,
               step: int | None = 2, rule: str = "field.position-reference") -> None:
        """병풍 in a combat: while a face-up 별마대 is on the side's field, the leftmost card's pieces are Lv 6.
        The `field:` of a scenario is the field after its cards entered: 병풍's card is read from it once, at
        the start, and stays fixed for the whole combat turn (a (대응) card trashed in step 2 does not move
        it: interp.screen.leftmost) — read again only when 별마대 comes back or leaves."""
        for side, slots in c.slots.items():
            if only_side is not None and side != only_side:
                continue
            on = any(s is not None and s.face_up and s.card == self.name for s in slots)
            left = next(((i, s) for i, s in enumerate(slots) if s is not None), None)
            target = screen_target(tops_of(slots)) if on else None
            target_card = target[1] if target else None
            if on and left is not None and target is None:
                i, s = left
                c.assume(("formation-left", side, i, when), choice="formation-leftmost-not-piece", side=side,
                         slot=i + 1, card=s.card, rule="field.position-reference")
            changed = self._set_levels(c, side, target_card)
            if changed:
                where = ({"phase": "setup"} if cell is None else {"cell": cell, "phase": "response"} if step is None
                         else {"cell": cell, "step": step})
                c.emit(E.FIELD, **where, side=side, effect=SCREEN, source=self.name, card=target_card,
                       slot=(left[0] + 1) if left else None, pieces=changed,
                       lv=SCREEN_LV if target_card else None, rule=rule,
                       interpretation="interp.screen.leftmost", **({"why": when} if cell is not None else {}))

    @staticmethod
    def _set_levels(c, side: str, target_card: str | None) -> list[str]:
        """Every piece of `side`: Lv 6 when of the screened card, else its own; the ids on the board changed."""
        changed = []
        for p in c.pieces.values():
            if p.side != side:
                continue
            new = SCREEN_LV if (target_card is not None and p.card == target_card) else None
            if new != p.field_lv:
                p.field_lv = new
                if p.on_board:
                    changed.append(p.id)
        return changed
