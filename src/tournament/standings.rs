//! The standings of a tournament: score, then the tie-breaks (Buchholz Cut-1, Buchholz,
//! Sonneborn–Berger, direct encounter, as issue 26 orders them), from the pairing crate.

use super::pairing::records;
use super::TournamentView;
use crate::types::{TournamentFormat, UserId};
use makruk_tournament::tiebreak::{self, Tiebreaks};

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1 = first (no shared places: direct encounter, then the starting number, part the last
    /// ties).
    pub place: u32,
    pub user: UserId,
    /// The starting number.
    pub number: u32,
    /// The score in half points (a win = 2).
    pub half_points: u32,
    /// Buchholz Cut-1 and Buchholz, half points; Sonneborn–Berger, quarter points (FIDE C.07,
    /// as `makruk_tournament::tiebreak` computes them).
    pub tiebreaks: Tiebreaks,
    /// Withdrawn from the event (an arena's: not paired any more, until they join again).
    pub withdrawn: bool,
    /// An arena's score instead of the points and tie-breaks above (which are then 0).
    pub arena: Option<ArenaScore>,
}

/// A player's standing in an arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaScore {
    /// Arena points (lichess's sheet: whole points, a win 2 or 4 on a streak).
    pub points: u32,
    /// On a win streak: the next win counts double.
    pub on_fire: bool,
    /// Games finished.
    pub games: u32,
}

/// The standings of an event, first place first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    pub rows: Vec<Standing>,
}

/// The standings of `view` after its complete rounds (a round being played counts once its
/// last result is in).
#[must_use]
pub fn standings(view: &TournamentView) -> Standings {
    if view.row.format == TournamentFormat::Arena {
        return arena_standings(view);
    }
    // After the rounds complete: a round being played counts once its last result is in.
    let round = view.row.round;
    let complete = view.round(round).all(|p| p.result.is_some());
    let through = if complete {
        round
    } else {
        round.saturating_sub(1)
    };
    let (players, user_of) = records(&view.players, &view.pairings, through);
    // The records come from our own rows: numbers are unique and every opponent is a player,
    // so the tie-breaks cannot refuse them; if they did, the score order stands alone.
    let ranked = tiebreak::standings(&players).unwrap_or_else(|_| {
        let mut rows: Vec<_> = players
            .iter()
            .map(|p| tiebreak::Standing {
                rank: 0,
                number: p.number,
                values: Tiebreaks {
                    score: p.half_points(),
                    ..Tiebreaks::default()
                },
            })
            .collect();
        rows.sort_by_key(|r| (std::cmp::Reverse(r.values.score), r.number));
        rows
    });
    let rows = ranked
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let user = *user_of.get(&r.number)?;
            Some(Standing {
                place: u32::try_from(i + 1).unwrap_or(u32::MAX),
                user,
                number: r.number,
                half_points: r.values.score,
                tiebreaks: r.values,
                arena: None,
                withdrawn: view
                    .players
                    .iter()
                    .any(|q| q.user_id == user && q.withdrawn),
            })
        })
        .collect();
    Standings { rows }
}

/// The rounds of `view` with every result in: the current one once its last result is in,
/// else those before it.
#[must_use]
pub fn complete_rounds(view: &TournamentView) -> u32 {
    let round = view.row.round;
    if view.round(round).all(|p| p.result.is_some()) {
        round
    } else {
        round.saturating_sub(1)
    }
}

/// An arena's standings: by arena points, then rating, then starting number.
fn arena_standings(view: &TournamentView) -> Standings {
    let mut players = super::arena::arena_players(&view.players, &view.pairings);
    let scoring = super::arena::scoring();
    players.sort_by_key(|(p, _)| {
        (
            std::cmp::Reverse(p.score(scoring)),
            std::cmp::Reverse(p.rating),
            p.id,
        )
    });
    let rows = players
        .iter()
        .enumerate()
        .map(|(i, (p, user))| Standing {
            place: u32::try_from(i + 1).unwrap_or(u32::MAX),
            user: *user,
            number: p.id,
            half_points: 0,
            tiebreaks: Tiebreaks::default(),
            withdrawn: view
                .players
                .iter()
                .any(|q| q.user_id == *user && q.withdrawn),
            arena: Some(ArenaScore {
                points: p.score(scoring),
                on_fire: p.on_fire(),
                games: u32::try_from(p.games.len()).unwrap_or(u32::MAX),
            }),
        })
        .collect();
    Standings { rows }
}
