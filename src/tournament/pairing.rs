//! Rows → the pairing crate's records → the next round's pairings as rows.

use std::collections::HashMap;
use std::fmt;

use makruk_tournament::dutch;
use makruk_tournament::record::{Colour, Outcome, Player, Round};
use makruk_tournament::trf::Tournament;

use crate::store::{PairingRow, TournamentPlayerRow};
use crate::types::{PairingResult, UserId};

/// Why a round could not be paired (the pairing crate's words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingProblem(pub String);

impl fmt::Display for PairingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The rounds of a round-robin of `players` players: one fewer than the players, or as many
/// when they are odd (each sits one round out).
#[must_use]
pub fn round_robin_rounds(players: usize) -> u32 {
    let n = u32::try_from(players).unwrap_or(u32::MAX);
    if n % 2 == 0 {
        n.saturating_sub(1)
    } else {
        n
    }
}

/// What pairing result `r` gave White and Black.
fn outcomes(r: PairingResult) -> (Outcome, Outcome) {
    match r {
        PairingResult::WhiteWins => (Outcome::Win, Outcome::Loss),
        PairingResult::BlackWins => (Outcome::Loss, Outcome::Win),
        PairingResult::Draw => (Outcome::Draw, Outcome::Draw),
        PairingResult::WhiteForfeitWin => (Outcome::ForfeitWin, Outcome::ForfeitLoss),
        PairingResult::BlackForfeitWin => (Outcome::ForfeitLoss, Outcome::ForfeitWin),
        PairingResult::DoubleForfeit => (Outcome::ForfeitLoss, Outcome::ForfeitLoss),
        PairingResult::Bye => (Outcome::PairingBye, Outcome::PairingBye),
    }
}

/// The players with a starting number as the pairing crate's records, numbers 1..=n, with
/// their rounds 1..=`through` from the pairings that have a result (a round without one, or
/// without a pairing, is a zero-point bye: not there). Also the map from numbers to users.
#[must_use]
pub fn records(
    players: &[TournamentPlayerRow],
    pairings: &[PairingRow],
    through: u32,
) -> (Vec<Player>, HashMap<u32, UserId>) {
    let mut numbered: Vec<_> = players
        .iter()
        .filter_map(|p| Some((p.number?, p)))
        .collect();
    numbered.sort_by_key(|(n, _)| *n);
    let number_of: HashMap<UserId, u32> = numbered.iter().map(|(n, p)| (p.user_id, *n)).collect();
    let user_of = numbered.iter().map(|(n, p)| (*n, p.user_id)).collect();
    let mut records: Vec<Player> = numbered
        .iter()
        .map(|(n, p)| Player {
            number: *n,
            name: p.user_id.0.to_string(),
            rating: u32::try_from(p.rating.max(0)).unwrap_or(0),
            rounds: vec![
                Round {
                    opponent: None,
                    colour: None,
                    outcome: Outcome::ZeroBye,
                };
                through as usize
            ],
        })
        .collect();
    let index: HashMap<u32, usize> = records
        .iter()
        .enumerate()
        .map(|(i, p)| (p.number, i))
        .collect();
    for p in pairings
        .iter()
        .filter(|p| p.round >= 1 && p.round <= through)
    {
        let Some(result) = p.result else { continue };
        let slot = (p.round - 1) as usize;
        let (w, b) = outcomes(result);
        let white = number_of.get(&p.white).copied();
        let black = p.black.and_then(|u| number_of.get(&u).copied());
        if let Some(i) = white.and_then(|n| index.get(&n)) {
            records[*i].rounds[slot] = Round {
                opponent: black,
                colour: black.map(|_| Colour::White),
                outcome: w,
            };
        }
        if let Some(i) = black.and_then(|n| index.get(&n)) {
            records[*i].rounds[slot] = Round {
                opponent: white,
                colour: Some(Colour::Black),
                outcome: b,
            };
        }
    }
    (records, user_of)
}

