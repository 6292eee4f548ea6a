//! Glicko-2 ratings as pychess plays them (the maths is the `skillratings` crate's).
//!
//! Every player starts at 1500, deviation (RD) 350, volatility 0.06; τ = 0.75. Each rated game
//! is rated on its own when it ends (one game = one rating period). Before a game, a player's
//! RD grows with the time since their previous rated game at lichess's pace, one Glicko-2
//! period per [`PERIOD_DAYS`] days (φ' = √(φ² + t·σ²), at most 350; Glickman's step 6 for `t`
//! periods). After it the rating is at least [`RATING_FLOOR`] and the RD at least
//! [`DEVIATION_FLOOR`]. A rating is provisional (shown with `?`) while its RD is above
//! [`PROVISIONAL_DEVIATION`].
//!
//! Ratings are kept per server and per speed ([`Kind`]: live or correspondence).

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::clock::Kind;
use crate::types::GameResult;

/// τ, the volatility constraint (pychess's).
pub const TAU: f64 = 0.75;
/// The lowest rating a game leaves (pychess's floor).
pub const RATING_FLOOR: f64 = 600.0;
/// The lowest RD a game leaves.
pub const DEVIATION_FLOOR: f64 = 30.0;
/// The highest RD (a new player's; inactivity never grows it further).
pub const DEVIATION_MAX: f64 = 350.0;
/// A rating with a larger RD is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Days per Glicko-2 rating period for the RD's growth with inactivity (lichess: 0.21436
/// periods per day).
pub const PERIOD_DAYS: f64 = 4.665;
/// Plies below which a finished game is unrated: each side must have made two moves.
pub const MIN_RATED_PLIES: i64 = 4;

/// Glicko-2's scale factor between the Glicko scale (1500 ± 350) and its own.
const SCALE: f64 = 173.7178;

/// A Glicko-2 rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    pub volatility: f64,
}

impl Glicko {
    /// A new player's rating: 1500, RD 350, volatility 0.06.
    pub const START: Glicko = Glicko {
        rating: 1500.0,
        deviation: DEVIATION_MAX,
        volatility: 0.06,
    };

    /// Provisional: RD above [`PROVISIONAL_DEVIATION`].
    #[must_use]
    pub fn provisional(self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating after `idle_secs` seconds without a rated game: the RD grown (see the module
    /// docs); a negative time counts as none.
    #[must_use]
    pub fn idle(self, idle_secs: i64) -> Glicko {
        let periods = idle_secs.max(0) as f64 / 86_400.0 / PERIOD_DAYS;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Glicko {
            deviation: grown.min(DEVIATION_MAX),
            ..self
        }
    }

    /// The rating as shown: rounded to a whole number.
    #[must_use]
    pub fn shown(self) -> i64 {
        self.rating.round() as i64
    }

    fn floored(r: Glicko2Rating) -> Glicko {
        Glicko {
            rating: r.rating.max(RATING_FLOOR),
            deviation: r.deviation.max(DEVIATION_FLOOR),
            volatility: r.volatility,
        }
    }
}

impl From<Glicko> for Glicko2Rating {
    fn from(g: Glicko) -> Glicko2Rating {
        Glicko2Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

/// White's score in a game with `result`: 1, 0.5 or 0; `None` for an aborted game.
#[must_use]
pub fn white_score(result: GameResult) -> Option<f64> {
    match result {
        GameResult::WhiteWins => Some(1.0),
        GameResult::Draw => Some(0.5),
        GameResult::BlackWins => Some(0.0),
        GameResult::Aborted => None,
    }
}

/// Both players' ratings after one game that White scored `white_score` in (1, 0.5, 0), from
/// their ratings at its start (already grown by [`Glicko::idle`]).
#[must_use]
pub fn rate(white: Glicko, black: Glicko, white_score: f64) -> (Glicko, Glicko) {
    let outcome = if white_score > 0.75 {
        Outcomes::WIN
    } else if white_score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (w, b) = glicko2(&white.into(), &black.into(), &outcome, &config);
    (Glicko::floored(w), Glicko::floored(b))
}

/// The stored name of a speed: `live` or `correspondence`.
#[must_use]
pub const fn speed_name(speed: Kind) -> &'static str {
    match speed {
        Kind::Live => "live",
        Kind::Correspondence => "correspondence",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman's worked example (glicko.net/glicko/glicko2.pdf, τ = 0.5): the crate we rate
    /// with reproduces it.
    #[test]
    fn glickmans_example() {
        let player: Glicko2Rating = Glicko {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        }
        .into();
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let after = glicko2_rating_period(&player, &results, &config);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_win_between_new_players_is_symmetric() {
        let (w, b) = rate(Glicko::START, Glicko::START, 1.0);
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert!(w.deviation < 350.0 && w.provisional());
        let (d1, d2) = rate(Glicko::START, Glicko::START, 0.5);
        assert!((d1.rating - 1500.0).abs() < 1e-9 && (d2.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn floors_hold() {
        // An uncertain 605 losing to a sure 605 would drop far below 600.
        let low = Glicko {
            rating: 605.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let sure = Glicko {
            deviation: 30.0,
            ..low
        };
        let (w, b) = rate(low, sure, 0.0);
        assert_eq!(w.rating, RATING_FLOOR);
        assert!(w.deviation >= DEVIATION_FLOOR);
        assert!(b.rating > 605.0 && b.deviation >= DEVIATION_FLOOR);
    }

    #[test]
    fn deviation_grows_with_inactivity() {
        let g = Glicko {
            rating: 1700.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        assert_eq!(g.idle(0), g);
        assert_eq!(g.idle(-5), g);
        // One period: √(φ² + σ²).
        let one = g.idle((PERIOD_DAYS * 86_400.0) as i64);
        let expected = ((50.0 / SCALE).powi(2) + 0.06f64.powi(2)).sqrt() * SCALE;
        assert!((one.deviation - expected).abs() < 1e-6);
        assert_eq!(g.idle(i64::MAX).deviation, DEVIATION_MAX);
        // RD 50 passes 110 after about 450 days (97 periods).
        assert!(!g.provisional() && !g.idle(400 * 86_400).provisional());
        assert!(g.idle(500 * 86_400).provisional());
    }
}
