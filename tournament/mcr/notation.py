"""Hand text <-> tiles and declared sets.

Grammar (spaces ignored)::

    hand     := declared* tiles
    declared := '[' tiles ']'   melded chow, pung or kong
              | '{' tiles '}'   concealed kong
    tiles    := (digits suit | honour)*
    suit     := 'm' | 's' | 'p' | 'z' (1z..7z = E S W N C F P)
    honour   := 'E' | 'S' | 'W' | 'N' | 'C' | 'F' | 'P'

The last concealed tile written is the winning tile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .errors import MCRError
from .setkinds import CHOW, KONG, PUNG
from .tiles import ALL_CODES, HONOR_CODES, SUITS, code

MAX_DECLARED = 4


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. ``tile`` is the lowest tile (chow) or the repeated tile."""

    kind: int  # CHOW, PUNG or KONG (setkinds)
    tile: int
    concealed: bool = False  # only concealed kongs are declared concealed

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == KONG else 3)

    @property
    def notation(self) -> str:
        body = "".join(code(t) for t in self.tiles)
        body = _compact(body)
        return "{" + body + "}" if self.concealed else "[" + body + "]"


@dataclass(frozen=True, slots=True)
class ParsedHand:
    """Declared sets, the concealed tiles before the winning tile, and the winning tile."""

    melds: tuple[Meld, ...]
    concealed: tuple[int, ...]  # concealed tiles as written, without the winning tile
    win_tile: int | None  # None for a 13-tile (waiting) hand
    # (counts of the concealed tiles with the winning one, counts of the whole hand): 34-tuples the
    # parser has at hand anyway, kept for the scorer (see :func:`tally`)
    tallies: tuple = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tallies", tally(self.all_concealed(), self.melds))

    @property
    def concealed_codes(self) -> tuple[str, ...]:
        return tuple(code(t) for t in self.concealed)

    @property
    def winning_tile(self) -> str | None:
        return None if self.win_tile is None else code(self.win_tile)

    def all_concealed(self) -> tuple[int, ...]:
        """Concealed tiles including the winning tile."""
        if self.win_tile is None:
            return self.concealed
        return self.concealed + (self.win_tile,)

    def counts(self) -> list[int]:
        """Tile counts of the whole hand (declared sets included, a kong counts 4)."""
        return list(self.tallies[1])

    @property
    def notation(self) -> str:
        return format_hand(self.melds, self.all_concealed())


# a suit letter followed by a tile of the same suit: dropped, so that a run shares one suffix
_SHARED_SUFFIX = re.compile(r"([msp])(?=[1-9]\1)")


def _compact(s: str) -> str:
    """'1m2m3m' -> '123m' (a run of digits shares one suffix), in one C call."""
    return _SHARED_SUFFIX.sub("", s)


def format_tiles(tiles) -> str:
    return _format(tuple(tiles))


@lru_cache(maxsize=65536)
def _format(tiles: tuple[int, ...]) -> str:
    return _compact("".join(map(ALL_CODES.__getitem__, tiles)))


def format_hand(melds, concealed) -> str:
    return "".join(m.notation for m in melds) + format_tiles(concealed)


def _tiles_of(text: str, start: int, end: int, offset: int) -> list[tuple[int, int]]:
    """Parse text[start:end] as tiles; returns (tile, 1-based position) pairs."""
    out: list[tuple[int, int]] = []
    digits: list[tuple[str, int]] = []
    for i in range(start, end):
        ch = text[i]
        pos = i + 1 + offset
        if ch in " \t":
            continue
        if ch in "0123456789":
            digits.append((ch, pos))
        elif ch in SUITS or ch == "z":
            if not digits:
                raise MCRError("suit_without_digit", f"suit letter {ch!r} has no digits before it", pos)
            for d, dpos in digits:
                if d == "0" or (ch == "z" and d in "89"):
                    raise MCRError("bad_tile", f"there is no tile {d}{ch}", dpos)
                t = SUITS.index(ch) * 9 + int(d) - 1 if ch != "z" else 26 + int(d)
                out.append((t, dpos))
            digits = []
        elif ch in HONOR_CODES:
            if digits:
                raise MCRError(
                    "digit_without_suit",
                    f"digit {digits[0][0]!r} is not followed by a suit letter (m, s, p or z)",
                    digits[0][1],
                )
            out.append((27 + HONOR_CODES.index(ch), pos))
        else:
            raise MCRError("unknown_character", f"unknown character {ch!r}", pos)
    if digits:
        raise MCRError(
            "digit_without_suit",
            f"digit {digits[0][0]!r} is not followed by a suit letter (m, s, p or z)",
            digits[0][1],
        )
    return out


