from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    IntegerField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional
from wtforms.widgets import HiddenInput

from tournament.constants import MAX_ID
from tournament.models import PlayerStatus
from tournament.services.people.registration import LIMITS, MAX_IMPORT_ROWS, STATUS_LABELS, PlayerData
from tournament.services.people.registration.players import MAX_FIXED_TABLE
from tournament.web.forms import VersionedForm, choices
from tournament.web.idempotency import IdempotentForm


class PlayerForm(IdempotentForm):
    first_name = StringField(
        _l("First name"),
        validators=[DataRequired(_l("The first name is required.")), Length(max=LIMITS["first_name"])],
        render_kw={"autocomplete": "off"},
    )
    last_name = StringField(
        _l("Last name"),
        validators=[DataRequired(_l("The last name is required.")), Length(max=LIMITS["last_name"])],
        render_kw={"autocomplete": "off"},
    )
    country = StringField(
        _l("Country"),
        description=_l("A code such as FI, FIN or EMA's GER, or the country's name (Finland, Suomi, Deutschland). "
                       "May be left empty."),
        render_kw={"list": "country-names", "autocomplete": "off"},
    )
    club = StringField(_l("Club"), validators=[Length(max=LIMITS["club"])])
    team = StringField(
        _l("Team"),
        validators=[Length(max=LIMITS["team"])],
        description=_l("Teammates are kept apart in the draw and ranked together."),
        render_kw={"list": "team-names", "autocomplete": "off"},
    )
    ema_number = StringField(
        _l("EMA number"),
        description=_l("8 digits; leave empty if the player has none."),
        render_kw={"inputmode": "numeric", "autocomplete": "off"},
    )
    is_substitute = BooleanField(_l("Substitute (plays only to fill an incomplete table)"))
    status = SelectField(_l("Status"), choices=choices({value: _l(label) for value, label in STATUS_LABELS.items()}),
                         default=PlayerStatus.REGISTERED.value)
    notes = TextAreaField(_l("Notes"), validators=[Length(max=LIMITS["notes"])],
                          description=_l("Only the staff see the notes."))
    fixed_table = IntegerField(
        _l("Fixed table (access needs)"),
        validators=[Optional(), NumberRange(min=1, max=MAX_FIXED_TABLE,
                                            message=_l("A table number from 1 to %(num)d, or empty.",
                                                       num=MAX_FIXED_TABLE))],
        description=_l("The player keeps this table number in every draw and plan; the draw works around it. "
                       "Leave empty otherwise."),
        render_kw={"inputmode": "numeric"},
    )
    submit = SubmitField(_l("Save player"))

    def to_data(self) -> PlayerData:
        return PlayerData(
            first_name=self.first_name.data or "",
            last_name=self.last_name.data or "",
            country=self.country.data or "",
            club=self.club.data or "",
            team=self.team.data or "",
            ema_number=self.ema_number.data or "",
            is_substitute=bool(self.is_substitute.data),
            status=self.status.data,
            notes=self.notes.data or "",
            fixed_table=self.fixed_table.data,
        )



class EditPlayerForm(VersionedForm, PlayerForm):
    def fill_from(self, data: PlayerData, version: int) -> None:
        for name in ("first_name", "last_name", "country", "club", "team", "is_substitute", "status", "notes",
                     "fixed_table"):
            getattr(self, name).data = getattr(data, name)
        self.ema_number.data = data.ema_number or ""
        self.version.data = str(version)


class StatusForm(FlaskForm):
    """A CSRF-protected status button, with an optional note (reason for a withdrawal ...)."""

    note = StringField(_l("Reason (optional, added to the notes)"), validators=[Length(max=200)])
    submit = SubmitField(_l("Change status"))


class ImportForm(FlaskForm):
    file = FileField(_l("CSV file"), description=_l("UTF-8; separated by commas or semicolons."))
    text = TextAreaField(_l("Or paste the rows"), render_kw={"rows": 8, "spellcheck": "false"})
    submit = SubmitField(_l("Preview"))


class ConfirmImportForm(IdempotentForm):
    # The previewed file kept on the server (tournament.models.PlayerImport), not its text.
    import_id = IntegerField(widget=HiddenInput(),
                             validators=[InputRequired(), NumberRange(min=1, max=MAX_ID)])
    # The organiser's choice on a preview with bad rows: import the good rows (how many the preview showed),
    # skip the bad ones (how many). 0 bad rows to skip: the whole file, all or nothing.
    skip_bad_rows = IntegerField(widget=HiddenInput(), default=0,
                                 validators=[Optional(), NumberRange(min=0, max=MAX_IMPORT_ROWS)])
    good_rows = IntegerField(widget=HiddenInput(), validators=[Optional(), NumberRange(min=1, max=MAX_IMPORT_ROWS)])
    submit = SubmitField(_l("Import"))
