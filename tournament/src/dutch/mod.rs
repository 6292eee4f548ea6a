//! The next round of a Swiss event by the FIDE Dutch system (C.04.3, the rules in force from
//! 2017), as bbpPairings and py4swiss implement them.
//!
//! The round is paired bracket by bracket, from the highest score down (C.04.3 A.3, B). In each
//! bracket the best pairing is found as a maximum-weight matching ([`matching`]) whose edge
//! weights pack the quality criteria C.5–C.19 lexicographically, followed by the
//! transpositions and exchanges of D.1–D.3 decided one player at a time by nudging weights.
//! Whether the rest of the round can still be paired (C.4, A.9) is checked by a second,
//! cardinality matching over all players; when it cannot, the remaining brackets collapse
//! into one. Colours come from E.1–E.5 ([`colour`]). Pairs are published in the order of
//! C.04.2 D.9, the pairing-allocated bye last.
//!
//! Scores are handled internally in tenths of a point (a win = 10), as py4swiss does.

pub mod colour;
pub mod matching;
pub mod wide;

mod bracket;

use std::collections::HashSet;

use thiserror::Error;

use crate::record::{Colour, Outcome};
use crate::trf::Tournament;
use colour::{ColourState, ColourView, Strength};
use matching::max_weight_matching;

/// One pair of the round: starting numbers of the player with white and of the one with black;
/// `black` is `None` for the pairing-allocated bye (written `N 0` in bbpPairings' format).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// Starting number of the player with white (or of the player given the bye).
    pub white: u32,
    /// Starting number of the player with black; `None` for the bye.
    pub black: Option<u32>,
}

/// Why a round could not be paired.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PairingError {
    /// The absolute criteria C.1–C.3 (no rematch, one bye at most, no two non-topscorers with
    /// the same absolute colour preference) and the forbidden pairs leave no complete pairing.
    #[error("the round cannot be paired without breaking an absolute criterion (C.1-C.3)")]
    Impossible,
    /// Every planned round has already been played (`XXR` reached).
    #[error("all {0} rounds have been played")]
    Finished(u32),
    /// The file asks for something this implementation does not do: a custom scoring system
    /// (`XXS`) or accelerated pairings (`XXA`); the code is given.
    #[error("TRF {0} (scoring system / acceleration) is not supported")]
    Unsupported(String),
    /// A bracket needs edge weights wider than this implementation supports (8192 bits).
    #[error("a bracket is too large to weigh ({0} bits needed)")]
    TooLarge(u32),
}

/// Float in a round (C.04.3 A.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Float {
    Up,
    None,
    Down,
}

/// All a player brings to the pairing of the next round.
#[derive(Debug, Clone)]
pub(crate) struct Entrant {
    /// Starting number (the identity written in the output).
    pub id: u32,
    /// Pairing number: the starting number, or the position with `XXC rank`.
    pub number: u32,
    /// Score in tenths of a point.
    pub points: i64,
    pub colour: ColourState,
    pub colours: Vec<Colour>,
    /// Float of the last round and of the one before (A.4).
    pub float1: Float,
    pub float2: Float,
    /// Opponents met in played games (forfeits do not count, C.1).
    pub opponents: HashSet<u32>,
    /// Already had the pairing-allocated bye or a forfeit win (C.2).
    pub bye_received: bool,
    /// Topscorer: over half the maximum score when pairing the last round (A.7).
    pub top_scorer: bool,
}

impl Entrant {
    /// Whether `self` ranks above `other` (A.2: score, then pairing number).
    pub fn ranks_above(&self, other: &Self) -> bool {
        (self.points, std::cmp::Reverse(self.number))
            > (other.points, std::cmp::Reverse(other.number))
    }

    fn view(&self) -> ColourView<'_> {
        ColourView {
            state: self.colour,
            colours: &self.colours,
            number: self.number,
        }
    }
}

/// The absolute criteria between two players: C.1 (not met before in a played game), C.3 (not
/// two non-topscorers with the same absolute colour preference), and the `XXP` forbidden pairs.
pub(crate) struct Rules {
    forbidden: HashSet<(u32, u32)>,
}

