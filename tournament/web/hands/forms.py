"""Forms of score entry: a hand, a table's totals, a penalty and its cancelling, closing a session."""

from __future__ import annotations

import json

from flask_babel import gettext, lazy_pgettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from tournament.constants import MAX_INT, MIN_INT
from tournament.i18n import DEFAULT_LANGUAGE, current_language
from tournament.models import HANDS_PER_SESSION, HandResult
from tournament.services.play.scoring import FalseMahjongData, HandData
from tournament.services.play.session import SeatedPlayer
from tournament.web.checker.picker import picker_texts
from tournament.web.idempotency import IdempotentForm

FALSE_MAHJONG_CHOICES = [
    ("", _l("No false mahjong")),
    ("engine", _l("False mahjong: the engine classes the tiles")),
    ("under_minimum", _l("False mahjong: legal hand under 8 points")),
    ("not_winning", _l("False mahjong: no winning hand")),
]


FALSE_MAHJONG_FLAGS = ("self_drawn", "last_tile", "wall_last", "kong")
# The discarder's explicit "nobody: the winner drew it" choice. There is no default: a referee who forgot to
# say who discarded gets an error next to the field, never a silent self-draw (issue 21).
SELF_DRAWN = "self"
NOT_SCORED_CHOICE = ("not_scored", _l("Not scored: stopped by the time call (its false mahjongs still pay)"))


class FalseMahjongEntry(Form):
    """One player's false mahjong in this hand (one row per player at the table)."""

    player_id = HiddenField()
    kind = SelectField(_l("False mahjong"), choices=FALSE_MAHJONG_CHOICES, default="")
    hand = StringField(_l("Claimed hand"), validators=[Optional(), Length(max=120)],
                       render_kw={"autocomplete": "off", "spellcheck": "false", "autocapitalize": "off"})
    # the claim's win context: the engine checks the claimed tiles as it checks a win (flowers never count)
    self_drawn = BooleanField(_l("Self-drawn"))
    last_tile = BooleanField(_l("Last tile of its kind"))
    wall_last = BooleanField(_l("Last tile of the wall"))
    kong = BooleanField(_l("Kong"))