def _meld_of(tiles: list[tuple[int, int]], concealed: bool, pos: int, text: str) -> Meld:
    ts = sorted(t for t, _ in tiles)
    if concealed:
        if len(ts) == 4 and ts[0] == ts[3]:
            return Meld(KONG, ts[0], True)
        raise MCRError("bad_meld", f"{text} is not a concealed kong (four identical tiles in braces)", pos)
    if len(ts) == 4 and ts[0] == ts[3]:
        return Meld(KONG, ts[0])
    if len(ts) == 3:
        if ts[0] == ts[2]:
            return Meld(PUNG, ts[0])
        if ts[0] < 27 and ts[0] // 9 == ts[2] // 9 and ts[1] == ts[0] + 1 and ts[2] == ts[0] + 2:
            return Meld(CHOW, ts[0])
    raise MCRError("bad_meld", f"{text} is not a chow, pung or kong", pos)


# ---------------------------------------------------------------- fast path
# Well-formed hands are read with a regular expression and cached pieces; anything the fast path does
# not fully recognise (errors included) goes to the careful parser below, which finds the exact error
# and its position. The fast path accepts only hands the careful parser reads the same way.

_SPACES = str.maketrans("", "", " \t")  # spaces and tabs are ignored anywhere
# the legal tile counts: deleting them from a hand's counts (as bytes, in one C call) leaves the others
_UP_TO_FOUR = bytes(range(5))
# a token is a run of digits with its suit letter, or an honour; no digit 0, no 8z or 9z
_TOKEN_RE = re.compile(r"[1-9]+[msp]|[1-7]+z|[ESWNCFP]")
_MELD = r"\[[^][{}]*\]|\{[^][{}]*\}"  # a bracketed group (its body is checked by _meld_fast)
_DECLARED_RE = re.compile(rf"(?:{_MELD})*")
_MELD_RE = re.compile(_MELD)


# the digits of a token as tile kinds, per suit letter
_DIGIT_KINDS = {
    **{suit: bytes.maketrans(b"123456789", bytes(range(9 * i, 9 * i + 9))) for i, suit in enumerate(SUITS)},
    "z": bytes.maketrans(b"1234567", bytes(range(27, 34))),
}


@lru_cache(maxsize=8192)
def _token_tiles(token: str) -> tuple[int, ...]:
    """One token of the fast path, '1123m' or 'E', as tiles."""
    if len(token) == 1:  # an honour letter
        return (27 + HONOR_CODES.index(token),)
    return tuple(token[:-1].encode().translate(_DIGIT_KINDS[token[-1]]))


def _tiles_fast(text: str) -> tuple[int, ...] | None:
    """Tiles of a text made of tokens only ('123m456p77sE'), or None when other characters are left
    over. Tokens like '1123m' recur across hands, so they are cached."""
    tokens = _TOKEN_RE.findall(text)
    if len("".join(tokens)) != len(text):
        return None
    out: tuple[int, ...] = ()
    for token in tokens:
        out += _token_tiles(token)
    return out


@lru_cache(maxsize=4096)
def _meld_fast(text: str) -> Meld | None:
    """A declared set written without spaces ('[123m]', '{EEEE}'), or None when it is not one."""
    tiles = _tiles_fast(text[1:-1])
    if tiles is None:
        return None
    try:
        meld = _meld_of([(t, 0) for t in tiles], text[0] == "{", 0, text)
    except MCRError:
        return None
    return meld


def _parse_fast(text: str, tiles: int) -> ParsedHand | None:
    if " " in text or "\t" in text:
        text = text.translate(_SPACES)
    if text.startswith(("[", "{")):
        declared = _DECLARED_RE.match(text).group()
        ts = _tiles_fast(text[len(declared):])
        if ts is None:
            return None
        melds = []
        for mt in _MELD_RE.findall(declared):
            meld = _meld_fast(mt)
            if meld is None:
                return None
            melds.append(meld)
        if len(melds) > MAX_DECLARED or len(ts) != tiles - 3 * len(melds):
            return None
        melds = tuple(melds)
    else:
        ts = _tiles_fast(text)
        if ts is None or len(ts) != tiles:
            return None
        melds = ()
    concealed_counts, counts = tally(ts, melds)
    if bytes(counts).translate(None, _UP_TO_FOUR):  # a fifth tile of a kind: the careful parser says where
        return None
    if tiles == 14:
        return _new_parsed(melds, ts[:-1], ts[-1], (concealed_counts, counts))
    return _new_parsed(melds, ts, None, (concealed_counts, counts))


