//! Tie-breaks of an individual event: score, Buchholz, Buchholz Cut-1, Sonneborn–Berger and
//! direct encounter, and the standings ordered by them.
//!
//! Source: FIDE Handbook C.07, Tie-Break Regulations (in force since 2023, revised 1 August 2024:
//! <https://handbook.fide.com/chapter/TieBreakRegulations082024>), and the FIDE Technical
//! Commission's reference implementation, the TieBreakServer
//! (<https://github.com/TEC-FIDE/TieBreakServer>, `tiebreak.py`), whose article numbers are
//! quoted below. The handbook page itself could not be read in full here, so the unplayed-round
//! rules are implemented as the reference implementation computes them:
//!
//! - **Art. 6, direct encounter**: among participants still tied, the points scored in the games
//!   played between them (several games against the same opponent are averaged, 6.1.2); when not
//!   all of them met, a participant is ranked ahead only if no other could have caught up by
//!   winning the missing games.
//! - **Art. 8, Buchholz**: the sum of the opponents' scores; **Cut-1** (art. 14) drops the least
//!   significant value.
//! - **Art. 9, Sonneborn–Berger**: the sum, over the rounds, of the opponent's score times the
//!   points scored against that opponent.
//! - **Art. 16, unplayed rounds** (Swiss events): a participant's own unplayed round (a bye of
//!   any kind, or a forfeit either way) counts as a game against a *dummy opponent* whose score
//!   is the participant's own final score; an opponent's score is taken as it is, except
//!   that the opponent's *voluntarily unplayed rounds* (VUR: half- or zero-point byes, no
//!   opponent) after the last round the opponent was available to play are counted as draws
//!   (16.3.2: a withdrawn player's rounds). For Cut-1, a VUR of the participant is cut first
//!   (14.6); VURs are half- and zero-point byes and forfeit losses (not the pairing-allocated
//!   bye, a full-point bye or a forfeit win).
//!
//! Article numbers: 6, 8, 9, 14 and 16 as in the 2024 text (the numbers also used by public
//! implementations of it); sub-articles (6.1.2, 14.6, 16.2.x, 16.3.2) as the reference
//! implementation's comments quote them.
//!
//! These are the rules for Swiss events. In a round-robin the reference implementation counts
//! an unplayed game as 0 for Buchholz and Sonneborn–Berger instead of the dummy opponent; with
//! every game played both give the same values, which is the only round-robin case handled here.
//!
//! All values are exact integers: scores and Buchholz in **half points** (a win is 2), and
//! Sonneborn–Berger in **quarter points** (a score in half points times a result in half points).

use std::collections::HashMap;

use thiserror::Error;

use crate::record::{Outcome, Player};

/// Why an event cannot be evaluated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TiebreakError {
    /// Two players have the same starting number.
    #[error("two players have the starting number {0}")]
    DuplicateNumber(u32),
    /// A round names an opponent who is not in the event.
    #[error("player {player}, round {round}: opponent {opponent} is not in the event")]
    UnknownOpponent {
        /// The player whose round it is.
        player: u32,
        /// The round, 1-based.
        round: usize,
        /// The starting number that is missing.
        opponent: u32,
    },
}

/// Whether a round's outcome is a voluntarily unplayed round (VUR, C.07 art. 16): a half- or
/// zero-point bye or a forfeit loss — a round the participant was not available to play.
#[must_use]
pub const fn is_vur(outcome: Outcome) -> bool {
    matches!(
        outcome,
        Outcome::HalfBye | Outcome::ZeroBye | Outcome::ForfeitLoss
    )
}

/// An event checked for tie-break purposes: every opponent is a player of the event.
#[derive(Debug, Clone)]
pub struct Event<'a> {
    players: &'a [Player],
    index: HashMap<u32, usize>,
}