impl Rules {
    pub fn allowed(&self, a: &Entrant, b: &Entrant) -> bool {
        if self.forbidden.contains(&(a.id, b.id)) || self.forbidden.contains(&(b.id, a.id)) {
            return false;
        }
        if b.opponents.contains(&a.id) {
            return false;
        }
        let pa = a.colour.preference;
        let pb = b.colour.preference;
        a.top_scorer
            || b.top_scorer
            || pa.colour != pb.colour
            || pa.strength != Strength::Absolute
            || pb.strength != Strength::Absolute
    }
}

/// The "can the round still be completed" matcher (C.4 / A.9): one vertex per player plus one
/// for the bye when their number is odd; an edge where the absolute criteria allow a pair.
pub(crate) struct Validity {
    size: usize,
    edges: Vec<Vec<bool>>,
}

impl Validity {
    fn new(players: &[Entrant], rules: &Rules) -> Self {
        let n = players.len();
        let size = n + n % 2;
        let mut edges = vec![vec![false; size]; size];
        for i in 0..n {
            for j in i + 1..n {
                let ok = rules.allowed(&players[i], &players[j]);
                edges[i][j] = ok;
                edges[j][i] = ok;
            }
            if n % 2 == 1 {
                edges[i][n] = !players[i].bye_received;
                edges[n][i] = !players[i].bye_received;
            }
        }
        Self { size, edges }
    }

    /// Fix the pair `i`–`j` (indices in the sorted player list).
    pub fn finalize(&mut self, i: usize, j: usize) {
        for k in 0..self.size {
            for (a, b) in [(i, k), (j, k)] {
                self.edges[a][b] = false;
                self.edges[b][a] = false;
            }
        }
        self.edges[i][j] = true;
        self.edges[j][i] = true;
    }

    /// Whether everybody can be paired (the bye vertex included).
    pub fn complete(&self) -> bool {
        let mut edges = Vec::new();
        for i in 0..self.size {
            for j in i + 1..self.size {
                if self.edges[i][j] {
                    edges.push((i, j, 1i64));
                }
            }
        }
        max_weight_matching(self.size, &edges)
            .iter()
            .all(Option::is_some)
    }
}

fn is_played(o: Outcome) -> bool {
    o.is_played()
}

/// The pairing information of every player taking part in the next round, sorted by rank
/// (A.2), and the number of rounds already played.
fn entrants(t: &Tournament) -> (Vec<Entrant>, usize) {
    let played = t.players.iter().map(|p| p.rounds.len()).min().unwrap_or(0);
    let points_before = |number: u32, round: usize| -> i64 {
        t.players
            .iter()
            .find(|p| p.number == number)
            .map_or(0, |p| {
                p.rounds
                    .iter()
                    .take(round)
                    .map(|r| i64::from(r.outcome.half_points()) * 5)
                    .sum()
            })
    };
    let float = |p: &crate::record::Player, round: Option<usize>| -> Float {
        let Some(round) = round else {
            return Float::None;
        };
        let r = p.rounds[round];
        match r.opponent {
            Some(o) if is_played(r.outcome) => {
                let mine = points_before(p.number, round);
                let theirs = points_before(o, round);
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => Float::Down,
                    std::cmp::Ordering::Less => Float::Up,
                    std::cmp::Ordering::Equal => Float::None,
                }
            }
            _ => Float::Down,
        }
    };
    let last_round = t.rounds.is_some_and(|r| played + 1 == r as usize);
    let max_score = 10 * played as i64;
    let mut out = Vec::new();
    for p in t
        .players
        .iter()
        .filter(|p| p.rounds.len() == played && !t.absent.contains(&p.number))
    {
        let colours: Vec<Colour> = p
            .rounds
            .iter()
            .filter(|r| is_played(r.outcome))
            .filter_map(|r| r.colour)
            .collect();
        let points = i64::from(p.half_points()) * 5;
        out.push(Entrant {
            id: p.number,
            number: if t.by_rank {
                out.len() as u32 + 1
            } else {
                p.number
            },
            points,
            colour: ColourState::from_colours(&colours),
            colours,
            float1: float(p, played.checked_sub(1)),
            float2: float(p, played.checked_sub(2)),
            opponents: p
                .rounds
                .iter()
                .filter(|r| is_played(r.outcome))
                .filter_map(|r| r.opponent)
                .collect(),
            bye_received: p
                .rounds
                .iter()
                .any(|r| matches!(r.outcome, Outcome::PairingBye | Outcome::ForfeitWin)),
            top_scorer: last_round && 2 * points > max_score,
        });
    }
    out.sort_by(|a, b| (b.points, a.number).cmp(&(a.points, b.number)));
    (out, played)
}

