"""Issue 26, item 5: `flamer simulate FILE --link` prints the calculator link of a scenario, its YAML
compressed (raw DEFLATE with the frozen preset dictionary of flamer_ref/linkdict.py, base64url, its
length and CRC-32: docs/LINK.md), so that a link stays short enough for a chat (Discord: 2,000
characters) and a link cut short is known to be cut.

The page's half (the same link opened in the calculator shows the same verdict; cut, it says
링크가 잘렸습니다) is in tests/web/test_phone.py; the page's reader against this one in
tests/hardening/test_links.py."""

from __future__ import annotations

import functools
import json
import zlib
from pathlib import Path

import flamer_fork
import pytest
from inprocess import invoke

from flamer_ref import links
from flamer_ref.scenario_files import available_kinds, template_text

ROOT = Path(__file__).resolve().parents[2]
SITE = "https://example.org/flamer"
PAGE = "%ED%8C%90%EC%A0%95%EA%B8%B0.html"
DISCORD = 2000


@pytest.fixture
def cli(tmp_path):
    return functools.partial(invoke, cache=tmp_path / "cache", env={"FLAMER_SITE_URL": None})


def last_line(text: str) -> str:
    return text.rstrip("\n").split("\n")[-1]


def test_every_template_link_fits_a_chat_message_and_reads_back(cli, tmp_path):
    """The link of each `flamer scenario new` template (the round template above all) is at most 2,000
    characters with a site address of ordinary length, alone on the last line, and reads back as the
    very text of the file."""
    for kind in available_kinds():
        text = template_text(kind)
        path = tmp_path / f"{kind}.yaml"
        path.write_text(text, encoding="utf-8")
        got = cli("simulate", str(path), "--link", "--site-url", SITE)
        assert got.exit_code == 0, got.output
        link = last_line(got.stdout)
        assert link.startswith(f"{SITE}/{PAGE}#y=~1~") and len(link) <= DISCORD, (kind, len(link))
        assert links.parse(link).y == text
        assert all(ch.isascii() and (ch.isalnum() or ch in "-_.~:/%#=") for ch in link), link
    # the round template: far below the limit (its text is in the preset dictionary)
    assert len(links.build_scenario(SITE, template_text("round"))) < 400


def test_a_scenario_unlike_the_templates_is_compressed_too():
    """A long scenario the dictionary does not know still shrinks: the bundled four-round game."""
    text = (ROOT / "scenarios" / "game-four-rounds.yaml").read_text(encoding="utf-8")
    link = links.build_scenario(SITE, text)
    assert len(link) < len(links.encode(text)) / 3 and links.parse(link).y == text


def test_the_link_in_json_html_md_and_from_standard_input(cli, tmp_path):
    text = template_text("combat")
    path = tmp_path / "전투.yaml"
    path.write_text("\ufeff" + text, encoding="utf-8")   # a BOM is not part of the scenario
    link = links.build_scenario(SITE, text)
    js = json.loads(cli("simulate", str(path), "--json", "--link", "--site-url", SITE).stdout)
    assert list(js)[-1] == "link" and js["link"] == link
    page = cli("simulate", str(path), "--format", "html", "--link", "--site-url", SITE).stdout
    assert f'<a href="{link}">' in page and page.rstrip().endswith("</html>")
    assert last_line(cli("simulate", str(path), "--format", "md", "--link", "--site-url", SITE).stdout) == f"<{link}>"
    assert last_line(cli("simulate", str(path), "--brief", "--link", "--site-url", SITE).stdout) == link
    got = cli("simulate", "-", "--link", input=text, env={"FLAMER_SITE_URL": SITE + "/"})
    assert got.exit_code == 0 and last_line(got.stdout) == link   # the same with the address from the environment


def test_without_a_site_address_or_for_a_broken_scenario(cli, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(template_text("move"), encoding="utf-8")
    got = cli("simulate", str(path), "--link")
    assert got.exit_code == 2 and "FLAMER_SITE_URL" in got.output
    got = cli("simulate", str(path), "--site-url", SITE)
    assert got.exit_code == 2 and "--link" in got.output
    path.write_text("종류: 전투\n셀: [\n", encoding="utf-8")
    got = cli("simulate", str(path), "--link", "--site-url", SITE)
    assert got.exit_code == 1 and "#y=" not in got.stdout   # no link for a scenario that does not read


def test_a_cut_link_says_it_was_cut_and_a_changed_one_is_refused():
    link = links.build_scenario(SITE, template_text("round"))
    frag = link.split("#", 1)[1]
    for n in range(3, len(frag)):   # cut anywhere after "y=": cut, never another scenario
        with pytest.raises(links.LinkError) as got:
            links.read(frag[:n])
        assert got.value.code == "cut" and got.value.key == "y", (n, got.value.code)
    with pytest.raises(links.LinkError) as got:
        links.read(frag[:-1] + ("A" if frag[-1] != "A" else "B"))
    assert got.value.code == "bad-data"
    # what the data claims is checked: a CRC of other text
    d, n, crc, data = frag[len("y=~"):].split("~")
    with pytest.raises(links.LinkError) as got:
        links.read(f"y=~{d}~{n}~{zlib.crc32(b'x'):08x}~{data}")
    assert got.value.code == "bad-data"
    # the older form (the YAML percent-encoded) still reads
    assert links.read("y=" + links.encode("종류: 전투\n")).y == "종류: 전투\n"


def test_the_real_command_prints_the_link_last(tmp_path):
    """As a user runs it: a process of its own, `flamer scenario new 라운드 | flamer simulate - --link`."""
    env = {"PYTHONIOENCODING": "utf-8", "FLAMER_SITE_URL": SITE, "FLAMER_CACHE_DIR": str(tmp_path)}
    new = flamer_fork.run("scenario", "new", "라운드", env=env, cwd=ROOT, timeout=300, text=False)
    got = flamer_fork.run("simulate", "-", "--link", input=new.stdout, env=env, cwd=ROOT, timeout=300, text=False)
    assert got.returncode == 0, got.stderr.decode()
    link = last_line(got.stdout.decode("utf-8"))
    assert len(link) <= DISCORD and links.parse(link).y == new.stdout.decode("utf-8")
