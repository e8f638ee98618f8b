from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    DateField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from tournament.constants import DEFAULT_LANGUAGE, LANGUAGES
from tournament.i18n import current_language
from tournament.i18n.labels import translated
from tournament.models import (
    DRAW_PRIORITIES,
    END_RULES,
    ENTRY_MODES,
    RULESET_LABELS,
    TIE_BREAKS,
    DrawPriority,
    EndRule,
    EntryMode,
    Role,
)
from tournament.models.tournaments import (
    DEFAULT_FOUL_TYPES,
    DEFAULT_RULESET,
    DEFAULT_TABLE_POINTS,
    DEFAULT_TIE_BREAKS,
)
from tournament.services.people.registration.countries import country_names
from tournament.services.people.tournaments import LIMITS, TournamentData
from tournament.services.people.tournaments import validate as validate_tournament
from tournament.timezones import DEFAULT_TIME_ZONE, zone_choices
from tournament.web.forms import VersionedForm, choices


def _range(name: str, label: str, **kwargs) -> IntegerField:
    low, high = LIMITS[name]
    return IntegerField(
        label,
        validators=[InputRequired(_l("Enter a whole number.")),
                    NumberRange(low, high, _l("From %(low)d to %(high)d.", low=low, high=high))],
        **kwargs,
    )


TIE_BREAK_CHOICES = choices([("", _l("(none)")), *((value, _l(label)) for value, label in TIE_BREAKS.items())])
ROLE_LABELS = {Role.REFEREE.value: _l("Referee"), Role.ORGANISER.value: _l("Organiser")}


def _translated(labels: dict) -> list:
    """A select's choices from the models' English labels (tournament/i18n/labels.py marks them), shown in the
    reader's language."""
    return choices({value: _l(label) for value, label in labels.items()})


def _tie_break(index: int) -> str:
    return DEFAULT_TIE_BREAKS[index] if index < len(DEFAULT_TIE_BREAKS) else ""


class TournamentForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(_l("The tournament needs a name.")), Length(max=120)])
    venue = StringField(_l("Venue"), validators=[Length(max=200)])
    # The host country (the EMA results workbook and the observer's report): a code or a name, stored as EMA
    # writes it (NED); empty until known, and then the EMA check asks for it.
    country = StringField(_l("Host country"), validators=[Optional(), Length(max=100)],
                          render_kw={"list": "country-names", "autocomplete": "off"})
    start_date = DateField(_l("First day"), validators=[Optional()])
    end_date = DateField(_l("Last day"), validators=[Optional()])
    # A select, so a mistyped zone cannot be sent; the service checks the name again (the API sends text).
    time_zone = SelectField(_l("Time zone"), default=DEFAULT_TIME_ZONE, validators=[Optional()],
                            choices=[(name, name.replace("_", " ")) for name in zone_choices()])
    # Optional: a form posted without it (an older page) keeps English, as before the setting existed.
    language = SelectField(_l("Default language"), default=DEFAULT_LANGUAGE, validators=[Optional()],
                           choices=list(LANGUAGES.items()))
    ruleset = SelectField(_l("Ruleset"), choices=_translated(RULESET_LABELS), default=DEFAULT_RULESET)
    session_count = _range("session_count", _l("Sessions"), default=7)
    session_minutes = _range("session_minutes", _l("Session length (minutes)"), default=120)
    # Radio buttons, not selects: their long choices wrap on a phone instead of being cut off (issue 32).
    end_rule = RadioField(_l("When time is called"), choices=_translated(END_RULES), default=EndRule.FINISH_HAND)
    entry_mode = RadioField(_l("Who enters the hands"), choices=_translated(ENTRY_MODES), default=EntryMode.REFEREE)
    draw_priority = RadioField(_l("The draws avoid first"), choices=_translated(DRAW_PRIORITIES),
                               default=DrawPriority.REPEATS_FIRST)
    # Optional: a form posted without it (an older page, a script) keeps the usual 15 minutes.
    warning_minutes = IntegerField(
        _l("Clock warning (minutes before the end)"), default=15,
        validators=[Optional(), NumberRange(*LIMITS["warning_minutes"], _l("From 0 to 60."))],
    )
    # Optional like the warning: a form posted without it keeps the Green Book's 30 minutes.
    appeal_minutes = IntegerField(
        _l("Appeal window (minutes after the session ends)"), default=30,
        validators=[Optional(), NumberRange(*LIMITS["appeal_minutes"], _l("From 0 to 240."))],
    )
    false_mahjong_under_minimum = _range(
        "false_mahjong_under_minimum", _l("False mahjong, legal hand under 8 points (to each opponent)"), default=10
    )
    false_mahjong_not_winning = _range(
        "false_mahjong_not_winning", _l("False mahjong, not a winning hand (to each opponent)"), default=20
    )
    points_first = _range("table_point", _l("1st"), default=DEFAULT_TABLE_POINTS[0])
    points_second = _range("table_point", _l("2nd"), default=DEFAULT_TABLE_POINTS[1])
    points_third = _range("table_point", _l("3rd"), default=DEFAULT_TABLE_POINTS[2])
    points_fourth = _range("table_point", _l("4th"), default=DEFAULT_TABLE_POINTS[3])
    tie_break_1 = SelectField(_l("First tie-break"), choices=TIE_BREAK_CHOICES, default=_tie_break(0))
    tie_break_2 = SelectField(_l("Second tie-break"), choices=TIE_BREAK_CHOICES, default=_tie_break(1))
    tie_break_3 = SelectField(_l("Third tie-break"), choices=TIE_BREAK_CHOICES, default=_tie_break(2))
    # Two choices, not a checkbox: a form posted without it (an older page) keeps the default, not "no".
    penalties_affect_table_points = RadioField(
        _l("Penalties and table points"), default="1", validators=[Optional()],
        choices=[("1", _l("Penalties count in the score that decides table points (Green Book)")),
                 ("0", _l("Table points from the table's scores before penalties"))])
    foul_types = TextAreaField(_l("Foul types (one per line)"), validators=[Optional(), Length(max=2000)],
                               default=lambda: fouls_shown(DEFAULT_FOUL_TYPES), render_kw={"rows": 6})
    submit = SubmitField(_l("Save"))

    # Service field names that map onto a group of form fields.
    table_points = property(lambda self: self.points_first)
    tie_breaks = property(lambda self: self.tie_break_1)
    GROUPS = {"table_points": ("points_first", "points_second", "points_third", "points_fourth"),
              "tie_breaks": ("tie_break_1", "tie_break_2", "tie_break_3")}

    def validate(self, extra_validators=None) -> bool:
        """The fields' own checks and the service's rules across fields (dates in order, the warning before the
        end, table points, tie-breaks) at once, so one submit shows every problem; a field already refused is
        not told again (nor compared with a value that did not parse)."""
        valid = super().validate(extra_validators)
        for name, message in validate_tournament(self.to_data()).items():
            field = getattr(self, name, None)
            group = self.GROUPS.get(name, (name,))
            if field is None or any(getattr(self, part).errors for part in group if hasattr(self, part)):
                continue
            if name == "warning_minutes" and self.session_minutes.errors:
                continue
            field.errors = [*field.errors, message]
            valid = False
        return valid

    def country_names(self) -> list[str]:
        """The countries' names in the reader's language: the host country field's suggestions."""
        return country_names(current_language())

    def to_data(self) -> TournamentData:
        return TournamentData(
            name=self.name.data or "",
            venue=self.venue.data or "",
            country=self.country.data or None,
            start_date=self.start_date.data,
            end_date=self.end_date.data,
            ruleset=self.ruleset.data,
            session_count=self.session_count.data,
            session_minutes=self.session_minutes.data,
            end_rule=self.end_rule.data,
            warning_minutes=15 if self.warning_minutes.data is None else self.warning_minutes.data,
            appeal_minutes=30 if self.appeal_minutes.data is None else self.appeal_minutes.data,
            false_mahjong_under_minimum=self.false_mahjong_under_minimum.data,
            false_mahjong_not_winning=self.false_mahjong_not_winning.data,
            table_points=(
                self.points_first.data,
                self.points_second.data,
                self.points_third.data,
                self.points_fourth.data,
            ),
            tie_breaks=tuple(
                t for t in (self.tie_break_1.data, self.tie_break_2.data, self.tie_break_3.data) if t
            ),
            penalties_affect_table_points=self.penalties_affect_table_points.data != "0",
            foul_types=fouls_kept(self.foul_types.data),
            entry_mode=self.entry_mode.data or EntryMode.REFEREE,
            time_zone=self.time_zone.data or DEFAULT_TIME_ZONE,
            language=self.language.data or DEFAULT_LANGUAGE,
            draw_priority=self.draw_priority.data or DrawPriority.REPEATS_FIRST,
        )