/// Round `round` (1-based) of the round-robin of `players` (numbered at the start) by the
/// FIDE Berger table of their number: board 1 first; a player withdrawn loses the game by
/// forfeit (both withdrawn: a double forfeit), recorded at once; the player paired with the
/// missing number of an odd table sits the round out (no row).
#[must_use]
pub fn round_robin(players: &[TournamentPlayerRow], round: u32) -> Vec<PairingRow> {
    let by_number: HashMap<u32, &TournamentPlayerRow> = players
        .iter()
        .filter_map(|p| Some((p.number?, p)))
        .collect();
    let n = u32::try_from(by_number.len()).unwrap_or(u32::MAX);
    let table = makruk_tournament::berger::schedule(n);
    let Some(r) = round.checked_sub(1).and_then(|i| table.get(i as usize)) else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    for g in &r.games {
        let (Some(w), Some(b)) = (by_number.get(&g.white), by_number.get(&g.black)) else {
            continue;
        };
        let result = match (w.withdrawn, b.withdrawn) {
            (false, false) => None,
            (false, true) => Some(PairingResult::WhiteForfeitWin),
            (true, false) => Some(PairingResult::BlackForfeitWin),
            (true, true) => Some(PairingResult::DoubleForfeit),
        };
        rows.push(PairingRow {
            round,
            board: u32::try_from(rows.len() + 1).unwrap_or(u32::MAX),
            white: w.user_id,
            black: Some(b.user_id),
            game_id: None,
            result,
            plies: None,
            message_id: None,
            white_berserk: false,
            black_berserk: false,
        });
    }
    rows
}

/// Round `round` of a Swiss event of `rounds` rounds by the FIDE Dutch system: the players
/// still in who joined by then are paired (the others are listed absent, as TRF16's `XXZ`);
/// the pairing-allocated bye is scored at once. Boards in the published order (C.04.2 D.9).
///
/// # Errors
/// The pairing crate's, when no pairing satisfies the absolute criteria.
pub fn swiss(
    players: &[TournamentPlayerRow],
    pairings: &[PairingRow],
    round: u32,
    rounds: u32,
) -> Result<Vec<PairingRow>, PairingProblem> {
    let (records, user_of) = records(players, pairings, round.saturating_sub(1));
    let absent = players
        .iter()
        .filter(|p| p.withdrawn || p.joined_round > round)
        .filter_map(|p| p.number)
        .collect();
    let t = Tournament {
        rounds: Some(rounds),
        players: records,
        absent,
        ..Tournament::default()
    };
    let pairs = dutch::pair_next_round(&t).map_err(|e| PairingProblem(e.to_string()))?;
    let user = |n: u32| {
        user_of
            .get(&n)
            .copied()
            .ok_or_else(|| PairingProblem(format!("no player numbered {n}")))
    };
    pairs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let black = p.black.map(user).transpose()?;
            Ok(PairingRow {
                round,
                board: u32::try_from(i + 1).unwrap_or(u32::MAX),
                white: user(p.white)?,
                black,
                game_id: None,
                result: black.is_none().then_some(PairingResult::Bye),
                plies: None,
                message_id: None,
                white_berserk: false,
                black_berserk: false,
            })
        })
        .collect()
}

/// Tournament `view` as a TRF16 report after `through` rounds: its name, `XXR`, every player
/// with a starting number (named by `name`, rated as when they joined), their rounds, their
/// place in `ranks` (starting number → place), and the withdrawn players as absent from the
/// next round (`XXZ`), so that the report pairs the next round as the bot does.
#[must_use]
pub fn trf_of(
    view: &super::TournamentView,
    through: u32,
    ranks: &HashMap<u32, u32>,
    name: &dyn Fn(UserId) -> String,
) -> Tournament {
    let (mut players, user_of) = records(&view.players, &view.pairings, through);
    let mut details = Vec::with_capacity(players.len());
    for p in &mut players {
        if let Some(user) = user_of.get(&p.number) {
            p.name = name(*user).chars().take(33).collect();
        }
        details.push(makruk_tournament::trf::PlayerDetails {
            rank: ranks.get(&p.number).copied().unwrap_or(0),
            ..Default::default()
        });
    }
    let absent = view
        .players
        .iter()
        .filter(|p| p.withdrawn || p.joined_round > through + 1)
        .filter_map(|p| p.number)
        .collect();
    Tournament {
        name: view.row.name.clone(),
        rounds: view.row.rounds,
        players,
        details,
        absent,
        ..Tournament::default()
    }
}
