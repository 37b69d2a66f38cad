"""The spec sample combat-scene5.yaml: 병풍 makes 수문장 Lv 6 and 재부팅 flips drill in step 2."""

import json
from pathlib import Path

import flamer_fork

from .conftest import events

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "examples" / "combat-scene5.yaml"  # beside the checkout
HERE = Path(__file__).resolve().parents[2]


def _scene5_text():
    if SPEC.is_file():
        return SPEC.read_text(encoding="utf-8")
    import yaml

    from flamer_ref.corpus import load

    return yaml.safe_dump(load().examples["ex.combat.scene5"]["scenario"], allow_unicode=True)


def test_scene5_result(run):
    res = run(_scene5_text())
    assert res["kind"] == "combat"
    cell = res["cells"]["2,4"]
    assert cell["occupant"] == "DGM"
    assert cell["standoff"] is False
    assert cell["rounds"] == 4
    assert cell["survivors"] == {"DGM": ["star", "art"], "BGM": []}
    assert res["prisoners"] == {"DGM": ["giant", "drill", "amp"], "BGM": ["gk"]}
    assert res["fragments"] == []
    assert res["unresolved"] == []


def test_scene5_first_attack_matches_spec_event(run):
    res = run(_scene5_text())
    first = events(res, "attack")[0]
    want = {"cell": "2,4", "step": 4, "round": 1, "type": "attack", "actor": "gk", "target": "giant",
            "amount": 1, "hp_after": 11}
    assert {k: first[k] for k in want} == want
    assert first["rule"] == "combat.step4.attacker-volley"


def test_scene5_needs_formation_and_reboot(run):
    res = run(_scene5_text())
    field = events(res, "field", effect="병풍")
    assert field and field[0]["pieces"] == ["gk"] and field[0]["lv"] == 6
    flips = events(res, "flip", piece="drill")
    assert flips and flips[0]["step"] == 2 and flips[0]["to"] == "mobile"
    # gk (Lv 6 by 병풍) was the defender's first target
    assert events(res, "capture", piece="gk")[0]["round"] == 1


def test_scene5_without_field_is_different(run):
    import yaml

    obj = yaml.safe_load(_scene5_text())
    del obj["field"]
    res = run(obj)
    assert res["prisoners"] != {"DGM": ["giant", "drill", "amp"], "BGM": ["gk"]}
    assert any(a["choice"] == "set-cards-assumed" for a in res["assumed"])


def test_scene5_cli_json(tmp_path):
    f = tmp_path / "s5.yaml"
    f.write_text(_scene5_text(), encoding="utf-8")
    out = flamer_fork.run("simulate", str(f), "--json", cwd=HERE, timeout=None)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for key in ("kind", "as_of", "cells", "prisoners", "fragments", "events", "unresolved"):
        assert key in data
    assert data["prisoners"]["DGM"] == ["giant", "drill", "amp"]