/// Pair the next round of `t` by the FIDE Dutch system (C.04.3).
///
/// The round paired is the one after the fewest rounds any player has recorded. A player takes
/// part unless they already have an entry for that round (a `0000 - Z`, `H`, `F`... written in
/// advance: absent or bye asked for) or are listed on an `XXZ` line — py4swiss's convention.
///
/// Returns the pairs in publishing order (C.04.2 D.9: score of the higher-ranked player, then
/// the sum of both scores, then the higher player's pairing number, best first), with the
/// pairing-allocated bye, if any, last. An event with nobody to pair gives an empty list.
///
/// # Errors
/// [`PairingError::Impossible`] when no pairing satisfies the absolute criteria,
/// [`PairingError::Finished`] when `XXR` rounds are already played,
/// [`PairingError::Unsupported`] for files with `XXS` or `XXA` lines, and
/// [`PairingError::TooLarge`] for brackets beyond 8192-bit weights (far beyond 1000 players).
pub fn pair_next_round(t: &Tournament) -> Result<Vec<Pairing>, PairingError> {
    for code in ["XXS", "XXA"] {
        if t.other_lines.iter().any(|l| l.starts_with(code)) {
            return Err(PairingError::Unsupported(code.to_string()));
        }
    }
    let (players, played) = entrants(t);
    if let Some(r) = t.rounds {
        if played >= r as usize {
            return Err(PairingError::Finished(r));
        }
    }
    if players.is_empty() {
        return Ok(Vec::new());
    }
    let first_colour = t.first_colour.unwrap_or(Colour::White);
    let rules = Rules {
        forbidden: t.forbidden_pairs.iter().copied().collect(),
    };
    let mut validity = Validity::new(&players, &rules);
    if !validity.complete() {
        return Err(PairingError::Impossible);
    }
    let round_number = played + 1;

    // Score groups (A.3), highest first.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if players[g[0]].points == p.points => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut index = 0;
    let mut collapsed = false;
    let mut mdps: Vec<usize> = Vec::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    while index < groups.len() {
        let residents = groups[index].clone();
        let lower = groups.get(index + 1).cloned().unwrap_or_default();
        let ctx = bracket::Context {
            players: &players,
            rules: &rules,
            round_number,
            collapsed,
            first_colour,
        };
        match bracket::pair_bracket(&ctx, &mdps, &residents, &lower, &mut validity)? {
            Some(bracket_pairs) => {
                let paired: HashSet<usize> =
                    bracket_pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
                mdps = mdps
                    .iter()
                    .chain(residents.iter())
                    .copied()
                    .filter(|p| !paired.contains(p))
                    .collect();
                pairs.extend(bracket_pairs);
                index += 1;
            }
            None => {
                // A.9: the remaining score groups collapse into one.
                let rest: Vec<usize> = groups.drain(index + 1..).flatten().collect();
                groups.push(rest);
                collapsed = true;
            }
        }
    }

    // C.04.2 D.9: the publishing order.
    let key = |&(a, b): &(usize, usize)| -> (i64, i64, i64) {
        if a == b {
            return (-1, -1, -1);
        }
        let (hi, lo) = if players[a].ranks_above(&players[b]) {
            (a, b)
        } else {
            (b, a)
        };
        (
            players[hi].points,
            players[lo].points,
            -i64::from(players[hi].number),
        )
    };
    pairs.sort_by_key(|p| std::cmp::Reverse(key(p)));
    Ok(pairs
        .into_iter()
        .map(|(w, b)| Pairing {
            white: players[w].id,
            black: (w != b).then(|| players[b].id),
        })
        .collect())
}