/// One round as seen for Buchholz: the value counted and whether it is a VUR.
#[derive(Debug, Clone, Copy)]
struct Contribution {
    /// The opponent's (or the dummy's) score, half points.
    value: u32,
    /// The points scored in the round, half points.
    result: u32,
    vur: bool,
}

impl<'a> Event<'a> {
    /// Checks the players (unique starting numbers, known opponents).
    ///
    /// # Errors
    /// [`TiebreakError::DuplicateNumber`] or [`TiebreakError::UnknownOpponent`].
    pub fn new(players: &'a [Player]) -> Result<Self, TiebreakError> {
        let mut index = HashMap::new();
        for (i, p) in players.iter().enumerate() {
            if index.insert(p.number, i).is_some() {
                return Err(TiebreakError::DuplicateNumber(p.number));
            }
        }
        for p in players {
            for (r, round) in p.rounds.iter().enumerate() {
                if let Some(opponent) = round.opponent {
                    if !index.contains_key(&opponent) {
                        return Err(TiebreakError::UnknownOpponent {
                            player: p.number,
                            round: r + 1,
                            opponent,
                        });
                    }
                }
            }
        }
        Ok(Self { players, index })
    }

    fn player(&self, number: u32) -> Option<&'a Player> {
        self.index.get(&number).map(|&i| &self.players[i])
    }

    /// The score of player `number`, in half points (0 for an unknown number).
    #[must_use]
    pub fn score(&self, number: u32) -> u32 {
        self.player(number).map_or(0, Player::half_points)
    }

    /// The score of player `number` as counted in the opponents' tie-breaks, in half points
    /// (C.07 art. 16.3): the real score, except that the half- and zero-point byes after the last
    /// round the player was available to play (a withdrawal) count as draws.
    #[must_use]
    pub fn adjusted_score(&self, number: u32) -> u32 {
        let Some(p) = self.player(number) else {
            return 0;
        };
        // Last round that is not a VUR (16.2.1–16.2.4: played, forfeit win, PAB, full bye).
        let last_available = p.rounds.iter().rposition(|r| !is_vur(r.outcome));
        p.rounds
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let after = last_available.is_none_or(|last| i > last);
                if after && r.opponent.is_none() {
                    Outcome::Draw.half_points()
                } else {
                    r.outcome.half_points()
                }
            })
            .sum()
    }

    fn contributions(&self, number: u32) -> Vec<Contribution> {
        let Some(p) = self.player(number) else {
            return Vec::new();
        };
        let own = p.half_points();
        p.rounds
            .iter()
            .map(|r| match r.opponent {
                Some(opponent) if r.outcome.is_played() => Contribution {
                    value: self.adjusted_score(opponent),
                    result: r.outcome.half_points(),
                    vur: false,
                },
                // Art. 16: unplayed, against a dummy opponent with the participant's own score.
                _ => Contribution {
                    value: own,
                    result: r.outcome.half_points(),
                    vur: is_vur(r.outcome),
                },
            })
            .collect()
    }

    /// Buchholz (C.07 art. 8) of player `number`, in half points: the sum of the opponents'
    /// [adjusted scores](Self::adjusted_score), each unplayed round counting the player's own
    /// score (art. 16).
    #[must_use]
    pub fn buchholz(&self, number: u32) -> u32 {
        self.contributions(number).iter().map(|c| c.value).sum()
    }

    /// Buchholz Cut-1 (C.07 art. 8 with the Cut-1 modifier of art. 14), in half points: the
    /// Buchholz without its least significant value, a VUR of the player being cut first.
    /// 0 when the player has no rounds.
    #[must_use]
    pub fn buchholz_cut1(&self, number: u32) -> u32 {
        let all = self.contributions(number);
        let total: u32 = all.iter().map(|c| c.value).sum();
        let vur_cut = all.iter().filter(|c| c.vur).map(|c| c.value).min();
        let cut = vur_cut.or_else(|| all.iter().map(|c| c.value).min());
        total - cut.unwrap_or(0)
    }

    /// Sonneborn–Berger (C.07 art. 9) of player `number`, in **quarter points**: for each round,
    /// the opponent's adjusted score (half points) times the points scored (half points); an
    /// unplayed round counts the player's own score times the points it gave (art. 16).
    #[must_use]
    pub fn sonneborn_berger(&self, number: u32) -> u32 {
        self.contributions(number)
            .iter()
            .map(|c| c.value * c.result)
            .sum()
    }

    /// The half points player `number` scored in games played over the board against the
    /// players of `group` (forfeits and byes do not count; several games are summed).
    #[must_use]
    pub fn direct_encounter_points(&self, number: u32, group: &[u32]) -> u32 {
        self.player(number).map_or(0, |p| {
            p.rounds
                .iter()
                .filter(|r| r.outcome.is_played())
                .filter(|r| {
                    r.opponent
                        .is_some_and(|o| o != number && group.contains(&o))
                })
                .map(|r| r.outcome.half_points())
                .sum()
        })
    }

    /// Direct encounter (C.07 art. 6) among the players of `group` (tied so far): the group split
    /// into tiers, best first, each tier still tied (listed by starting number; its order is left
    /// to the next criterion).
    ///
    /// Each player's value is the points scored in the games played against the others of the
    /// group, games against the same opponent averaged (6.1.2). If everyone met everyone, the
    /// values rank the players; otherwise a player is put ahead only when the value beats the
    /// value every other remaining player could have reached by winning the missing games. A
    /// tier that the split left with several players is split again among themselves.
    #[must_use]
    pub fn direct_encounter_order(&self, group: &[u32]) -> Vec<Vec<u32>> {
        if group.len() < 2 {
            return vec![group.to_vec()];
        }
        // Games played against each other member: (opponent -> (half points, games)).
        let met: Vec<HashMap<u32, (u64, u64)>> = group
            .iter()
            .map(|&n| {
                let mut m = HashMap::new();
                if let Some(p) = self.player(n) {
                    for r in &p.rounds {
                        match r.opponent {
                            Some(o) if r.outcome.is_played() && o != n && group.contains(&o) => {
                                let e = m.entry(o).or_insert((0, 0));
                                e.0 += u64::from(r.outcome.half_points());
                                e.1 += 1;
                            }
                            _ => {}
                        }
                    }
                }
                m
            })
            .collect();
        // Common denominator for the averages.
        let lcm = met
            .iter()
            .flat_map(|m| m.values().map(|&(_, g)| g))
            .fold(1u64, |a, b| a / gcd(a, b) * b);
        let others = group.len() as u64 - 1;
        let win = u64::from(Outcome::Win.half_points()) * lcm;
        // (number, value, maximum) in units of half points / lcm.
        let mut rows: Vec<(u32, u64, u64)> = group
            .iter()
            .zip(&met)
            .map(|(&n, m)| {
                let value = m.values().map(|&(hp, g)| hp * (lcm / g)).sum::<u64>();
                let missing = others - m.len() as u64;
                (n, value, value + missing * win)
            })
            .collect();
        let all_met = met.iter().all(|m| m.len() as u64 == others);
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
        let mut tiers: Vec<Vec<u32>> = Vec::new();
        if all_met {
            for (i, row) in rows.iter().enumerate() {
                if i > 0 && rows[i - 1].1 == row.1 {
                    tiers.last_mut().expect("a tier").push(row.0);
                } else {
                    tiers.push(vec![row.0]);
                }
            }
        } else {
            let mut i = 0;
            while i < rows.len() {
                let rest_max = rows[i + 1..].iter().map(|r| r.2).max();
                if rest_max.is_some_and(|m| rows[i].1 > m) {
                    tiers.push(vec![rows[i].0]);
                    i += 1;
                } else {
                    tiers.push(rows[i..].iter().map(|r| r.0).collect());
                    break;
                }
            }
        }
        if tiers.len() == 1 {
            tiers[0].sort_unstable();
            return tiers;
        }
        tiers
            .into_iter()
            .flat_map(|t| self.direct_encounter_order(&t))
            .collect()
    }

    /// The tie-break values of player `number`.
    #[must_use]
    pub fn values(&self, number: u32) -> Tiebreaks {
        Tiebreaks {
            score: self.score(number),
            buchholz_cut1: self.buchholz_cut1(number),
            buchholz: self.buchholz(number),
            sonneborn_berger: self.sonneborn_berger(number),
        }
    }

    /// The standings: by score, then Buchholz Cut-1, Buchholz, Sonneborn–Berger, direct
    /// encounter among the players still tied, and finally the starting number. Best first;
    /// `rank` is the position (1-based, no shared places).
    #[must_use]
    pub fn standings(&self) -> Vec<Standing> {
        let mut rows: Vec<(u32, Tiebreaks)> = self
            .players
            .iter()
            .map(|p| (p.number, self.values(p.number)))
            .collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut order = Vec::with_capacity(rows.len());
        let mut i = 0;
        while i < rows.len() {
            let j = rows[i..]
                .iter()
                .position(|r| r.1 != rows[i].1)
                .map_or(rows.len(), |k| i + k);
            let group: Vec<u32> = rows[i..j].iter().map(|r| r.0).collect();
            for tier in self.direct_encounter_order(&group) {
                order.extend(tier);
            }
            i = j;
        }
        let values: HashMap<u32, Tiebreaks> = rows.into_iter().collect();
        order
            .into_iter()
            .enumerate()
            .map(|(i, number)| Standing {
                rank: i as u32 + 1,
                number,
                values: values[&number],
            })
            .collect()
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A player's tie-break values, compared in the order of the fields (greater is better).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tiebreaks {
    /// Score, half points.
    pub score: u32,
    /// Buchholz Cut-1, half points.
    pub buchholz_cut1: u32,
    /// Buchholz, half points.
    pub buchholz: u32,
    /// Sonneborn–Berger, quarter points.
    pub sonneborn_berger: u32,
}