class HandForm(IdempotentForm):
    version = HiddenField()
    number = IntegerField(lazy_pgettext("the hand number", "Hand"), validators=[InputRequired(_l("Which hand (1-16)?")),
                                                  NumberRange(1, HANDS_PER_SESSION, _l("Hands are 1 to 16."))])
    result = RadioField(_l("Result"), choices=[("win", _l("Mahjong (a win)")), ("draw", _l("Draw: wall exhausted"))],
                        default="win")
    # Seat buttons (radios): the values are player ids, and SELF_DRAWN for the discarder.
    winner_id = RadioField(_l("Winner"), choices=[], validate_choice=False)
    discarder_id = RadioField(_l("Discarded by"), choices=[], validate_choice=False)
    hand = StringField(_l("Winning hand"), validators=[Optional(), Length(max=120)],
                       description=_l("Declared sets first ([123m] chow, [555p] pung, {EEEE} concealed kong), "
                                      "then the concealed tiles; the last tile is the winning tile."),
                       # the picker is drawn above the seats, in #hand-picker (hands/_hand_bits.html)
                       render_kw={"data-tile-picker": "hand-picker", "data-hand-param": "hand", "autocomplete": "off",
                                  "spellcheck": "false", "autocapitalize": "off"})
    flowers = IntegerField(_l("Flowers"), default=0,
                           validators=[Optional(), NumberRange(0, 8, _l("Flowers are 0 to 8."))],
                           render_kw={"min": 0, "max": 8, "inputmode": "numeric", "data-hand-param": "flowers"})
    last_tile = BooleanField(_l("Last tile of its kind"), render_kw={"data-hand-param": "last_tile"})
    wall_last = BooleanField(_l("Last tile of the wall (or last discard)"), render_kw={"data-hand-param": "wall_last"})
    kong = BooleanField(_l("Kong: replacement tile (self-drawn) or robbing a kong"),
                        render_kw={"data-hand-param": "kong"})
    false_mahjongs = FieldList(FormField(FalseMahjongEntry), _l("False mahjongs"), min_entries=4, max_entries=4)
    # A referee's ruling on a win's points: paid instead of the engine's count (which stays recorded).
    ruled_points = IntegerField(_l("Ruled points (fans, flowers apart)"), validators=[Optional()],
                                render_kw={"min": 8, "inputmode": "numeric"},
                                description=_l("From 8 to the engine's count: e.g. no wait fan or Last Tile when the "
                                               "winning tile was not shown (MERS 1.9), or the winner's own count."))
    ruling = StringField(_l("The ruling"), validators=[Optional(), Length(max=500)])
    submit = SubmitField(_l("Save hand"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if current_language() != DEFAULT_LANGUAGE:
            # The tile picker's words in the reader's language (English ones are in the script). A dict of this
            # bound field's own: the class's render_kw is shared by every request.
            self.hand.render_kw = {**(self.hand.render_kw or {}),
                                   "data-tile-picker-texts": json.dumps(picker_texts(), ensure_ascii=False)}

    def set_players(self, players: list[SeatedPlayer], labels: dict[int, str]) -> None:
        options = [(str(sp.player_id), labels[sp.player_id]) for sp in players]
        self.winner_id.choices = options
        self.discarder_id.choices = [*options, (SELF_DRAWN, gettext("Self-drawn"))]
        while len(self.false_mahjongs) < len(players):
            self.false_mahjongs.append_entry()
        for entry, sp in zip(self.false_mahjongs, players, strict=False):
            entry.player_id.data = str(sp.player_id)
            entry.kind.label.text = gettext("False mahjong by %(name)s", name=labels[sp.player_id])
            entry.hand.label.text = gettext("Hand claimed by %(name)s", name=labels[sp.player_id])

    def allow_not_scored(self) -> None:
        """The hand a stop-immediately time call stopped: its correction records false mahjongs only."""
        self.result.choices = [NOT_SCORED_CHOICE]

    def fill(self, summary: dict) -> None:
        """Load a stored hand (hand_summary) for a correction."""
        self.number.data = summary["number"]
        if summary["result"] == NOT_SCORED_CHOICE[0]:
            self.allow_not_scored()
        self.result.data = summary["result"] if summary["result"] in tuple(HandResult) else HandResult.DRAW
        win = summary["result"] == HandResult.WIN
        self.winner_id.data = str(summary["winner_id"] or "")
        self.discarder_id.data = str(summary["discarder_id"]) if summary["discarder_id"] else (
            SELF_DRAWN if win else "")
        self.hand.data = summary["hand"]
        self.flowers.data = summary["flowers"]
        self.last_tile.data = summary["last_tile"]
        self.wall_last.data = summary["wall_last"]
        self.kong.data = summary["kong"]
        self.ruled_points.data = summary.get("ruled_points")
        self.ruling.data = summary.get("ruling") or ""
        self.version.data = str(summary["version"])
        claims = {fm["player_id"]: fm for fm in summary["false_mahjongs"]}
        for entry in self.false_mahjongs:
            claim = claims.get(_int(entry.player_id.data))
            if claim:
                entry.kind.data = "engine" if claim["hand"] else claim["kind"]
                entry.hand.data = claim["hand"]

    def is_win(self) -> bool:
        return self.result.data == HandResult.WIN

    def is_self_drawn(self) -> bool:
        return self.discarder_id.data == SELF_DRAWN

    def validate_winner_id(self, field) -> None:
        if self.is_win() and not field.data:
            raise ValidationError(gettext("Who won? Choose the winner."))

    def validate_discarder_id(self, field) -> None:
        # anything but a player id or SELF_DRAWN is no answer either (never read as a self-draw)
        if self.is_win() and not (field.data == SELF_DRAWN or _int(field.data) is not None):
            raise ValidationError(gettext("Who discarded the winning tile? Choose the player, or Self-drawn."))
        if self.is_win() and field.data and field.data == self.winner_id.data:
            raise ValidationError(gettext("The winner did not discard the winning tile: choose who did, or Self-drawn."))

    def false_mahjong_rows(self) -> list[tuple[int, FalseMahjongData]]:
        """(row index, claim) for every row with a false mahjong, in seat order."""
        rows = []
        for index, entry in enumerate(self.false_mahjongs):
            kind = entry.kind.data or ""
            if not kind:
                continue
            rows.append((index, FalseMahjongData(
                player_id=_int(entry.player_id.data) or 0,
                hand=(entry.hand.data or "").strip() or None,
                kind=None if kind == "engine" else kind,
                **{flag: bool(entry[flag].data) for flag in FALSE_MAHJONG_FLAGS},
            )))
        return rows

    def to_data(self) -> HandData:
        win = self.result.data == HandResult.WIN
        return HandData(
            number=self.number.data,
            result=self.result.data or "",
            winner_id=_int(self.winner_id.data) if win else None,
            discarder_id=None if not win or self.is_self_drawn() else _int(self.discarder_id.data),
            hand=(self.hand.data or "").strip() if win else None,
            flowers=(self.flowers.data or 0) if win else 0,
            last_tile=bool(self.last_tile.data) and win,
            wall_last=bool(self.wall_last.data) and win,
            kong=bool(self.kong.data) and win,
            false_mahjongs=tuple(claim for _, claim in self.false_mahjong_rows()),
            ruled_points=self.ruled_points.data if win else None,
            ruling=(self.ruling.data or "").strip() if win else "",
        )


def _int(value) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if MIN_INT < number <= MAX_INT else None


class ConvertForm(FlaskForm):
    """Nothing but the CSRF token: buttons that post (delete, clear totals, start, reopen)."""


class DeleteHandForm(FlaskForm):
    version = HiddenField()


class FinishForm(FlaskForm):
    force = BooleanField(_l("Close it anyway: the listed problems are known and accepted"))
    submit = SubmitField(_l("Close the session"))


class PenaltyForm(IdempotentForm):
    player_id = SelectField(_l("Player"), choices=[], validate_choice=False)
    session = SelectField(_l("Session"), choices=[], validate_choice=False)
    hand = IntegerField(_l("Hand (optional)"), validators=[Optional(), NumberRange(1, HANDS_PER_SESSION)],
                        render_kw={"min": 1, "max": HANDS_PER_SESSION, "inputmode": "numeric"})
    foul = SelectField(_l("Foul"), choices=[], validate_choice=False)
    amount = IntegerField(_l("Points deducted"), validators=[InputRequired(_l("How many points?")),
                                                             NumberRange(0, 1000, _l("0 (a warning) to 1000 points."))],
                          render_kw={"min": 0, "inputmode": "numeric"},
                          description=_l("0 records a warning. The ladder for the same foul in a session: a warning, "
                                         "then 5, 10, 20, 30 ... (filled in when you choose the player and the "
                                         "foul)."))
    reason = StringField(_l("Reason"), validators=[InputRequired(_l("Say why.")), Length(max=500)])
    submit = SubmitField(_l("Give penalty"))


class CancelPenaltyForm(FlaskForm):
    reason = StringField(_l("Why cancel it"), validators=[InputRequired(_l("Say why it is cancelled.")),
                                                          Length(max=500)])
    submit = SubmitField(_l("Cancel penalty"))


class TotalsForm(IdempotentForm):
    """A totals-only table: the four session totals from the paper score sheet, in seat order."""

    version = HiddenField()
    scores = FieldList(
        IntegerField(_l("Session total"), validators=[
            InputRequired(_l("Enter this player's total.")),
            NumberRange(-1_000_000, 1_000_000, _l("That is not a session total."))],
                     render_kw={"inputmode": "numeric"}),
        min_entries=4, max_entries=4,
    )
    submit = SubmitField(_l("Save totals"))


class SubstitutionForm(IdempotentForm):
    """A substitution at the table (MERS 4): who goes out, who comes in, from which hand, why."""

    out_player_id = SelectField(_l("Goes out"), choices=[], validate_choice=False,
                                validators=[InputRequired(_l("Choose who goes out."))])
    in_player_id = SelectField(_l("Comes in"), choices=[], validate_choice=False,
                               validators=[InputRequired(_l("Choose who comes in."))],
                               description=_l("Players seated nowhere in this session; substitutes first."))
    from_hand = IntegerField(_l("From hand"), validators=[InputRequired(_l("From which hand?")),
                                                          NumberRange(1, HANDS_PER_SESSION, _l("A hand 1 to 16."))],
                             render_kw={"min": 1, "max": HANDS_PER_SESSION, "inputmode": "numeric"})
    reason = SelectField(_l("Why"), choices=[("late", _l("Late: the substitute plays the table")),
                                             ("ill", _l("Ill")), ("left", _l("Left")),
                                             ("disqualified", _l("Disqualified")), ("other", _l("Other"))],
                         default="ill")
    # Ill or left: the player leaves every later draw unless kept (said before saving, issue 32).
    stays = BooleanField(_l("Keep them in the later draws"),
                         description=_l("Ill or left: without this box the outgoing player is withdrawn from every "
                                        "later draw (an organiser can reinstate them). Late: they stay. "
                                        "Disqualified: they leave."))
    note = StringField(_l("Note (optional)"), validators=[Optional(), Length(max=500)])
    submit = SubmitField(_l("Record the substitution"))


class RefereeCallForm(IdempotentForm):
    """A call to the referee at this table: what happened, the ruling, a dead hand, a penalty or warning."""

    hand = IntegerField(_l("Hand (if during one)"), validators=[Optional(), NumberRange(1, HANDS_PER_SESSION,
                                                                                         _l("A hand 1 to 16."))],
                        render_kw={"min": 1, "max": HANDS_PER_SESSION, "inputmode": "numeric"})
    called_by = SelectField(_l("Called by"), choices=[], validate_choice=False)
    situation = StringField(_l("What happened"), validators=[InputRequired(_l("Say what happened.")),
                                                             Length(max=500)])
    ruling = StringField(_l("Ruling"), validators=[Optional(), Length(max=500)],
                         description=_l("A ruling on a hand's points goes on the hand itself: correct the hand with "
                                        "the ruled points."))
    dead_hand_player_id = SelectField(_l("Dead hand (this player cannot win the hand)"), choices=[],
                                      validate_choice=False)
    penalty_player_id = SelectField(_l("Penalty or warning to"), choices=[], validate_choice=False)
    penalty_amount = IntegerField(_l("Points deducted (0: a warning)"), validators=[Optional(), NumberRange(0, 1000)],
                                  render_kw={"min": 0, "inputmode": "numeric"})
    penalty_foul = SelectField(_l("Foul"), choices=[], validate_choice=False)
    submit = SubmitField(_l("Log the call"))