/// White and black for a pair of players (indices), by E.1–E.5: the first of the returned pair
/// has white.
pub(crate) fn colours_for(
    players: &[Entrant],
    a: usize,
    b: usize,
    first_colour: Colour,
) -> (usize, usize) {
    let (hi, lo) = if players[a].ranks_above(&players[b]) {
        (a, b)
    } else {
        (b, a)
    };
    if colour::allocate(&players[hi].view(), &players[lo].view(), first_colour) == Colour::White {
        (hi, lo)
    } else {
        (lo, hi)
    }
}

#[cfg(test)]
mod tests {
    //! Small events whose expected pairings come from py4swiss 0.3.1.
    use super::*;
    use crate::record::{Player, Round};

    fn event(rounds: u32, players: Vec<Vec<Round>>) -> Tournament {
        Tournament {
            rounds: Some(rounds),
            players: players
                .into_iter()
                .enumerate()
                .map(|(i, rounds)| Player {
                    number: i as u32 + 1,
                    name: format!("p{}", i + 1),
                    rating: 2000 - i as u32,
                    rounds,
                })
                .collect(),
            ..Tournament::default()
        }
    }

    fn pairs(t: &Tournament) -> Vec<(u32, u32)> {
        pair_next_round(t)
            .unwrap()
            .into_iter()
            .map(|p| (p.white, p.black.unwrap_or(0)))
            .collect()
    }

    fn game(opponent: u32, colour: Colour, outcome: Outcome) -> Round {
        Round {
            opponent: Some(opponent),
            colour: Some(colour),
            outcome,
        }
    }

    const ABSENT: Round = Round {
        opponent: None,
        colour: None,
        outcome: Outcome::ZeroBye,
    };

    #[test]
    fn first_round_top_half_against_bottom_half() {
        let t = event(5, vec![vec![]; 6]);
        assert_eq!(pairs(&t), vec![(1, 4), (5, 2), (3, 6)]);
        let mut black = t.clone();
        black.first_colour = Some(Colour::Black);
        assert_eq!(pairs(&black), vec![(4, 1), (2, 5), (6, 3)]);
    }

    #[test]
    fn the_bye_goes_last_to_the_lowest() {
        assert_eq!(
            pairs(&event(5, vec![vec![]; 5])),
            vec![(1, 3), (4, 2), (5, 0)]
        );
    }

    #[test]
    fn absent_players_are_not_paired() {
        let mut t = event(5, vec![vec![]; 6]);
        t.absent = vec![2];
        assert_eq!(pairs(&t), vec![(1, 4), (3, 5), (6, 0)]);
        // An entry already written for the next round (here `0000 - Z`) also keeps a player out.
        let t = event(5, vec![vec![], vec![ABSENT], vec![], vec![], vec![]]);
        assert_eq!(pairs(&t), vec![(1, 4), (3, 5)]);
    }

    #[test]
    fn no_rematch_but_a_forfeit_is_no_game() {
        let played = event(
            5,
            vec![
                vec![game(2, Colour::White, Outcome::Win)],
                vec![game(1, Colour::Black, Outcome::Loss)],
            ],
        );
        assert_eq!(pair_next_round(&played), Err(PairingError::Impossible));
        let forfeit = event(
            5,
            vec![
                vec![game(2, Colour::White, Outcome::ForfeitWin)],
                vec![game(1, Colour::Black, Outcome::ForfeitLoss)],
            ],
        );
        assert_eq!(pairs(&forfeit), vec![(1, 2)]);
    }

    #[test]
    fn forbidden_pairs_and_finished_events() {
        let mut t = event(5, vec![vec![]; 4]);
        t.forbidden_pairs = vec![(1, 3)];
        let p = pairs(&t);
        assert!(
            !p.iter().any(|&(a, b)| (a, b) == (1, 3) || (a, b) == (3, 1)),
            "{p:?}"
        );
        let done = event(
            1,
            vec![
                vec![game(2, Colour::White, Outcome::Draw)],
                vec![game(1, Colour::Black, Outcome::Draw)],
            ],
        );
        assert_eq!(pair_next_round(&done), Err(PairingError::Finished(1)));
        assert_eq!(pair_next_round(&event(3, vec![])), Ok(vec![]));
        let mut accelerated = event(3, vec![vec![]; 4]);
        accelerated.other_lines.push("XXA    1  1.0".to_string());
        assert_eq!(
            pair_next_round(&accelerated),
            Err(PairingError::Unsupported("XXA".to_string()))
        );
    }
}
