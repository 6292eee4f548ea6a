//! What a tournament says: its announcement (status, standings, the round's pairings), the
//! message each game's thread opens from, the final standings, the errors. Users and times are
//! written by whoever shows the text (the Discord adapter: mentions and timestamps).

use super::standings::Standings;
use super::{TournamentError, TournamentView};
use crate::game::{time_control_name, variant_name, UserId};
use crate::i18n::Locale;
use crate::store::PairingRow;
use crate::tr;
use crate::types::{PairingResult, TournamentFormat, TournamentState};

/// How many lines of the standings the announcement shows.
pub const STANDINGS_SHOWN: usize = 10;

/// A score in half points as shown: `2½`, `3`, `½`.
#[must_use]
pub fn points(half_points: u32) -> String {
    match (half_points / 2, half_points % 2) {
        (0, 1) => "½".to_owned(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

/// A Sonneborn–Berger value in quarter points, as shown (`4.75`).
fn quarter_points(quarters: u32) -> String {
    let whole = quarters / 4;
    match quarters % 4 {
        0 => whole.to_string(),
        1 => format!("{whole}.25"),
        2 => format!("{whole}.5"),
        _ => format!("{whole}.75"),
    }
}

/// The format's name.
#[must_use]
pub fn format_name(locale: Locale, format: TournamentFormat) -> String {
    match format {
        TournamentFormat::Swiss => tr!(locale, "tournament-format-swiss"),
        TournamentFormat::RoundRobin => tr!(locale, "tournament-format-round-robin"),
        TournamentFormat::Arena => tr!(locale, "tournament-format-arena"),
    }
}

/// The title line: name, format, game, time control, rated or not.
#[must_use]
pub fn title(view: &TournamentView, locale: Locale) -> String {
    let t = &view.row;
    tr!(
        locale,
        if t.rated {
            "tournament-title-rated"
        } else {
            "tournament-title"
        },
        name = t.name.clone(),
        format = format_name(locale, t.format),
        game = variant_name(locale, t.variant),
        tc = time_control_name(locale, t.time_control)
    )
}

/// The announcement: title, state, players or the round, standings (top ten) and the round's
/// pairings. `user` writes a player, `when` a Unix time in seconds.
#[must_use]
pub fn announcement(
    view: &TournamentView,
    standings: &Standings,
    locale: Locale,
    user: &dyn Fn(UserId) -> String,
    when: &dyn Fn(i64) -> String,
) -> String {
    let t = &view.row;
    let mut lines = vec![title(view, locale)];
    let players = view.active_players().count();
    match t.state {
        TournamentState::Open => {
            match t.minutes {
                Some(minutes) => lines.push(tr!(
                    locale,
                    "tournament-arena-open",
                    players = players,
                    minutes = minutes
                )),
                None => lines.push(tr!(
                    locale,
                    "tournament-open",
                    players = players,
                    rounds = t.rounds.map_or_else(|| "—".to_owned(), |r| r.to_string())
                )),
            }
            if let Some(at) = t.start_at {
                lines.push(tr!(locale, "tournament-starts", at = when(at)));
            } else {
                lines.push(tr!(locale, "tournament-starts-by-hand"));
            }
            if players > 0 {
                let names: Vec<String> = view.active_players().map(|p| user(p.user_id)).collect();
                lines.push(names.join(", "));
            }
        }
        TournamentState::Running if t.format == TournamentFormat::Arena => {
            let end = t.start_at.unwrap_or(0) + i64::from(t.minutes.unwrap_or(0)) * 60;
            lines.push(tr!(
                locale,
                "tournament-arena-running",
                end = when(end),
                players = players
            ));
        }
        TournamentState::Running => {
            lines.push(tr!(
                locale,
                "tournament-round",
                round = t.round,
                rounds = t.rounds.unwrap_or(t.round),
                players = players
            ));
        }
        TournamentState::Finished => lines.push(tr!(locale, "tournament-finished")),
        TournamentState::Cancelled => lines.push(tr!(locale, "tournament-cancelled")),
    }
    if t.round > 0 {
        lines.push(String::new());
        lines.push(standings_text(standings, locale, user, STANDINGS_SHOWN));
        if t.state == TournamentState::Running && t.format == TournamentFormat::Arena {
            lines.push(String::new());
            lines.push(playing_text(view, locale, user));
        } else if t.state == TournamentState::Running {
            lines.push(String::new());
            lines.push(pairings_text(view, t.round, locale, user, BOARDS_SHOWN));
        }
    }
    lines.join("\n")
}

/// The standings, the first `limit` lines, with the tie-breaks.
#[must_use]
pub fn standings_text(
    standings: &Standings,
    locale: Locale,
    user: &dyn Fn(UserId) -> String,
    limit: usize,
) -> String {
    let arena = standings.rows.iter().any(|s| s.arena.is_some());
    let mut lines = vec![tr!(
        locale,
        if arena {
            "tournament-arena-standings"
        } else {
            "tournament-standings"
        }
    )];
    for s in standings.rows.iter().take(limit) {
        if let Some(a) = s.arena {
            lines.push(tr!(
                locale,
                "tournament-arena-standing",
                place = s.place,
                player = user(s.user),
                points = a.points,
                games = a.games,
                fire = if a.on_fire { " 🔥" } else { "" }
            ));
            continue;
        }
        lines.push(tr!(
            locale,
            if s.withdrawn {
                "tournament-standing-withdrawn"
            } else {
                "tournament-standing"
            },
            place = s.place,
            player = user(s.user),
            points = points(s.half_points),
            bc1 = points(s.tiebreaks.buchholz_cut1),
            bh = points(s.tiebreaks.buchholz),
            sb = quarter_points(s.tiebreaks.sonneborn_berger)
        ));
    }
    lines.join("\n")
}

/// How many lines of the standings `/tournament standings` shows (then the asker's own).
pub const STANDINGS_LISTED: usize = 30;

/// The standings for `me`: the first `limit` lines, then `me`'s own line if it is further down.
#[must_use]
pub fn standings_for(
    standings: &Standings,
    me: UserId,
    locale: Locale,
    user: &dyn Fn(UserId) -> String,
    limit: usize,
) -> String {
    let mut text = standings_text(standings, locale, user, limit);
    if let Some(i) = standings.rows.iter().position(|s| s.user == me) {
        if i >= limit {
            let mine = Standings {
                rows: vec![standings.rows[i].clone()],
            };
            let line = standings_text(&mine, locale, user, 1);
            // Without its heading: "…" then the one line.
            if let Some((_, own)) = line.split_once('\n') {
                text.push_str("\n…\n");
                text.push_str(own);
            }
        }
    }
    text
}

/// A result as shown after a pairing (`1-0`, `½-½`, `+/-`), empty while it is played.
fn result_text(r: Option<PairingResult>) -> &'static str {
    match r {
        None => "",
        Some(PairingResult::WhiteWins) => "1-0",
        Some(PairingResult::BlackWins) => "0-1",
        Some(PairingResult::Draw) => "½-½",
        Some(PairingResult::WhiteForfeitWin) => "+/-",
        Some(PairingResult::BlackForfeitWin) => "-/+",
        Some(PairingResult::DoubleForfeit) => "-/-",
        Some(PairingResult::Bye) => "1",
    }
}

/// How many boards the announcement lists (the rest: "… and N more").
pub const BOARDS_SHOWN: usize = 15;
/// How many boards `/tournament pairings` lists.
pub const BOARDS_LISTED: usize = 40;

/// The pairings of round `round`, board 1 first, with the results in: the first `limit`
/// boards, then how many more there are.
#[must_use]
pub fn pairings_text(
    view: &TournamentView,
    round: u32,
    locale: Locale,
    user: &dyn Fn(UserId) -> String,
    limit: usize,
) -> String {
    let mut lines = vec![tr!(locale, "tournament-pairings", round = round)];
    let all: Vec<&PairingRow> = view.round(round).collect();
    for p in all.iter().take(limit) {
        lines.push(pairing_line(p, locale, user));
    }
    if all.len() > limit {
        lines.push(tr!(
            locale,
            "tournament-more-boards",
            count = all.len() - limit
        ));
    }
    if all.is_empty() {
        lines.push(tr!(locale, "tournament-no-pairings"));
    }
    lines.join("\n")
}

/// An arena's games being played.
#[must_use]
pub fn playing_text(
    view: &TournamentView,
    locale: Locale,
    user: &dyn Fn(UserId) -> String,
) -> String {
    let mut lines = vec![tr!(locale, "tournament-arena-playing")];
    let playing: Vec<&PairingRow> = view
        .pairings
        .iter()
        .filter(|p| p.result.is_none())
        .collect();
    for p in playing.iter().take(BOARDS_SHOWN) {
        lines.push(pairing_line(p, locale, user));
    }
    if playing.len() > BOARDS_SHOWN {
        lines.push(tr!(
            locale,
            "tournament-more-boards",
            count = playing.len() - BOARDS_SHOWN
        ));
    }
    if lines.len() == 1 {
        lines.push(tr!(locale, "tournament-no-pairings"));
    }
    lines.join("\n")
}

fn pairing_line(p: &PairingRow, locale: Locale, user: &dyn Fn(UserId) -> String) -> String {
    match p.black {
        None => tr!(locale, "tournament-bye", player = user(p.white)),
        Some(black) => tr!(
            locale,
            "tournament-pairing",
            board = p.board,
            white = user(p.white),
            black = user(black),
            result = result_text(p.result)
        )
        .trim_end()
        .to_owned(),
    }
}

/// The message a game's thread opens from: the event, round and board, the players.
#[must_use]
pub fn game_text(
    view: &TournamentView,
    p: &PairingRow,
    locale: Locale,
    user: &dyn Fn(UserId) -> String,
) -> String {
    tr!(
        locale,
        if view.row.format == TournamentFormat::Arena {
            "tournament-arena-game"
        } else {
            "tournament-game"
        },
        name = view.row.name.clone(),
        round = p.round,
        board = p.board,
        white = user(p.white),
        black = user(p.black.unwrap_or(p.white)),
        tc = time_control_name(locale, view.row.time_control)
    )
}

/// The name of a game's thread: "Thursday Swiss · R2 · alice vs bob" (the caller cuts it to
/// Discord's length).
#[must_use]
pub fn thread_name(view: &TournamentView, round: u32, white: &str, black: &str) -> String {
    if view.row.format == TournamentFormat::Arena {
        return format!("{} · {white} vs {black}", view.row.name);
    }
    format!("{} · R{round} · {white} vs {black}", view.row.name)
}

/// The final message: the podium and the standings with their tie-breaks.
#[must_use]
pub fn final_text(
    view: &TournamentView,
    standings: &Standings,
    locale: Locale,
    user: &dyn Fn(UserId) -> String,
) -> String {
    let medal = ["🥇", "🥈", "🥉"];
    let mut lines = vec![tr!(locale, "tournament-over", name = view.row.name.clone())];
    for (s, m) in standings.rows.iter().zip(medal) {
        let score = s
            .arena
            .map_or_else(|| points(s.half_points), |a| a.points.to_string());
        lines.push(format!("{m} {} — {score}", user(s.user)));
    }
    lines.push(String::new());
    lines.push(standings_text(standings, locale, user, usize::MAX));
    lines.join("\n")
}

/// The text of a refused request (`None`: an internal error, which gets the usual apology).
#[must_use]
pub fn error_text(e: &TournamentError, locale: Locale) -> Option<String> {
    let name = e.name()?;
    Some(match e {
        TournamentError::TooFewPlayers { have, need } => tr!(
            locale,
            "tournament-error-too-few-players",
            have = *have,
            need = *need
        ),
        TournamentError::Unpairable(why) => {
            tr!(locale, "tournament-error-unpairable", why = why.to_string())
        }
        _ => tr!(locale, &format!("tournament-error-{name}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::clock::TimeControl;
    use crate::store::TournamentRow;
    use crate::types::{ChannelId, TournamentId};

    fn view_with_boards(boards: u32) -> TournamentView {
        let row = TournamentRow {
            id: TournamentId(1),
            guild_id: None,
            channel_id: ChannelId(1),
            creator_id: UserId(1),
            name: "Cup".into(),
            format: TournamentFormat::Swiss,
            time_control: TimeControl::DEFAULT,
            variant: makruk::Variant::Makruk,
            ruleset: makruk::Ruleset::Standard,
            rated: false,
            rounds: Some(5),
            round: 1,
            minutes: None,
            state: TournamentState::Running,
            start_at: None,
            message_id: None,
            repeat_days: None,
            reminded: false,
            created_at: 0,
            finished_at: None,
        };
        let pairings = (1..=boards)
            .map(|b| PairingRow {
                round: 1,
                board: b,
                white: UserId(u64::from(2 * b)),
                black: Some(UserId(u64::from(2 * b + 1))),
                game_id: None,
                result: (b == 1).then_some(PairingResult::Draw),
                plies: None,
                message_id: None,
                white_berserk: false,
                black_berserk: false,
            })
            .collect();
        TournamentView {
            row,
            players: Vec::new(),
            pairings,
        }
    }

    #[test]
    fn long_pairings_are_cut_with_a_count_of_the_rest() {
        let user = |u: UserId| format!("u{}", u.0);
        let text = pairings_text(&view_with_boards(20), 1, Locale::En, &user, 15);
        assert!(text.contains("Board 1: u2 – u3 ½-½"), "{text}");
        assert!(text.contains("Board 15:"), "{text}");
        assert!(!text.contains("Board 16:"), "{text}");
        assert!(text.contains("and 5 more"), "{text}");
        let short = pairings_text(&view_with_boards(3), 1, Locale::En, &user, 15);
        assert!(!short.contains("more"), "{short}");
        let none = pairings_text(&view_with_boards(0), 1, Locale::En, &user, 15);
        assert!(none.contains("No pairings yet"), "{none}");
    }

    #[test]
    fn the_asker_sees_their_own_place_below_the_top() {
        use crate::tournament::Standing;
        use makruk_tournament::tiebreak::Tiebreaks;
        let rows = (1..=40u32)
            .map(|i| Standing {
                place: i,
                user: UserId(u64::from(i)),
                number: i,
                half_points: 80 - 2 * i,
                tiebreaks: Tiebreaks::default(),
                withdrawn: false,
                arena: None,
            })
            .collect();
        let standings = Standings { rows };
        let user = |u: UserId| format!("u{}", u.0);
        let far = standings_for(&standings, UserId(37), Locale::En, &user, 30);
        assert!(far.contains("30. u30"), "{far}");
        assert!(!far.contains("31. u31"), "{far}");
        assert!(far.ends_with("…\n37. u37 — 3 · 0 · 0 · 0"), "{far}");
        let near = standings_for(&standings, UserId(3), Locale::En, &user, 30);
        assert!(!near.contains('…'), "{near}");
    }

    #[test]
    fn scores_are_written_with_halves() {
        assert_eq!(points(0), "0");
        assert_eq!(points(1), "½");
        assert_eq!(points(5), "2½");
        assert_eq!(points(6), "3");
        assert_eq!(quarter_points(19), "4.75");
        assert_eq!(quarter_points(8), "2");
    }
}
