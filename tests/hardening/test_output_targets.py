"""Hardening of what the tool writes and reads from the command line: -o / --save targets (never
replaced when they are a folder, a FIFO, a device or a symbolic link), `flamer site` removing only
its own regular files inside the site folder (never through a symbolic link), arguments under a
non-UTF-8 locale, and small usage errors. Nothing here writes to a real /dev file."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import flamer_fork
import pytest

from flamer_ref import outfile
from flamer_ref.errors import BadInput, FlamerError
from flamer_ref.site import MARKER, GENERATOR, write_site

TIMEOUT = 300


#: no completion request, no debug traceback, UTF-8 streams
ENV = {"_FLAMER_COMPLETE": None, "FLAMER_DEBUG": None, "PYTHONIOENCODING": "utf-8"}
# a real process, forked from a warm interpreter (tests/flamer_fork.py); output as bytes
run = functools.partial(flamer_fork.run, env=ENV, timeout=TIMEOUT, text=False)


def text(b: bytes) -> str:
    return b.decode("utf-8", "replace")


def refused(p, *needles, code=1):
    err = text(p.stderr)
    assert p.returncode == code, (p.returncode, err)
    assert "Traceback" not in err and "내부 오류" not in err, err
    for n in needles:
        assert n in err, (n, err)
    return err


needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


# ------------------------------------------------------------ -o targets ----
@pytest.fixture
def targets(tmp_path):
    (tmp_path / "folder").mkdir()
    real = tmp_path / "real.txt"
    real.write_text("keep", encoding="utf-8")
    (tmp_path / "link").symlink_to(real)
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
    return tmp_path


@pytest.mark.parametrize("fmt", ["md", "html", "pdf"])
def test_faq_output_refuses_folder_symlink_fifo_and_missing_folder(targets, fmt):
    cases = [("folder", "폴더입니다"), ("link", "심볼릭 링크"), ("no/such/x.out", "폴더가 없습니다")]
    if hasattr(os, "mkfifo"):
        cases.append(("fifo", "일반 파일이 아니라"))
    for name, reason in cases:
        p = run("faq", "--format", fmt, "-o", str(targets / name))
        refused(p, "쓸 수 없습니다", reason)
    # nothing was replaced: the folder is a folder, the link a link to the untouched file, the FIFO a FIFO
    assert (targets / "folder").is_dir() and (targets / "link").is_symlink()
    assert (targets / "real.txt").read_text(encoding="utf-8") == "keep"
    if hasattr(os, "mkfifo"):
        import stat

        assert stat.S_ISFIFO(os.lstat(targets / "fifo").st_mode)
    assert not list(targets.glob(".flamer-*"))


def test_book_pdf_output_refuses_folder_and_symlink(targets):
    refused(run("book", "--format", "pdf", "-o", str(targets / "folder")), "PDF 파일을 쓸 수 없습니다", "폴더입니다")
    refused(run("book", "--format", "pdf", "-o", str(targets / "link")), "심볼릭 링크")
    assert (targets / "link").is_symlink() and (targets / "real.txt").read_text(encoding="utf-8") == "keep"


def test_output_to_a_regular_file_still_works(tmp_path):
    out = tmp_path / "faq.md"
    out.write_text("old " * 10000, encoding="utf-8")  # longer than the page: truncated, not kept
    p = run("faq", "--format", "md", "-o", str(out))
    assert p.returncode == 0, text(p.stderr)
    body = out.read_text(encoding="utf-8")
    assert body.startswith("# ") and "old old" not in body


def test_fight_save_uses_the_same_check(targets):
    line = "수문장 vs 개미(lv1 hp2 atk1)"
    refused(run("fight", line, "--save", str(targets / "folder")), "--save", "폴더입니다")
    refused(run("fight", line, "--save", str(targets / "link")), "--save", "심볼릭 링크")
    assert (targets / "real.txt").read_text(encoding="utf-8") == "keep"
    refused(run("fight", line, "--save", ""), "빈 경로", code=2)


def test_outfile_helper_directly(targets):
    with pytest.raises(BadInput, match="폴더입니다"):
        outfile.write_text(targets / "folder", "x")
    with pytest.raises(BadInput, match="심볼릭 링크"):
        outfile.write_text(targets / "link", "x")
    if hasattr(os, "mkfifo"):
        with pytest.raises(BadInput, match="FIFO"):
            outfile.write_text(targets / "fifo", "x")  # refused, and never blocks on the FIFO
    with pytest.raises(BadInput, match="폴더가 없습니다"):
        outfile.check_target(targets / "nope" / "x.md")
    with pytest.raises(BadInput, match="경로 중간에 폴더가 아닌 것"):
        outfile.check_target(targets / "real.txt" / "x.md")
    outfile.write_text(targets / "new.md", "내용")
    assert (targets / "new.md").read_text(encoding="utf-8") == "내용"


def test_os_errors_are_said_in_korean(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(BadInput, match="권한이 없습니다"):
            outfile.write_text(ro / "x.md", "x")
    finally:
        ro.chmod(0o700)


@needs_fifo
def test_pdf_rename_never_replaces_a_non_file(tmp_path):
    """html_to_pdf checks the target again just before its rename (it may have changed while rendering)."""
    from flamer_ref import pdf

    try:
        pdf.korean_font()
        pdf._load_weasyprint()
    except pdf.PdfError as exc:
        pytest.skip(f"PDF engine not usable here: {exc.message.splitlines()[0]}")
    fifo = tmp_path / "p.pdf"
    os.mkfifo(fifo)
    with pytest.raises(FlamerError, match="일반 파일이 아니라"):
        pdf.html_to_pdf("<html><body><p>가나다</p></body></html>", fifo)
    import stat

    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and not list(tmp_path.glob(".flamer-*"))


# ------------------------------------------------------------------ site ----
def _manifest(folder: Path, files) -> None:
    (folder / MARKER).write_text(json.dumps({"generator": GENERATOR, "files": files}), encoding="utf-8")


def test_site_never_deletes_through_a_symlink(tmp_path):
    site, outside = tmp_path / "site", tmp_path / "outside"
    site.mkdir()
    outside.mkdir()
    victim = outside / "victim.txt"
    victim.write_text("v", encoding="utf-8")
    (site / "lnk").symlink_to("../outside")
    _manifest(site, ["lnk/victim.txt", "old.html"])
    (site / "old.html").write_text("old", encoding="utf-8")
    removed = write_site({"index.html": "<p>x</p>"}, str(site), "2026-09-25")
    assert victim.read_text(encoding="utf-8") == "v"
    assert removed == ["old.html"] and not (site / "old.html").exists()
    assert (site / "lnk").is_symlink()


def test_site_cli_never_deletes_through_a_symlink(tmp_path):
    site, outside = tmp_path / "ev" / "site", tmp_path / "ev" / "outside"
    site.mkdir(parents=True)
    outside.mkdir()
    (outside / "victim.txt").write_text("v", encoding="utf-8")
    (site / "lnk").symlink_to("../outside")
    _manifest(site, ["lnk/victim.txt"])
    p = run("site", str(site))
    assert p.returncode == 0, text(p.stderr)
    assert (outside / "victim.txt").read_text(encoding="utf-8") == "v"


def test_site_never_writes_through_a_symlinked_folder(tmp_path):
    site, outside = tmp_path / "site", tmp_path / "outside"
    site.mkdir()
    outside.mkdir()
    (site / "rules").symlink_to(outside)
    _manifest(site, ["rules/a.html"])
    with pytest.raises(BadInput, match="심볼릭 링크"):
        write_site({"rules/a.html": "x"}, str(site), "2026-09-25")
    assert not list(outside.iterdir())


def test_site_does_not_remove_a_listed_symlink_or_folder(tmp_path):
    site, outside = tmp_path / "site", tmp_path / "outside"
    site.mkdir()
    outside.mkdir()
    (outside / "t.txt").write_text("t", encoding="utf-8")
    (site / "l.html").symlink_to(outside / "t.txt")
    (site / "d").mkdir()
    _manifest(site, ["l.html", "d"])
    assert write_site({"index.html": "x"}, str(site), "2026-09-25") == []
    assert (outside / "t.txt").exists() and (site / "d").is_dir()


@pytest.mark.parametrize("content", ["{not json", '["a"]', '{"generator": "other", "files": []}'])
def test_site_corrupt_manifest_is_said_to_be_corrupt(tmp_path, content):
    site = tmp_path / "site"
    site.mkdir()
    (site / MARKER).write_text(content, encoding="utf-8")
    err = refused(run("site", str(site)), "망가졌거나")
    assert "없음" not in err


def test_site_errors_are_korean(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    _manifest(site, [])
    (site / "rules").write_text("a file where a folder goes", encoding="utf-8")
    with pytest.raises(BadInput) as exc:
        write_site({"rules/a.html": "x"}, str(site), "2026-09-25")
    assert "Not a directory" not in exc.value.message and "directory" not in exc.value.message.lower()


def test_site_empty_path_is_a_usage_error():
    refused(run("site", ""), "빈 경로", code=2)


# ------------------------------------------------------------ argv/usage ----
def test_korean_argument_under_posix_locale():
    env = {"PYTHONUTF8": "0", "LC_ALL": "POSIX", "LANG": "C"}
    # bytes arguments, another locale: a fresh `python -m flamer_ref`
    p = flamer_fork.run("card", "수문장".encode("utf-8"), env={"PYTHONIOENCODING": "utf-8", **env}, timeout=TIMEOUT,
                        text=False)
    assert p.returncode == 0, text(p.stderr)
    assert "수문장" in text(p.stdout)
    p = flamer_fork.run("card", b"\xed\xa0\x80", env={"PYTHONIOENCODING": "utf-8", **env}, timeout=TIMEOUT, text=False)
    err = text(p.stderr)
    assert p.returncode == 1 and "udc" not in err and "Traceback" not in err, err


@pytest.mark.parametrize("query", ["", "   "])
def test_empty_search_is_a_usage_error(query):
    refused(run("search", query), "검색어", code=2)


def test_file_metavar_takes_the_right_particle():
    err = refused(run("simulate"), code=2)
    assert "파일을 적지 않았습니다" in err and "빠졌습니다" not in err, err
    err = refused(run("faq", "--format", "md", "-o", ""), "빈 경로", code=2)