/// One line of the standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// Position, 1-based.
    pub rank: u32,
    /// Starting number.
    pub number: u32,
    /// The values ranked by (direct encounter is applied between equal values).
    pub values: Tiebreaks,
}

/// The standings of `players` (see [`Event::standings`]).
///
/// # Errors
/// As [`Event::new`].
pub fn standings(players: &[Player]) -> Result<Vec<Standing>, TiebreakError> {
    Ok(Event::new(players)?.standings())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Colour, Round};

    /// Builds the players of an event from its games. `rounds[r]` lists round r+1's games as
    /// (white, black, white's outcome) and the unpaired players as (player, 0, their outcome).
    fn event(count: u32, rounds: &[&[(u32, u32, Outcome)]]) -> Vec<Player> {
        let mut players: Vec<Player> = (1..=count)
            .map(|n| Player {
                number: n,
                name: format!("P{n}"),
                rating: 0,
                rounds: Vec::new(),
            })
            .collect();
        for games in rounds {
            for &(w, b, outcome) in *games {
                if b == 0 {
                    players[w as usize - 1].rounds.push(Round {
                        opponent: None,
                        colour: None,
                        outcome,
                    });
                    continue;
                }
                let other = match outcome {
                    Outcome::Win => Outcome::Loss,
                    Outcome::Loss => Outcome::Win,
                    Outcome::Draw => Outcome::Draw,
                    Outcome::ForfeitWin => Outcome::ForfeitLoss,
                    Outcome::ForfeitLoss => Outcome::ForfeitWin,
                    o => panic!("{o:?} is not a game"),
                };
                players[w as usize - 1].rounds.push(Round {
                    opponent: Some(b),
                    colour: Some(Colour::White),
                    outcome,
                });
                players[b as usize - 1].rounds.push(Round {
                    opponent: Some(w),
                    colour: Some(Colour::Black),
                    outcome: other,
                });
            }
        }
        players
    }

    use Outcome::{
        Draw as D, ForfeitWin as FW, Loss as L, PairingBye as PAB, Win as W, ZeroBye as Z,
    };

    /// A 6-player round robin on the Berger table (1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 /
    /// 6-5 1-4 2-3 / 3-6 4-2 5-1).
    fn round_robin_six() -> Vec<Player> {
        event(
            6,
            &[
                &[(1, 6, W), (2, 5, D), (3, 4, W)],
                &[(6, 4, L), (5, 3, L), (1, 2, L)],
                &[(2, 6, W), (3, 1, L), (4, 5, D)],
                &[(6, 5, D), (1, 4, W), (2, 3, D)],
                &[(3, 6, W), (4, 2, D), (5, 1, L)],
            ],
        )
    }

    #[test]
    fn six_player_round_robin() {
        let players = round_robin_six();
        let e = Event::new(&players).unwrap();
        // Scores: 1: 1+0+1+1+1 = 4; 2: ½+1+1+½+½ = 3½; 3: 1+1+0+½+1 = 3½;
        // 4: 0+1+½+0+½ = 2; 5: ½+0+½+½+0 = 1½; 6: 0+0+0+½+0 = ½ (total 15 = 15 games).
        let scores: Vec<u32> = (1..=6).map(|n| e.score(n)).collect();
        assert_eq!(scores, [8, 7, 7, 4, 3, 1]);
        // Buchholz of 2: opponents 5, 1, 6, 3, 4 = 1½+4+½+3½+2 = 11½ (23 half points);
        // of 3: 4, 5, 1, 2, 6 = 2+1½+4+3½+½ = 11½.
        assert_eq!(e.buchholz(2), 23);
        assert_eq!(e.buchholz(3), 23);
        // Cut-1 drops 6's ½ for both: 11.
        assert_eq!(e.buchholz_cut1(2), 22);
        assert_eq!(e.buchholz_cut1(3), 22);
        // Sonneborn–Berger of 2: ½·1½ + 1·4 + 1·½ + ½·3½ + ½·2 = ¾+4+½+1¾+1 = 8 (32 quarters);
        // of 3: 1·2 + 1·1½ + 0·4 + ½·3½ + 1·½ = 2+1½+0+1¾+½ = 5¾ (23 quarters).
        assert_eq!(e.sonneborn_berger(2), 32);
        assert_eq!(e.sonneborn_berger(3), 23);
        // Of 1: 1·½ + 0·3½ + 1·3½ + 1·2 + 1·1½ = 7½ (30 quarters).
        assert_eq!(e.sonneborn_berger(1), 30);
        let order: Vec<u32> = e.standings().iter().map(|s| s.number).collect();
        assert_eq!(order, [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn direct_encounter_decides_when_everything_else_is_equal() {
        // 4-player round robin (1-4 2-3 / 4-3 1-2 / 2-4 3-1):
        // R1 1-4 ½, 2-3 ½; R2 4-3 1-0, 1-2 0-1; R3 2-4 0-1, 3-1 0-1.
        let players = event(
            4,
            &[
                &[(1, 4, D), (2, 3, D)],
                &[(4, 3, W), (1, 2, L)],
                &[(2, 4, L), (3, 1, L)],
            ],
        );
        let e = Event::new(&players).unwrap();
        // Scores: 1: ½+0+1 = 1½; 2: ½+1+0 = 1½; 3: ½+0+0 = ½; 4: ½+1+1 = 2½.
        assert_eq!(
            [e.score(1), e.score(2), e.score(3), e.score(4)],
            [3, 3, 1, 5]
        );
        // 1 and 2: Buchholz 1½+½+2½ = 4½ each, Cut-1 (drop 3's ½) 4 each,
        // SB 1: 1·½ (beat 3) + ½·2½ (drew 4) = 1¾; 2: 1·1½ (beat 1) + ½·½ (drew 3) = 1¾.
        assert_eq!(e.values(1), e.values(2));
        assert_eq!(
            e.values(1),
            Tiebreaks {
                score: 3,
                buchholz_cut1: 8,
                buchholz: 9,
                sonneborn_berger: 7
            }
        );
        // 2 beat 1: direct encounter puts 2 ahead despite the higher starting number.
        assert_eq!(e.direct_encounter_points(2, &[1, 2]), 2);
        assert_eq!(e.direct_encounter_points(1, &[1, 2]), 0);
        let order: Vec<u32> = e.standings().iter().map(|s| s.number).collect();
        assert_eq!(order, [4, 2, 1, 3]);
    }

    /// A 5-round Swiss of 6 players with a forfeit (round 2, 6 does not come to play 4) and a
    /// withdrawal (6 leaves after round 3: zero-point byes in rounds 4 and 5, pairing-allocated
    /// byes for 2 and then 1).
    fn swiss() -> Vec<Player> {
        event(
            6,
            &[
                &[(1, 4, W), (2, 5, W), (3, 6, D)],
                &[(1, 2, D), (3, 5, W), (4, 6, FW)],
                &[(3, 1, L), (4, 2, W), (5, 6, D)],
                &[(1, 5, W), (3, 4, D), (2, 0, PAB), (6, 0, Z)],
                &[(2, 3, W), (4, 5, W), (1, 0, PAB), (6, 0, Z)],
            ],
        )
    }

    #[test]
    fn swiss_with_a_bye_a_forfeit_and_a_withdrawal() {
        let players = swiss();
        let e = Event::new(&players).unwrap();
        // Scores: 1: 1+½+1+1+1(PAB) = 4½; 2: 1+½+0+1(PAB)+1 = 3½; 3: ½+1+0+½+0 = 2;
        // 4: 0+1(forfeit)+1+½+1 = 3½; 5: 0+0+½+0+0 = ½; 6: ½+0(forfeit)+½+0+0 = 1.
        let scores: Vec<u32> = (1..=6).map(|n| e.score(n)).collect();
        assert_eq!(scores, [9, 7, 4, 7, 1, 2]);
        // 6's adjusted score: its last round available is 3 (the forfeit loss of round 2 is
        // voluntary but round 3 was played), so the zero-point byes of rounds 4 and 5 count as
        // draws: ½+0+½+½+½ = 2. The others have no such round.
        assert_eq!(e.adjusted_score(6), 4);
        assert_eq!(e.adjusted_score(2), 7);
        // Buchholz (opponents' adjusted scores; an own unplayed round = own score):
        // 1: 4 3½, 2 3½, 3 2, 5 ½, PAB → 4½: 14.
        // 2: 5 ½, 1 4½, 4 3½, PAB → 3½, 3 2: 14.
        // 3: 6 2 (adjusted), 5 ½, 1 4½, 4 3½, 2 3½: 14.
        // 4: 1 4½, forfeit → 3½, 2 3½, 3 2, 5 ½: 14.
        // 5: 2 3½, 3 2, 6 2 (adjusted), 1 4½, 4 3½: 15½.
        // 6: 3 2, forfeit → 1, 5 ½, Z → 1, Z → 1: 5½.
        let bh: Vec<u32> = (1..=6).map(|n| e.buchholz(n)).collect();
        assert_eq!(bh, [28, 28, 28, 28, 31, 11]);
        // Cut-1: 1-4 have no VUR and drop the lowest, 5's ½: 13½. 5 drops a 2: 13½.
        // 6 has VURs (forfeit loss, zero byes), so one of them (1) is cut, not 5's ½: 4½.
        let cut: Vec<u32> = (1..=6).map(|n| e.buchholz_cut1(n)).collect();
        assert_eq!(cut, [27, 27, 27, 27, 27, 9]);
        // Sonneborn–Berger (quarters):
        // 1: 1·3½ + ½·3½ + 1·2 + 1·½ + 1·4½ (PAB) = 3½+1¾+2+½+4½ = 12¼ → 49.
        // 2: 1·½ + ½·4½ + 0 + 1·3½ (PAB) + 1·2 = ½+2¼+3½+2 = 8¼ → 33.
        // 3: ½·2 + 1·½ + 0 + ½·3½ + 0 = 1+½+1¾ = 3¼ → 13.
        // 4: 0 + 1·3½ (forfeit win) + 1·3½ + ½·2 + 1·½ = 3½+3½+1+½ = 8½ → 34.
        // 5: ½·2 (drew 6, adjusted) = 1 → 4.
        // 6: ½·2 + 0·1 + ½·½ + 0 + 0 = 1¼ → 5.
        let sb: Vec<u32> = (1..=6).map(|n| e.sonneborn_berger(n)).collect();
        assert_eq!(sb, [49, 33, 13, 34, 4, 5]);
        // 2 and 4 tie on 3½, Cut-1 13½ and Buchholz 14; Sonneborn–Berger puts 4 ahead.
        let order: Vec<u32> = e.standings().iter().map(|s| s.number).collect();
        assert_eq!(order, [1, 4, 2, 3, 6, 5]);
        assert_eq!(e.standings()[1].rank, 2);
    }

    #[test]
    fn direct_encounter_when_not_everyone_met() {
        // Three players tied: 1 beat 2 and 3, 2 and 3 never met.
        let players = event(3, &[&[(1, 2, W), (3, 0, Z)], &[(3, 1, L), (2, 0, Z)]]);
        let e = Event::new(&players).unwrap();
        // 1 has 2 points; 2 and 3 could reach at most 1 by winning their missing game: 1 is
        // ahead; 2 and 3 stay tied (no game between them).
        assert_eq!(
            e.direct_encounter_order(&[1, 2, 3]),
            vec![vec![1], vec![2, 3]]
        );
        // 1 beat 2 only; 3 met nobody and could still reach 2 points: nobody is separated.
        let players = event(3, &[&[(1, 2, W), (3, 0, Z)]]);
        let e = Event::new(&players).unwrap();
        assert_eq!(e.direct_encounter_order(&[1, 2, 3]), vec![vec![1, 2, 3]]);
        // All met, a cycle: everyone 1 point, still tied.
        let players = event(
            3,
            &[
                &[(1, 2, W), (3, 0, Z)],
                &[(2, 3, W), (1, 0, Z)],
                &[(3, 1, W), (2, 0, Z)],
            ],
        );
        let e = Event::new(&players).unwrap();
        assert_eq!(e.direct_encounter_order(&[1, 2, 3]), vec![vec![1, 2, 3]]);
        // Three games between 1 and 2: 1 won twice, 2 once → 1 ahead (averages ⅔ and ⅓).
        let players = event(2, &[&[(1, 2, W)], &[(2, 1, W)], &[(1, 2, W)]]);
        let e = Event::new(&players).unwrap();
        assert_eq!(e.direct_encounter_order(&[1, 2]), vec![vec![1], vec![2]]);
        // A win each: tied.
        let players = event(2, &[&[(1, 2, W)], &[(2, 1, W)]]);
        let e = Event::new(&players).unwrap();
        assert_eq!(e.direct_encounter_order(&[2, 1]), vec![vec![1, 2]]);
    }

    #[test]
    fn unknown_opponents_and_duplicates_are_refused() {
        let mut players = event(2, &[&[(1, 2, W)]]);
        players[0].rounds[0].opponent = Some(9);
        assert_eq!(
            standings(&players),
            Err(TiebreakError::UnknownOpponent {
                player: 1,
                round: 1,
                opponent: 9
            })
        );
        let mut players = event(2, &[&[(1, 2, W)]]);
        players[1].number = 1;
        assert_eq!(standings(&players), Err(TiebreakError::DuplicateNumber(1)));
    }
}
