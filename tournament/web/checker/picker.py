"""The tile picker's words (static/js/tile-picker.js) in the reader's language.

The page hands them to the script as JSON in the hand field's data-tile-picker-texts; the script keeps the
English ones for a page that does not. ``{name}`` marks a value the script fills in.
"""

from __future__ import annotations

from flask_babel import gettext

from tournament.web.checker.tiles import HONOUR_NAMES, HONOUR_SHORT, SUIT_NAMES


def picker_texts() -> dict:
    return {
        "suits": {code: gettext(name) for code, name in SUIT_NAMES.items()},
        "honours": {code: gettext(name) for code, name in HONOUR_NAMES.items()},
        "short": {code: gettext(name) for code, name in HONOUR_SHORT.items()},
        "tile": gettext("%(ranks)s %(suit)s", ranks="{ranks}", suit="{suit}"),
        "chow": gettext("Chow [ ]"),
        "chow_aria": gettext("Melded chow: then pick its lowest tile"),
        "pung": gettext("Pung [ ]"),
        "pung_aria": gettext("Melded pung: then pick its tile"),
        "kong": gettext("Kong [ ]"),
        "kong_aria": gettext("Melded kong: then pick its tile"),
        "concealed": gettext("Concealed kong { }"),
        "concealed_aria": gettext("Concealed kong: then pick its tile"),
        "run": gettext("Run"),
        "run_aria": gettext("Run mode: each tile adds a run of three in the hand, from that tile up"),
        "three": gettext("Three"),
        "three_aria": gettext("Three mode: each tile adds three of it in the hand"),
        "pair": gettext("Pair"),
        "pair_aria": gettext("Pair mode: each tile adds two of it in the hand"),
        "pick_chow": gettext("Pick the lowest tile of the chow."),
        "pick_pung": gettext("Pick the tile of the pung."),
        "pick_kong": gettext("Pick the tile of the kong."),
        "pick_concealed": gettext("Pick the tile of the concealed kong."),
        "pick_run": gettext("Runs in the hand: pick the lowest tile of each; Run again for single tiles."),
        "pick_three": gettext("Threes in the hand: pick each tile; Three again for single tiles."),
        "pick_pair": gettext("Pairs in the hand: pick each tile; Pair again for single tiles."),
        "picker": gettext("Tile picker"),
        "tools": gettext("Picker tools"),
        "back": gettext("Back"),
        "back_long": gettext("remove the last tile or set"),
        "clear": gettext("Clear"),
        "clear_long": gettext("clear the hand"),
        "honour_grid": gettext("Winds and dragons"),
        "unreadable": gettext("The picker cannot read the text: correct it, or press Clear."),
        "only_four": gettext("There are only four %(tile)s tiles.", tile="{tile}"),
        "hand_full": gettext("The hand already has %(n)s tiles.", n="{n}"),
        "chow_numbers": gettext("A chow is three numbers in a row of one suit: pick a number tile."),
        "run_numbers": gettext("A run is three numbers in a row of one suit: pick a number tile."),
        "max_sets": gettext("At most four declared sets."),
        "no_room_set": gettext("No room for another set in a %(n)s-tile hand.", n="{n}"),
        "no_room_tiles": gettext("No room for %(count)s more tiles in a %(n)s-tile hand.", count="{count}", n="{n}"),
        "count_unknown": gettext("tile count unknown"),
        "count": gettext("%(n)s of %(total)s tiles", n="{n}", total="{total}"),
        "cannot_read": gettext("The picker cannot read this text."),
        "unreadable_words": gettext("unreadable text"),
        "empty": gettext("Click tiles below, or type."),
        "no_tiles": gettext("no tiles yet"),
        "concealed_set": gettext("concealed"),
        "melded_set": gettext("melded"),
        "concealed_words": gettext("concealed %(tiles)s", tiles="{tiles}"),
        "melded_words": gettext("melded %(tiles)s", tiles="{tiles}"),
        "winning_words": gettext("winning tile %(tile)s", tile="{tile}"),
        "hand_words": gettext("Hand: %(words)s", words="{words}"),
    }
