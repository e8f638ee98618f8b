"""The standings PDF, read back with pypdf: every ranked player in order, header and page numbers on
every page, shared ranks, and names with accents and CJK characters intact."""

import io
import random
import re
from datetime import datetime

import pypdf
import pytest

from tournament.pdf import save_export
from tournament.pdf.standings import build_standings_pdf
from tournament.pdf.style import CJK_FONT, HANGUL_FONT, font_for, fonts, has_cjk, markup
from tournament.services.results.ranking import Entrant, TableResult, format_points, rank_players

GENERATED = datetime(2026, 5, 1, 14, 30)


def field(players, sessions, seed=5, names=None):
    rng = random.Random(seed)
    names = names or {}
    entrants = [Entrant(i, names.get(i, f"Player Number{i:04d}"), f"Number{i:04d}, Player", "FI")
                for i in range(players)]
    entrants.append(Entrant(9999, "Sub Stitute", "Stitute, Sub", ranked=False))
    tables = []
    for number in range(1, sessions + 1):
        ids = list(range(players))
        rng.shuffle(ids)
        for t in range(players // 4):
            tables.append(TableResult(number, t + 1, {p: rng.randint(-60, 60) for p in ids[4 * t:4 * t + 4]}))
    return rank_players(entrants, tables, tie_breaks=["firsts"]), list(range(1, sessions + 1))


def pages_text(pdf: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return [page.extract_text() for page in reader.pages]


def test_every_ranked_player_in_order_with_header_and_page_numbers_on_every_page():
    rows, sessions = field(200, 3)
    pdf = build_standings_pdf("Helsinki Open 2026", "Standings after session 3", rows, sessions, GENERATED)
    assert pdf.startswith(b"%PDF")
    pages = pages_text(pdf)
    assert len(pages) >= 3  # long enough to test the repeated header
    for number, text in enumerate(pages, start=1):
        assert "Helsinki Open 2026" in text
        assert "Generated 2026-05-01 14:30 UTC" in text
        assert f"Page {number} of {len(pages)}" in text
        for heading in ("Rank", "Player", "Country", "Table pts", "Score", "S1", "S2", "S3"):
            assert heading in text, (number, heading)
    names = re.findall(r"Player Number\d{4}", "\n".join(pages))
    assert names == [row.name for row in rows]  # every ranked player once, in standings order
    assert "Sub Stitute" not in "\n".join(pages)


def test_rows_carry_rank_points_score_and_each_session():
    rows, sessions = field(8, 2)
    pdf = build_standings_pdf("Cup", "", rows, sessions, GENERATED)
    lines = "\n".join(pages_text(pdf)).split("\n")
    first = rows[0]
    start = lines.index(first.name)
    expected = [first.country, first.table_points_text, str(first.score)] + [
        f"{format_points(c.table_points)} / {c.score}" for c in first.sessions
    ]
    assert lines[start - 1] == first.rank_label
    assert lines[start + 1:start + 1 + len(expected)] == expected


def test_shared_ranks_fractions_and_missed_sessions_are_shown():
    entrants = [Entrant(i, f"Name Person{i}", f"Person{i}, Name", "SE") for i in range(1, 6)]
    tables = [TableResult(1, 1, {1: 10, 2: 10, 3: 10, 4: -30}), TableResult(2, 1, {5: 9, 2: 0, 3: 0, 4: -9})]
    rows = rank_players(entrants, tables, session_numbers=[1, 2])
    pdf = build_standings_pdf("Cup", "Standings", rows, [1, 2], GENERATED)
    lines = "\n".join(pages_text(pdf)).split("\n")
    # 5 first (4 table points); 2 and 3: 7/3 + 3/2 each, same score: shared rank 2=
    at = lines.index("Name Person2")
    assert lines[at - 1] == "2="
    assert lines[at + 1:at + 5] == ["SE", "3.83", "10", "2.33 / 10"]
    person1 = lines.index("Name Person1")
    assert lines[person1 + 5] == "–"  # not seated in session 2


def test_accented_and_cjk_names_survive():
    names = {0: "Zoë Łukasz", 1: "王小明", 2: "Søren Ærø", 3: "김민준", 4: "Émilie Dvořák", 5: "山田 太郎"}
    rows, sessions = field(8, 1, names=names)
    pdf = build_standings_pdf("Open 北京 2026", "Ranking", rows, sessions, GENERATED)
    text = "\n".join(pages_text(pdf))
    for name in names.values():
        assert name in text
    assert "Open 北京 2026" in text
    if fonts().regular == "DejaVuSans":  # DejaVu embedded: its glyphs carry every accent
        assert b"DejaVuSans" in pdf
    # CJK in an embedded TrueType font when one is installed, else ReportLab's CID fonts
    assert {font_for("北"), font_for("김")} <= {CJK_FONT, HANGUL_FONT, *fonts().fallback_regular}
    for font in {font_for("北"), font_for("김")}:
        assert font.encode() in pdf


def test_many_sessions_go_landscape_and_few_stay_portrait():
    few, few_sessions = field(8, 3)
    many, many_sessions = field(8, 10)
    portrait = pypdf.PdfReader(io.BytesIO(build_standings_pdf("T", "", few, few_sessions, GENERATED))).pages[0]
    wide = pypdf.PdfReader(io.BytesIO(build_standings_pdf("T", "", many, many_sessions, GENERATED))).pages[0]
    assert portrait.mediabox.width < portrait.mediabox.height
    assert wide.mediabox.width > wide.mediabox.height
    assert round(float(portrait.mediabox.width)) == 595  # A4


def test_empty_standings_still_make_a_document():
    pages = pages_text(build_standings_pdf("Cup", "Before play", [], [], GENERATED))
    assert len(pages) == 1 and "No rows yet." in pages[0] and "Page 1 of 1" in pages[0]


def test_markup_escapes_and_switches_font_for_cjk_runs_only():
    assert markup("A&B <x>") == "A&amp;B &lt;x&gt;"
    cjk, hangul = font_for("王"), font_for("김")
    assert markup("Li 王小明 Jr") == f'Li <font name="{cjk}">王小明</font> Jr'
    assert markup("김") == f'<font name="{hangul}">김</font>'
    assert has_cjk("山田") and not has_cjk("Zoë Łukasz")


def test_save_export_writes_under_the_export_dir_only(tmp_path):
    path = save_export(tmp_path / "exports", "standings-1.pdf", b"%PDF-1.4 data")
    assert path == tmp_path / "exports" / "standings-1.pdf" and path.read_bytes() == b"%PDF-1.4 data"
    save_export(tmp_path / "exports", "standings-1.pdf", b"new")
    assert path.read_bytes() == b"new"
    assert [p.name for p in (tmp_path / "exports").iterdir()] == ["standings-1.pdf"]  # no temporary left
    for bad in ("../x.pdf", "a/b.pdf", "", ".hidden", "x..pdf/..", "/etc/passwd"):
        with pytest.raises(ValueError):
            save_export(tmp_path / "exports", bad, b"")