def fouls_shown(fouls) -> str:
    """The foul types one per line for the settings form, the default ones in the reader's language."""
    return "\n".join(translated(foul) if foul in DEFAULT_FOUL_TYPES else foul for foul in fouls)


def fouls_kept(text: str | None) -> tuple[str, ...]:
    """The foul types the form gives, a default one written in the reader's language kept as its English key: it is
    worded again for each reader (pages, penalty lists), so a Finnish organiser's save leaves no Finnish word on a
    Swedish referee's form and no English on a Finnish one."""
    defaults = {translated(foul).casefold(): foul for foul in DEFAULT_FOUL_TYPES}
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return tuple(defaults.get(line.casefold(), line) for line in lines) or DEFAULT_FOUL_TYPES


class EditTournamentForm(VersionedForm, TournamentForm):
    def fill_from(self, data: TournamentData, version: int) -> None:
        for name in (
            "name", "venue", "start_date", "end_date", "ruleset", "session_count", "session_minutes",
            "end_rule", "warning_minutes", "appeal_minutes", "false_mahjong_under_minimum",
            "false_mahjong_not_winning", "entry_mode", "time_zone", "language", "draw_priority",
        ):
            getattr(self, name).data = getattr(data, name)
        for field, value in zip(
            (self.points_first, self.points_second, self.points_third, self.points_fourth),
            data.table_points,
            strict=True,
        ):
            field.data = value
        tie_breaks = [*data.tie_breaks, "", "", ""]
        self.tie_break_1.data, self.tie_break_2.data, self.tie_break_3.data = tie_breaks[:3]
        self.penalties_affect_table_points.data = "1" if data.penalties_affect_table_points else "0"
        self.country.data = data.country or ""
        self.foul_types.data = fouls_shown(data.foul_types)
        self.version.data = str(version)


class ConfirmForm(FlaskForm):
    """A CSRF-protected button (remove, revoke ...)."""

    submit = SubmitField(_l("Remove"))
