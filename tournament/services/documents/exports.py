"""The printed documents of a tournament: plain rows read from the database, handed to the PDF builders
of `tournament.pdf`. The standings and the score sheets are in the tournament's language (its default
language, `Tournament.language`: a printed sheet has no reader to ask), their words translated here. Each `*_pdf` function returns the bytes and the file name to save them under; the
edge (web page or JSON API) saves the copy under EXPORT_DIR and sends the file.

Seating and schedule cards read every seat of the sessions in one query each (a thousand players over
ten sessions are 10,000 seats): no ORM objects per seat.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from datetime import datetime

from flask_babel import force_locale, get_locale, gettext, pgettext
from sqlalchemy import select
from sqlalchemy.orm import aliased

from tournament import timezones
from tournament.constants import DEFAULT_LANGUAGE, MAX_ID
from tournament.extensions import db
from tournament.i18n.winds import all_winds
from tournament.messages import msg
from tournament.models import Penalty, Player, PlayerStatus, Seat, Tournament, TournamentSession, User
from tournament.models._common import utcnow
from tournament.pdf.cards import CardEntry, CardWords, ScheduleCard, build_cards_pdf
from tournament.pdf.names import printed_name
from tournament.pdf.penalties import PenaltyRow, PenaltyWords, build_penalties_pdf
from tournament.pdf.player_links import LinkRow, build_links_pdf
from tournament.pdf.score_sheets import (
    SheetPlayer,
    SheetTable,
    SheetWords,
    build_score_sheets_pdf,
)
from tournament.pdf.seating import SeatingWords, SeatRow, build_seating_pdf
from tournament.pdf.standings import StandingsWords, build_standings_pdf
from tournament.pdf.style import PdfWords
from tournament.services.core.errors import NotFound
from tournament.services.people import player_links
from tournament.services.play import session as play
from tournament.services.results import standings as standings_service
from tournament.services.seating import schedule


@dataclass(frozen=True)
class Document:
    data: bytes
    filename: str
    mimetype: str = "application/pdf"


def _stamp() -> str:
    return f"{utcnow():%Y%m%d-%H%M%S}"


def _now(t: Tournament) -> datetime:
    """Now in the tournament's zone: the documents' 'Generated' line reads as the hall's clocks do."""
    return timezones.to_local(utcnow(), t.time_zone)  # type: ignore[return-value]


def page_words() -> PdfWords:
    """The words of every page in the language in force (force_locale): texts the pages fill in."""
    locale = get_locale()
    return PdfWords(generated=gettext("Generated %(time)s"), page=gettext("Page %(number)d of %(total)d"),
                    no_rows=gettext("No rows yet."), language=locale.language if locale else DEFAULT_LANGUAGE)


def _wind_names() -> dict[str, str]:
    """The winds' names in the language in force (the document's)."""
    return {wind: words.name for wind, words in all_winds().items()}


def _wind_initials() -> dict[str, str]:
    """The winds' initials in the language in force (Finnish I, E, L, P): where a name has no room."""
    return {wind: words.initial for wind, words in all_winds().items()}


def _wind_key() -> str:
    """The initials' key under a score sheet, in its language: "I = Itä · E = Etelä · L = Länsi · P = Pohjoinen"."""
    return " · ".join(f"{words.initial} = {words.name}" for words in all_winds().values() if words.initial != words.name)


def sheet_words() -> SheetWords:
    """The score sheets' words in the language in force (the document's)."""
    return SheetWords(
        header=(pgettext("the hand number", "Hand"), pgettext("score sheet column: the prevalent wind", "Round"), gettext("Winner"),
                gettext("Discarder"), pgettext("score sheet column: the fans scored", "Fans"), gettext("Points")),
        legend=" ".join(filter(None, (
            gettext("The letter in each player's box is their seat wind in that hand; the shaded box is the dealer "
                    "(East). Write each player's running score in their column: the four scores always sum to zero."),
            _wind_key()))),
        winds=_wind_names(), initials=_wind_initials(),
        starts=gettext("starts %(wind)s"), final_score=gettext("Final score"), signatures=gettext("Signatures"),
        referee=gettext("Referee:"), heading=gettext("Session %(num)d · Table %(table)d"),
        no_tables=gettext("No tables drawn for this session."), page=page_words())


def card_words() -> CardWords:
    """The schedule cards' words in the language in force (the document's)."""
    return CardWords(header=(gettext("Session"), gettext("Table"), gettext("Seat")), starts=gettext("Starts"),
                     qr_caption=gettext("Scan: your table, hands to confirm"),
                     no_cards=gettext("No player to print a card for."), winds=_wind_names(), page=page_words())


def standings_words() -> StandingsWords:
    """The standings' words in the language in force (the document's)."""
    return StandingsWords(header=(gettext("Rank"), gettext("Player"), gettext("Country"), gettext("Table pts"),
                                  gettext("Score")), session=gettext("S%(num)d"), page=page_words())


