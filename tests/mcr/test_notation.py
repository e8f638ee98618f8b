"""The hand notation: parsing, formatting and errors that name the problem and its position."""

import pytest

from tournament.mcr import MCRError, parse_hand, winning_tiles
from tournament.mcr.notation import format_hand, parse
from tournament.mcr.setkinds import CHOW, KIND_NAMES, KONG, PUNG
from tournament.mcr.tiles import code, from_code


def test_doc_example_with_declared_sets():
    p = parse_hand("[123m][555p]{EEEE}789sPP")
    assert [(KIND_NAMES[m.kind], code(m.tile), m.concealed) for m in p.melds] == [
        ("chow", "1m", False),
        ("pung", "5p", False),
        ("kong", "E", True),
    ]
    assert [m.kind for m in p.melds] == [CHOW, PUNG, KONG]
    assert p.concealed_codes == ("7s", "8s", "9s", "P")
    assert p.winning_tile == "P"
    assert [m.notation for m in p.melds] == ["[123m]", "[555p]", "{EEEE}"]


def test_last_tile_written_is_the_winning_tile():
    p = parse_hand("123456789m123s5p5p")
    assert p.winning_tile == "5p"
    assert len(p.concealed) == 13


def test_spaces_are_ignored_and_z_suffix_accepted():
    a = parse_hand("19m 19s 19p 1234567z E")
    b = parse_hand("19m19s19pESWNCFPE")
    assert a == b


def test_unsorted_chow_is_normalised():
    p = parse_hand("[312m]456m789m123s55p")
    assert p.melds[0].notation == "[123m]"


def test_format_roundtrip():
    p = parse_hand("[123m][5555p]{EEEE}789sPP")
    assert format_hand(p.melds, p.all_concealed()) == "[123m][5555p]{EEEE}789sPP"
    assert parse_hand(p.notation) == p


def test_tile_codes_roundtrip():
    for t in range(34):
        assert from_code(code(t)) == t
    assert from_code("5z") == from_code("C")
    with pytest.raises(ValueError):
        from_code("0m")


@pytest.mark.parametrize(
    "text, code_, position, words",
    [
        ("123m456m789m12x3s55p", "unknown_character", 15, "'x'"),
        ("123m456m789m123s55", "digit_without_suit", 17, "'5'"),
        ("123E456m789m123s55p", "digit_without_suit", 1, "suit"),
        ("m123456789m123s55p", "suit_without_digit", 1, "'m'"),
        ("11111m456m789m123s", "too_many_of_tile", 5, "fifth 1m"),
        ("[1111m]1m23m456m789m55p", "too_many_of_tile", 8, "fifth 1m"),
        ("[12m]456m789m123s55p", "bad_meld", 1, "[12m]"),
        ("[124m]456m789m123s55p", "bad_meld", 1, "not a chow"),
        ("[EFP]456m789m123s55p", "bad_meld", 1, "not a chow"),
        ("{555m}456m789m123s55p", "bad_meld", 1, "concealed kong"),
        ("[123m456m789m123s55p", "bad_meld", 1, "not closed"),
        ("123m]456m789m123s55p", "bad_meld", 5, "opening"),
        ("123m[456m]789m123s55p", "set_after_tiles", 5, "before the concealed"),
        ("[111m][222m][333m][444m][555m]55p", "too_many_sets", 25, "four"),
        ("0m23m456m789m123s55p", "bad_tile", 1, "0m"),
        ("8z23m456m789m123s55p", "bad_tile", 1, "8z"),
    ],
)
def test_errors_name_problem_and_position(text, code_, position, words):
    with pytest.raises(MCRError) as ei:
        parse_hand(text)
    e = ei.value
    assert e.code == code_
    assert e.position == position
    assert f"position {position}" in str(e)
    assert words in str(e)


@pytest.mark.parametrize(
    "text, found",
    [("123m456m789m123s5p", 13), ("123m456m789m123s55p5p", 15), ("[123m]456m789m123s555p", 12), ("", 0)],
)
def test_wrong_tile_count(text, found):
    with pytest.raises(MCRError) as ei:
        parse_hand(text)
    assert ei.value.code == "wrong_tile_count"
    assert ei.value.position is None
    assert f"found {found}" in str(ei.value)


def test_non_text_hand():
    with pytest.raises(MCRError) as ei:
        parse_hand(None)  # type: ignore[arg-type]
    assert ei.value.code == "bad_hand"


def test_thirteen_tile_parse_has_no_winning_tile():
    p = parse("[123m]456789m11p99s", tiles=13)
    assert p.win_tile is None and p.winning_tile is None
    assert len(p.concealed) == 10


def test_winning_tiles_rejects_wrong_count():
    with pytest.raises(MCRError) as ei:
        winning_tiles("123m456m789m123s55p")
    assert ei.value.code == "wrong_tile_count"


def test_error_is_value_error_and_picklable():
    import pickle

    e = MCRError("bad_meld", "x is bad", 3)
    assert isinstance(e, ValueError)
    e2 = pickle.loads(pickle.dumps(e))
    assert (e2.code, e2.message, e2.position) == ("bad_meld", "x is bad", 3)


@pytest.mark.parametrize(
    "text",
    ["[123m][555p]{EEEE}789sPP", "123456789m123s5p5p", "[7777m]{6666s}[777s]22m24p3p", "19m 19s 19p 1234567z E"],
)
def test_tallies_count_concealed_tiles_and_whole_hand(text):
    p = parse_hand(text)
    own, whole = p.tallies
    concealed = p.all_concealed()
    every = concealed + tuple(t for m in p.melds for t in m.tiles)
    assert own == tuple(concealed.count(t) for t in range(34))
    assert whole == tuple(every.count(t) for t in range(34))
    assert p.counts() == list(whole)


def test_a_hand_built_directly_has_its_tallies():
    from tournament.mcr.notation import ParsedHand

    p = parse_hand("[123m][555p]{EEEE}789sPP")
    q = ParsedHand(p.melds, p.concealed, p.win_tile)
    assert q == p and q.tallies == p.tallies
