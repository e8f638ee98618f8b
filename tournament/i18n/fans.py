"""Fan names in the reader's language.

The engine (``tournament.mcr``) names every fan in canonical English, and so do its command line and the
JSON answers; the pages show ``fan_name(name)``. The translations live in the gettext catalogues like every
other text, under the message context "fan" (so a fan never shares a translation with a label spelled
alike, "Seat Wind" the fan and "Seat wind" the field). ``fan("fan", name)`` below only marks each name for
``pybabel extract`` (babel.cfg declares the keyword); tests/web/test_i18n_catalogues.py checks that the list
is the engine's, all of it.

Sources of the names, also noted in each catalogue's header: Finnish as the Finnish fan list
(``shared/seeds/003``) writes them; Chinese the Green Book's (国标麻将) names; Swedish and Spanish are our
translations (no published MCR list in either language among the project's sources).
"""

from __future__ import annotations

from flask_babel import pgettext

FAN_CONTEXT = "fan"


def fan(context: str, name: str) -> str:
    """The extraction marker (babel.cfg: ``fan:1c,2``): returns the English name unchanged."""
    return name


FAN_NAMES: tuple[str, ...] = (
    fan("fan", "Big Four Winds"),
    fan("fan", "Big Three Dragons"),
    fan("fan", "All Green"),
    fan("fan", "Nine Gates"),
    fan("fan", "Four Kongs"),
    fan("fan", "Seven Shifted Pairs"),
    fan("fan", "Thirteen Orphans"),
    fan("fan", "All Terminals"),
    fan("fan", "Little Four Winds"),
    fan("fan", "Little Three Dragons"),
    fan("fan", "All Honors"),
    fan("fan", "Four Concealed Pungs"),
    fan("fan", "Pure Terminal Chows"),
    fan("fan", "Quadruple Chow"),
    fan("fan", "Four Pure Shifted Pungs"),
    fan("fan", "Four Pure Shifted Chows"),
    fan("fan", "Three Kongs"),
    fan("fan", "All Terminals and Honors"),
    fan("fan", "Seven Pairs"),
    fan("fan", "Greater Honors and Knitted Tiles"),
    fan("fan", "All Even Pungs"),
    fan("fan", "Full Flush"),
    fan("fan", "Pure Triple Chow"),
    fan("fan", "Pure Shifted Pungs"),
    fan("fan", "Upper Tiles"),
    fan("fan", "Middle Tiles"),
    fan("fan", "Lower Tiles"),
    fan("fan", "Pure Straight"),
    fan("fan", "Three-Suited Terminal Chows"),
    fan("fan", "Pure Shifted Chows"),
    fan("fan", "All Five"),
    fan("fan", "Triple Pung"),
    fan("fan", "Three Concealed Pungs"),
    fan("fan", "Lesser Honors and Knitted Tiles"),
    fan("fan", "Knitted Straight"),
    fan("fan", "Upper Four"),
    fan("fan", "Lower Four"),
    fan("fan", "Big Three Winds"),
    fan("fan", "Mixed Straight"),
    fan("fan", "Reversible Tiles"),
    fan("fan", "Mixed Triple Chow"),
    fan("fan", "Mixed Shifted Pungs"),
    fan("fan", "Chicken Hand"),
    fan("fan", "Last Tile Draw"),
    fan("fan", "Last Tile Claim"),
    fan("fan", "Out with Replacement Tile"),
    fan("fan", "Robbing the Kong"),
    fan("fan", "Two Concealed Kongs"),
    fan("fan", "All Pungs"),
    fan("fan", "Half Flush"),
    fan("fan", "Mixed Shifted Chows"),
    fan("fan", "All Types"),
    fan("fan", "Melded Hand"),
    fan("fan", "Two Dragon Pungs"),
    fan("fan", "Outside Hand"),
    fan("fan", "Fully Concealed Hand"),
    fan("fan", "Two Melded Kongs"),
    fan("fan", "Last Tile"),
    fan("fan", "Dragon Pung"),
    fan("fan", "Prevalent Wind"),
    fan("fan", "Seat Wind"),
    fan("fan", "Concealed Hand"),
    fan("fan", "All Chows"),
    fan("fan", "Tile Hog"),
    fan("fan", "Double Pung"),
    fan("fan", "Two Concealed Pungs"),
    fan("fan", "Concealed Kong"),
    fan("fan", "All Simples"),
    fan("fan", "Pure Double Chow"),
    fan("fan", "Mixed Double Chow"),
    fan("fan", "Short Straight"),
    fan("fan", "Two Terminal Chows"),
    fan("fan", "Pung of Terminals or Honors"),
    fan("fan", "Melded Kong"),
    fan("fan", "One Voided Suit"),
    fan("fan", "No Honors"),
    fan("fan", "Edge Wait"),
    fan("fan", "Closed Wait"),
    fan("fan", "Single Wait"),
    fan("fan", "Self-Drawn"),
    fan("fan", "Flower Tiles"),
    fan("fan", "Concealed Kong and Melded Kong"),
)


def fan_name(name: str) -> str:
    """The fan's name in the reader's language (the English name itself in English)."""
    return pgettext(FAN_CONTEXT, name)