def tally(concealed: tuple[int, ...], melds: tuple[Meld, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(counts of the concealed tiles, counts of the whole hand) as 34-tuples (a kong counts 4)."""
    c = [0] * 34
    for t in concealed:
        c[t] += 1
    own = tuple(c)
    if not melds:
        return own, own
    for m in melds:
        t = m.tile
        if m.kind == CHOW:
            c[t] += 1
            c[t + 1] += 1
            c[t + 2] += 1
        else:
            c[t] += 4 if m.kind == KONG else 3
    return own, tuple(c)


def _new_parsed(melds: tuple[Meld, ...], concealed: tuple[int, ...], win_tile: int | None,
                tallies: tuple) -> ParsedHand:
    """``ParsedHand(melds, concealed, win_tile)`` with its tallies, built through its slots (the frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``, which costs twice as much)."""
    p = _PARSED_NEW(ParsedHand)
    _SET_MELDS(p, melds)
    _SET_CONCEALED(p, concealed)
    _SET_WIN(p, win_tile)
    _SET_TALLIES(p, tallies)
    return p


_PARSED_NEW = ParsedHand.__new__
_SET_MELDS = ParsedHand.melds.__set__
_SET_CONCEALED = ParsedHand.concealed.__set__
_SET_WIN = ParsedHand.win_tile.__set__
_SET_TALLIES = ParsedHand.tallies.__set__


def parse(text: str, *, tiles: int = 14) -> ParsedHand:
    """Parse a hand of ``tiles`` tiles (14 for a winning hand, 13 for a waiting one)."""
    if not isinstance(text, str):
        raise MCRError("bad_hand", "the hand must be a text")
    fast = _parse_fast(text, tiles)
    if fast is not None:
        return fast
    melds: list[Meld] = []
    concealed: list[tuple[int, int]] = []
    counts = [0] * 34
    n = len(text)
    i = 0
    seg_start = None  # start of a concealed segment being collected

    def count(t: int, pos: int) -> None:
        counts[t] += 1
        if counts[t] > 4:
            raise MCRError("too_many_of_tile", f"a fifth {code(t)} (there are only four of each tile)", pos)

    while i < n:
        ch = text[i]
        if ch in "[{":
            close = "]" if ch == "[" else "}"
            if seg_start is not None:
                seg = _tiles_of(text, seg_start, i, 0)
                if seg:
                    raise MCRError(
                        "set_after_tiles",
                        "declared sets must be written before the concealed tiles",
                        i + 1,
                    )
                seg_start = None
            j = i + 1
            while j < n and text[j] not in "[]{}":
                j += 1
            if j >= n or text[j] != close:
                raise MCRError("bad_meld", f"{ch!r} is not closed by {close!r}", i + 1)
            body = _tiles_of(text, i + 1, j, 0)
            if len(melds) >= MAX_DECLARED:
                raise MCRError("too_many_sets", "at most four declared sets", i + 1)
            meld = _meld_of(body, ch == "{", i + 1, text[i : j + 1])
            for t, pos in body:
                count(t, pos)
            melds.append(meld)
            i = j + 1
            continue
        if ch in "]}":
            raise MCRError("bad_meld", f"{ch!r} without an opening bracket", i + 1)
        if seg_start is None:
            seg_start = i
        i += 1
    if seg_start is not None:
        concealed = _tiles_of(text, seg_start, n, 0)
    for t, pos in concealed:
        count(t, pos)
    expected = tiles - 3 * len(melds)
    if len(concealed) != expected:
        sets = f" after {len(melds)} declared set{'s' if len(melds) != 1 else ''}" if melds else ""
        raise MCRError(
            "wrong_tile_count",
            f"expected {expected} concealed tiles{sets} for a {tiles}-tile hand, found {len(concealed)}",
        )
    ts = tuple(t for t, _ in concealed)
    melds = tuple(melds)
    if tiles == 14:
        return _new_parsed(melds, ts[:-1], ts[-1], tally(ts, melds))
    return _new_parsed(melds, ts, None, tally(ts, melds))


def parse_hand(hand: str) -> ParsedHand:
    """Parse a 14-tile winning (or claimed) hand."""
    if hand.__class__ is str:  # the fast path first, without parse's layer (it scores every hand)
        fast = _parse_fast(hand, 14)
        if fast is not None:
            return fast
    return parse(hand, tiles=14)
