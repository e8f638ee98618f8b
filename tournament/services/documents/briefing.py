"""The rules briefing (issue 34): a printable sheet of the readings a tournament plays by, in its language, for
the players' briefing: its scoring settings, the engine's readings of unclear Green Book rules for its ruleset
(`tournament/mcr/RULINGS.md`, read from the ruleset's data, so the sheet says what the engine does), time,
table points and ranking, penalties (MERS 2.2, 3.1, 3.6), substitutes (MERS 4) and appeals."""

from __future__ import annotations

from flask_babel import force_locale, gettext, ngettext

from tournament import timezones
from tournament.i18n.labels import translated
from tournament.mcr.rulesets import get as get_ruleset
from tournament.models import END_RULES, TIE_BREAKS, Tournament
from tournament.models._common import utcnow
from tournament.pdf.briefing import BriefingSection, build_briefing_pdf
from tournament.services.documents.exports import Document, page_words

SPECIAL_HAND = "Seven Pairs"  # one of the special hands the rulesets treat alike (rulesets.SPECIAL_CONCEALED_HANDS)


def readings(t: Tournament) -> list[str]:
    """The engine's readings for the tournament's ruleset, in the language in force."""
    rs = get_ruleset(str(t.ruleset))
    out = [gettext("Two Concealed Kongs scores %(points)d points.", points=rs.points("Two Concealed Kongs"))]
    if rs.mixed_kongs == "split":
        out.append(gettext("One melded and one concealed kong score Two Melded Kongs and Concealed Kong: 6 points "
                           "(Green Book 57)."))
    else:
        out.append(gettext("One melded and one concealed kong score Concealed Kong and Melded Kong: 5 points."))
    if "Fully Concealed Hand" in rs.excludes(SPECIAL_HAND):
        out.append(gettext("Self-drawn Seven Pairs, Thirteen Orphans and the other concealed special hands score "
                           "Self-Drawn, not Fully Concealed Hand."))
    else:
        out.append(gettext("Self-drawn Seven Pairs, Thirteen Orphans and the other concealed special hands also "
                           "score Fully Concealed Hand (Green Book)."))
    if rs.waits_ignore_held_four:
        out.append(gettext("A tile the hand held all four of before the win is not a tile it waits for: Edge, "
                           "Closed and Single Wait need one waiting tile (Green Book 77-79)."))
    else:
        out.append(gettext("A tile the hand held all four of before the win still counts as a waiting tile."))
    if not rs.three_kongs_needs_concealed:
        out.append(gettext("Three Concealed Pungs scores whenever three pungs or kongs are concealed, beside a "
                           "melded kong too."))
    if rs.knitted_wait_any_reading:
        out.append(gettext("Knitted Straight: the winning tile may be read into the other set or the pair for "
                           "Edge, Closed or Single Wait."))
    out += [gettext("A wind pung that scores Seat Wind or Prevalent Wind does not score Pung of Terminals or "
                    "Honors as well."),
            gettext("Seven Pairs may hold four identical tiles as two pairs, and then also scores Tile Hog."),
            gettext("Robbing the Kong does not combine with Last Tile Claim: the last tile cannot be robbed.")]
    return out


def sections(t: Tournament) -> list[BriefingSection]:
    """The sheet's sections in the language in force (force_locale)."""
    first, second, third, _ = t.table_points_list
    tie_breaks = ", ".join(translated(TIE_BREAKS.get(k, k)) for k in t.tie_break_list) or gettext("none")
    time = [ngettext("%(num)d session of %(minutes)d minutes, of 16 hands each.",
                     "%(num)d sessions of %(minutes)d minutes, of 16 hands each.", t.session_count,
                     minutes=t.session_minutes),
            gettext("When time is called: %(rule)s.", rule=translated(END_RULES.get(t.end_rule, str(t.end_rule))))]
    if t.warning_minutes:
        time.append(ngettext("The clock warns %(num)d minute before the end.",
                             "The clock warns %(num)d minutes before the end.", t.warning_minutes))
    appeal = (ngettext("Appeal at once: the appeal is heard after the session, and filed up to %(num)d minute after "
                       "it ends (MERS 2.1, Green Book 3.12.2).",
                       "Appeal at once: the appeal is heard after the session, and filed up to %(num)d minutes "
                       "after it ends (MERS 2.1, Green Book 3.12.2).", t.appeal_minutes)
              if t.appeal_minutes else
              gettext("Appeal at once: the appeal is filed while the session is in play and heard after it "
                      "(MERS 2.1)."))
    return [
        BriefingSection(gettext("Scoring"), [
            gettext("Ruleset: %(ruleset)s.", ruleset=translated(t.ruleset_label)),
            gettext("A win needs 8 points without the flowers; each flower adds 1 point."),
            gettext("On a discard the discarder pays the winner 8 plus the hand's points and the two others 8 "
                    "each; self-drawn, each of the three pays 8 plus the points."),
            gettext("False mahjong, the tiles shown: a hand under 8 points costs %(under)d points to each "
                    "opponent, a hand that is no win %(not_winning)d; the claimant's hand is dead for the rest of "
                    "the hand (MERS 3.3).", under=t.false_mahjong_under_minimum,
                    not_winning=t.false_mahjong_not_winning),
            gettext("Show your winning tile: without it no Edge, Closed or Single Wait, Last Tile or Nine Gates "
                    "(MERS 1.9)."),
        ]),
        BriefingSection(gettext("How the scoring reads the Green Book"), readings(t)),
        BriefingSection(gettext("Time"), time),
        BriefingSection(gettext("Table points and ranking"), [
            gettext("Table points by place at the table: %(points)s; players with the same score share the "
                    "points of the places they hold.", points="-".join(str(p) for p in t.table_points_list)),
            gettext("The ranking: table points, then the total score, then: %(tie_breaks)s.", tie_breaks=tie_breaks),
            gettext("Penalties count in the session score that decides table points (Green Book).")
            if t.penalties_affect_table_points else
            gettext("Table points come from the table's scores before penalties; the penalties still come off the "
                    "score."),
        ]),
        BriefingSection(gettext("Penalties"), [
            gettext("Repeated fouls: a warning, then 5, 10, 20, 30 points and so on, taken from the offender "
                    "alone (MERS 3.1)."),
            gettext("The count starts again each session, except for stalling for time and obstruction (MERS 3.6)."),
            gettext("Late: 10 points up to 10 minutes, 20 up to 15; after 15 minutes a substitute plays the "
                    "session in your seat (MERS 2.2)."),
        ]),
        BriefingSection(gettext("Substitutes and disqualification"), [
            gettext("A late player's substitute plays the whole session and can win the table (MERS 4.1.1)."),
            gettext("A substitute who comes in during a session for a player who fell ill or was disqualified "
                    "scores 0 table points; the other three take %(first)d, %(second)d and %(third)d (MERS 4.1.2, "
                    "4.2).", first=first, second=second, third=third),
            gettext("Substitutes are never ranked. A disqualified player keeps a place in the results with 0 "
                    "table points (MERS 4.4)."),
        ]),
        BriefingSection(gettext("Appeals"), [appeal]),
    ]


def briefing_pdf(t: Tournament) -> Document:
    """The sheet, in the tournament's language: a printed document has no reader to ask."""
    with force_locale(t.language):
        data = build_briefing_pdf(gettext("%(name)s: the rules we play by", name=t.name),
                                  translated(t.ruleset_label), sections(t),
                                  timezones.to_local(utcnow(), t.time_zone), page_words())
    return Document(data, f"rules-briefing-{t.id}.pdf")