def seat_rows(session: TournamentSession) -> list[SeatRow]:
    rows = db.session.execute(
        select(Seat.table_number, Seat.seat_wind, Player.first_name, Player.last_name, Player.country,
               Player.is_substitute)
        .join(Player, Player.id == Seat.player_id).where(Seat.session_id == session.id)
    ).all()
    return [SeatRow(table=table, wind=wind, name=printed_name(first, last, country or ""), sort_name=f"{last}, {first}",
                    country=country or "", is_substitute=bool(sub))
            for table, wind, first, last, country, sub in rows]


def sheet_tables(session: TournamentSession) -> list[SheetTable]:
    players: dict[int, list[SheetPlayer]] = defaultdict(list)
    for row in seat_rows(session):
        players[row.table].append(SheetPlayer(start_wind=row.wind, name=row.name))
    return [SheetTable(table=number, players=seated) for number, seated in sorted(players.items())]


def drawn_session(t: Tournament, number: int) -> TournamentSession:
    """The drawn session `number`, or NotFound (also for numbers past the database's integer range)."""
    if not 0 < number <= MAX_ID:
        raise NotFound(msg("Session %(number)s has not been drawn.", number=number))
    return play.get_session(t, number)


def seating_pdf(t: Tournament, number: int) -> Document:
    session = drawn_session(t, number)
    with force_locale(t.language):
        subtitle = (gettext("Session %(num)d", num=number) if session.is_published
                    else gettext("Session %(num)d (draft: not published yet)", num=number))
        words = SeatingWords(
            by_table=gettext("By table"), by_player=gettext("By player"),
            by_table_header=(gettext("Table"), gettext("Seat"), gettext("Player"), gettext("Country")),
            by_name_header=(gettext("Player"), gettext("Country"), gettext("Table"), gettext("Seat")),
            substitute=gettext("%(name)s (substitute)"), winds=_wind_names(), page=page_words())
        data = build_seating_pdf(gettext("%(name)s: seating", name=t.name), subtitle, seat_rows(session), _now(t),
                                 words)
    return Document(data, f"seating-{t.id}-s{number}-{_stamp()}.pdf")


def score_sheets_pdf(t: Tournament, number: int) -> Document:
    session = drawn_session(t, number)
    with force_locale(t.language):
        data = build_score_sheets_pdf(gettext("%(name)s: score sheets", name=t.name),
                                      gettext("Session %(num)d", num=number), number, sheet_tables(session), _now(t),
                                      sheet_words())
    return Document(data, f"score-sheets-{t.id}-s{number}-{_stamp()}.pdf")


def session_numbers(t: Tournament) -> list[int]:
    """Every session of the tournament: those planned by its settings and any drawn beyond them."""
    drawn = db.session.scalars(select(TournamentSession.number).where(TournamentSession.tournament_id == t.id))
    return list(range(1, max([t.session_count, *drawn]) + 1))


def schedule_cards(t: Tournament, only: Collection[int] | None = None) -> list[ScheduleCard]:
    """A card for every player still in the tournament, and for anyone (a substitute) already seated; ``only``:
    the cards of these players alone (those whose table changed after publishing, say)."""
    entries: dict[int, list[CardEntry]] = defaultdict(list)
    for number, table, wind, player_id in db.session.execute(
        select(TournamentSession.number, Seat.table_number, Seat.seat_wind, Seat.player_id)
        .join(TournamentSession, TournamentSession.id == Seat.session_id)
        .where(TournamentSession.tournament_id == t.id)
    ):
        entries[player_id].append(CardEntry(session=number, table=table, wind=wind))
    out = []
    for player_id, first, last, country, status in db.session.execute(
        select(Player.id, Player.first_name, Player.last_name, Player.country, Player.status)
        .where(Player.tournament_id == t.id)
    ):
        left = status in (PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED)
        if (left and player_id not in entries) or (only is not None and player_id not in only):
            continue
        out.append(ScheduleCard(player_id=player_id, name=printed_name(first, last, country or ""),
                                sort_name=f"{last}, {first}",
                                country=country or "", entries=sorted(entries.get(player_id, []),
                                                                      key=lambda e: e.session)))
    return out


def schedule_cards_pdf(t: Tournament, link_url: Callable[[str], str] | None = None,
                       only: Collection[int] | None = None) -> Document:
    """The cards (``only``: of these players); with `link_url` (a link token -> the page's address, from the web
    layer) each card carries its player's private link as a QR code."""
    cards = schedule_cards(t, only)
    if link_url is not None:
        links = player_links.links_of(t, list(db.session.scalars(
            select(Player).where(Player.id.in_([c.player_id for c in cards])))))
        cards = [replace(c, link=link_url(player_links.token_of(links[c.player_id]))) for c in cards]
    # The weekday in the document's language: "Fri 10:00", "pe 10.00", "周五10:00".
    starts = {number: timezones.format_day(timezones.to_local(start, t.time_zone), "weekday time", t.language)
              for number, start in schedule.planned_starts(t).items()}
    with force_locale(t.language):
        words = card_words()
        data = build_cards_pdf(gettext("%(name)s: schedule cards", name=t.name),
                               gettext("Your table and seat in every session"), cards, session_numbers(t), _now(t),
                               starts=starts, words=words)
    return Document(data, f"schedule-cards-{t.id}-{_stamp()}.pdf")


