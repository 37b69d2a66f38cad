"""증폭기 — 결속 (등장효과): the piece card immediately to the left of a face-up 증폭기 is bonded to it
(interp.bond.face-up); an effect on `bonded` (primitives: buff) reaches that card's pieces. The partner is
chosen when 증폭기 enters; the bond is released for good when either card retires or leaves (결속은 두 카드
중 하나가 필드에서 제거되거나 은퇴하면 해제), unless entry effects outlast their card ('영구 적용').
"""

from __future__ import annotations

from .base import CardHooks, special_card, tops_of

BOND = "결속"
NAME = "증폭기"


def bond_partners(tops: list) -> dict[int, str]:
    """결속 (interp.bond.face-up): slot index of each face-up 증폭기 → the face-up piece
    card immediately to its left."""
    out = {}
    for i, t in enumerate(tops):
        if t is not None and t[1] and t[0] == NAME and i > 0:
            left = tops[i - 1]
            if left is not None and left[1] and left[2] == "piece":
                out[i] = left[0]
    return out


@special_card
class Amplifier(CardHooks):
    name = NAME

    # ----------------------------------------------------------------- field ----
    def field_entered(self, fp, i, card):
        partner = bond_partners(fp.tops()).get(i)
        card.target = fp.top(i - 1) if partner is not None else None
        if partner is not None:
            fp.lasting[self.name] = partner

    def field_released(self, fp, index, gone, how):
        for slot in fp.slots:
            for c in slot:
                if c.name == self.name and c.target is not None and (c is gone or c.target is gone):
                    fp.events.append({"type": "bond-released", "action": index, "source": self.name,
                                      "card": c.target.name, "by": gone.name, "how": how,
                                      "rule": "field.position-reference", "ruling": None,
                                      "interpretation": "interp.bond.face-up"})
                    c.target = None

    def field_bonds(self, fp, bonds, ends):
        permanent = not ends.applied  # '영구 적용'
        for _, amp in fp.active_piece_cards():
            # 결속: made when 증폭기 entered (a partner placed later makes none), released for good
            # when either card retires or leaves (interp.bond.face-up)
            if amp.name != self.name or amp.target is None or not fp.on_field(amp.target) or amp.target.retired:
                continue
            partner = amp.target.name
            bonds[self.name] = partner
            fp.events.append({"type": "field-effect", "effect": BOND, "source": self.name,
                              "card": partner, "rule": "field.position-reference", "ruling": None,
                              "interpretation": "interp.bond.face-up", "permanent": False})
        if permanent and self.name not in bonds and self.name in fp.lasting:
            bonds[self.name] = fp.lasting[self.name]
            fp.events.append({"type": "field-effect", "effect": BOND, "source": self.name,
                              "card": bonds[self.name], "rule": "field.entry-effect",
                              "ruling": ends.cite, "permanent": True})

    # ---------------------------------------------------------------- combat ----
    def combat_setup(self, c):
        # read from the `field:` given once, at the start, and fixed for the whole combat turn (a (대응)
        # card trashed in step 2 does not move it: interp.bond.face-up)
        c.bonds = {side: set(bond_partners(tops_of(slots)).values()) for side, slots in c.slots.items()}

    def combat_entered_again(self, c, side, i, cell, step):
        if i > 0:
            left = c.slots[side][i - 1]
            if left is not None and left.face_up and left.type == "piece":
                c.bonds.setdefault(side, set()).add(left.card)

    def entry_lasts(self, c, side, card):
        return card == self.name or card in c.bonds.get(side, ())

    def combat_card_left(self, c, side, card, cell, step):
        if c.bonds.get(side):
            c.bonds[side].discard(card)
            if card == self.name:
                c.bonds[side] = set()