def player_links_pdf(t: Tournament, link_url: Callable[[str], str]) -> Document:
    """The desk's sheet of every player's private link (withdrawn and disqualified players left out)."""
    players = [p for p in db.session.scalars(select(Player).where(Player.tournament_id == t.id))
               if p.status not in (PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED)]
    links = player_links.links_of(t, players)
    rows = [LinkRow(p.id, printed_name(p.first_name, p.last_name, p.country or ""), p.sort_name, p.country or "",
                    link_url(player_links.token_of(links[p.id])))
            for p in players]
    with force_locale(t.language):
        data = build_links_pdf(gettext("%(name)s: player links", name=t.name),
                               gettext("Private: each code opens that player's page (their table, confirmations, "
                                       "disputes). Renew a link that was shared by mistake."), rows, _now(t),
                               none_yet=gettext("No player registered yet."), words=page_words())
    return Document(data, f"player-links-{t.id}-{_stamp()}.pdf")


def standings_pdf(t: Tournament) -> Document:
    """The standings PDF, the same from the staff's page and from the API (who may see it is theirs to check)."""
    result = standings_service.standings(t)
    printed = {player_id: printed_name(first, last, country or "") for player_id, first, last, country in
               db.session.execute(select(Player.id, Player.first_name, Player.last_name, Player.country)
                                  .where(Player.tournament_id == t.id))}
    rows = [replace(row, name=printed.get(row.player_id, row.name)) for row in result.rows]
    with force_locale(t.language):
        counted = ", ".join(str(n) for n in result.session_numbers) or gettext("none yet")
        words = standings_words()
        data = build_standings_pdf(gettext("%(name)s: standings", name=t.name),
                                   gettext("Sessions counted: %(sessions)s", sessions=counted), rows,
                                   result.session_numbers, timezones.to_local(result.generated_at, t.time_zone), words)
    return Document(data, f"standings-{t.id}-{result.generated_at:%Y%m%d-%H%M%S}.pdf")


def penalty_rows(t: Tournament) -> list[PenaltyRow]:
    giver = aliased(User)
    rows = db.session.execute(
        select(Penalty, TournamentSession.number, Player.first_name, Player.last_name, Player.country, giver.name,
               giver.email)
        .join(TournamentSession, TournamentSession.id == Penalty.session_id)
        .join(Player, Player.id == Penalty.player_id)
        .outerjoin(giver, giver.id == Penalty.given_by_id)
        .where(Penalty.tournament_id == t.id)
        .order_by(TournamentSession.number, Penalty.given_at, Penalty.id)
    ).all()
    tables = {
        (session_id, player_id): table
        for session_id, player_id, table in db.session.execute(
            select(Seat.session_id, Seat.player_id, Seat.table_number)
            .join(TournamentSession, TournamentSession.id == Seat.session_id)
            .where(TournamentSession.tournament_id == t.id)
        )
    }
    return [
        PenaltyRow(session=number, table=tables.get((p.session_id, p.player_id)), hand=p.hand_number,
                   player=printed_name(first, last, country or ""), amount=p.amount, reason=p.reason,
                   given_at=timezones.to_local(p.given_at, t.time_zone),
                   given_by=name or email or p.given_by_label or "", cancelled=p.cancelled_at is not None,
                   cancel_reason=p.cancel_reason or "")
        for p, number, first, last, country, name, email in rows
    ]


def penalties_pdf(t: Tournament) -> Document:
    rows = penalty_rows(t)
    active = sum(1 for r in rows if not r.cancelled)
    with force_locale(t.language):
        words = PenaltyWords(
            header=(gettext("Session"), gettext("Table"), pgettext("penalty list column: the hand number", "Hand"),
                    gettext("Player"), pgettext("penalty list column: points taken off", "Points"),
                    gettext("Reason"), pgettext("penalty list column: when and by whom", "Given"),
                    gettext("Status")),
            active=pgettext("a penalty's status", "active"), cancelled=pgettext("a penalty's status", "cancelled"),
            cancelled_because=pgettext("a penalty's status", "cancelled: %(reason)s"),
            given_by=gettext("%(time)s by %(name)s"), page=page_words())
        data = build_penalties_pdf(gettext("%(name)s: penalties", name=t.name),
                                   gettext("%(active)d active, %(cancelled)d cancelled", active=active,
                                           cancelled=len(rows) - active), rows, _now(t), words)
    return Document(data, f"penalties-{t.id}-{_stamp()}.pdf")
