//! Time controls: correspondence (days per move) and live (Fischer increment).
//!
//! Every game has one; there is no "unlimited". Players choose among [`TimeControl::CHOICES`]
//! (the option strings `1d`, `3d`, `7d`, `14d`, `3+2`, `5+3`, `10+5`, `15+10`, `30+20`); the
//! store keeps the compact form of [`TimeControl::storage`] (`c3d`, `l10+5`), which also reads
//! values that are no longer offered, so retiring a choice never breaks a stored game.

use std::fmt;
use std::str::FromStr;

/// A game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// Each move must be played within `days` days of the opponent's move (the time does not
    /// carry over from move to move).
    Correspondence {
        /// Days per move.
        days: u16,
    },
    /// Fischer increment: each side starts with `minutes` minutes and gains `increment_secs`
    /// seconds with every move it plays.
    Live {
        /// Starting time of each side, in minutes.
        minutes: u16,
        /// Seconds added to the mover's time after each of its moves.
        increment_secs: u16,
    },
}

/// Live or correspondence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Fischer increment, minutes per game.
    Live,
    /// Days per move.
    Correspondence,
}

/// The rating category of a time control, by lichess's estimate of a game's duration
/// (`minutes × 60 + 40 × increment` seconds: under 3 min bullet, under 8 min blitz, under 25 min
/// rapid, else classical); correspondence games are their own category.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Speed {
    /// Estimated under 3 minutes.
    Bullet,
    /// Estimated under 8 minutes.
    Blitz,
    /// Estimated under 25 minutes.
    Rapid,
    /// Estimated 25 minutes or more.
    Classical,
    /// Days per move.
    Correspondence,
}

/// The text is not one of the offered time controls. `Display` lists the choices; the
/// adapter may list [`TimeControl::CHOICES`] itself in the player's language.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown time control {input:?}: choose one of {}", choices_text())]
pub struct UnknownTimeControl {
    /// What was given (trimmed, at most 32 characters).
    pub input: String,
}

/// The stored text is not a time control (not `c<days>d` or `l<minutes>+<seconds>` in range).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad stored time control {0:?}")]
pub struct BadStoredTimeControl(pub String);

const MS_PER_SEC: i64 = 1000;
const MS_PER_MIN: i64 = 60 * MS_PER_SEC;
const MS_PER_DAY: i64 = 24 * 60 * MS_PER_MIN;

/// Bounds of stored values: generous, but no clock arithmetic can overflow within them.
const MAX_DAYS: u16 = 365;
const MAX_MINUTES: u16 = 24 * 60;
const MAX_INCREMENT_SECS: u16 = 3600;

fn choices_text() -> String {
    let names: Vec<String> = TimeControl::CHOICES
        .iter()
        .map(ToString::to_string)
        .collect();
    names.join(", ")
}

impl TimeControl {
    /// The time controls players may choose, correspondence first, in the order shown to them.
    pub const CHOICES: [TimeControl; 9] = [
        TimeControl::Correspondence { days: 1 },
        TimeControl::Correspondence { days: 3 },
        TimeControl::Correspondence { days: 7 },
        TimeControl::Correspondence { days: 14 },
        TimeControl::Live {
            minutes: 3,
            increment_secs: 2,
        },
        TimeControl::Live {
            minutes: 5,
            increment_secs: 3,
        },
        TimeControl::Live {
            minutes: 10,
            increment_secs: 5,
        },
        TimeControl::Live {
            minutes: 15,
            increment_secs: 10,
        },
        TimeControl::Live {
            minutes: 30,
            increment_secs: 20,
        },
    ];

    /// The time control of a game whose players chose none: 3 days per move.
    pub const DEFAULT: TimeControl = TimeControl::Correspondence { days: 3 };

    /// Live or correspondence.
    #[must_use]
    pub const fn kind(self) -> Kind {
        match self {
            TimeControl::Correspondence { .. } => Kind::Correspondence,
            TimeControl::Live { .. } => Kind::Live,
        }
    }

    /// The PGN `TimeControl` tag (PGN standard, section 9.6): live `300+3` (seconds + increment
    /// seconds, as lichess writes it); correspondence `1/259200` (one move per period of that
    /// many seconds, as chess.com writes daily games).
    #[must_use]
    pub fn pgn_tag(self) -> String {
        match self {
            TimeControl::Correspondence { days } => format!("1/{}", i64::from(days) * 86_400),
            TimeControl::Live {
                minutes,
                increment_secs,
            } => format!("{}+{increment_secs}", u32::from(minutes) * 60),
        }
    }

    /// The rating category (see [`Speed`]).
    #[must_use]
    pub fn speed(self) -> Speed {
        match self {
            TimeControl::Correspondence { .. } => Speed::Correspondence,
            TimeControl::Live {
                minutes,
                increment_secs,
            } => match u32::from(minutes) * 60 + 40 * u32::from(increment_secs) {
                0..180 => Speed::Bullet,
                180..480 => Speed::Blitz,
                480..1500 => Speed::Rapid,
                _ => Speed::Classical,
            },
        }
    }

    /// Each side's time when the game starts, in milliseconds: the whole game's time (live) or
    /// the time for the first move (correspondence).
    #[must_use]
    pub fn initial_ms(self) -> i64 {
        match self {
            TimeControl::Correspondence { days } => i64::from(days) * MS_PER_DAY,
            TimeControl::Live { minutes, .. } => i64::from(minutes) * MS_PER_MIN,
        }
    }

    /// Milliseconds added to the mover's time after each move (0 for correspondence).
    #[must_use]
    pub fn increment_ms(self) -> i64 {
        match self {
            TimeControl::Correspondence { .. } => 0,
            TimeControl::Live { increment_secs, .. } => i64::from(increment_secs) * MS_PER_SEC,
        }
    }

    /// The compact form the store keeps: `c<days>d` (`c3d`) or `l<minutes>+<seconds>`
    /// (`l10+5`). [`TimeControl::from_storage`] reads it back.
    #[must_use]
    pub fn storage(self) -> String {
        match self {
            TimeControl::Correspondence { days } => format!("c{days}d"),
            TimeControl::Live {
                minutes,
                increment_secs,
            } => format!("l{minutes}+{increment_secs}"),
        }
    }

    /// Reads the form of [`TimeControl::storage`]. Accepts any value in range (1–365 days;
    /// 1–1440 minutes with 0–3600 s increment), not only the current [`TimeControl::CHOICES`].
    ///
    /// # Errors
    /// [`BadStoredTimeControl`] for any other text.
    pub fn from_storage(s: &str) -> Result<TimeControl, BadStoredTimeControl> {
        let bad = || BadStoredTimeControl(s.chars().take(32).collect());
        let tc = if let Some(days) = s.strip_prefix('c').and_then(|r| r.strip_suffix('d')) {
            TimeControl::Correspondence {
                days: number(days, 1, MAX_DAYS).ok_or_else(bad)?,
            }
        } else if let Some((minutes, inc)) = s.strip_prefix('l').and_then(|r| r.split_once('+')) {
            TimeControl::Live {
                minutes: number(minutes, 1, MAX_MINUTES).ok_or_else(bad)?,
                increment_secs: number(inc, 0, MAX_INCREMENT_SECS).ok_or_else(bad)?,
            }
        } else {
            return Err(bad());
        };
        Ok(tc)
    }
}

/// A decimal number of ASCII digits (no sign, no leading `+`) within `lo..=hi`.
fn number(s: &str, lo: u16, hi: u16) -> Option<u16> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok().filter(|n| (lo..=hi).contains(n))
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl::DEFAULT
    }
}

/// The option string players type: `3d`, `10+5`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Correspondence { days } => write!(f, "{days}d"),
            TimeControl::Live {
                minutes,
                increment_secs,
            } => write!(f, "{minutes}+{increment_secs}"),
        }
    }
}

/// Reads one of the offered option strings ([`TimeControl::CHOICES`] as displayed), ignoring
/// surrounding spaces and letter case (`3D`, ` 10+5 `).
impl FromStr for TimeControl {
    type Err = UnknownTimeControl;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        TimeControl::CHOICES
            .into_iter()
            .find(|c| c.to_string().eq_ignore_ascii_case(t))
            .ok_or_else(|| UnknownTimeControl {
                input: t.chars().take(32).collect(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_time_control_tags() {
        let tag = |s: &str| s.parse::<TimeControl>().unwrap().pgn_tag();
        assert_eq!(tag("5+3"), "300+3");
        assert_eq!(tag("30+20"), "1800+20");
        assert_eq!(tag("1d"), "1/86400");
        assert_eq!(tag("14d"), "1/1209600");
    }

    #[test]
    fn every_choice_reads_back_from_its_option_string_and_storage_form() {
        let shown: Vec<String> = TimeControl::CHOICES
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            shown,
            ["1d", "3d", "7d", "14d", "3+2", "5+3", "10+5", "15+10", "30+20"]
        );
        for tc in TimeControl::CHOICES {
            assert_eq!(tc.to_string().parse::<TimeControl>(), Ok(tc));
            assert_eq!(TimeControl::from_storage(&tc.storage()), Ok(tc));
        }
        assert_eq!(TimeControl::DEFAULT.storage(), "c3d");
        assert_eq!(
            TimeControl::Live {
                minutes: 10,
                increment_secs: 5
            }
            .storage(),
            "l10+5"
        );
    }

    #[test]
    fn parsing_ignores_case_and_spaces() {
        assert_eq!(" 3D ".parse(), Ok(TimeControl::Correspondence { days: 3 }));
        assert_eq!(
            "15+10".parse(),
            Ok(TimeControl::Live {
                minutes: 15,
                increment_secs: 10
            })
        );
    }

    #[test]
    fn an_unknown_value_is_refused_with_the_list_of_choices() {
        for bad in [
            "",
            "2d",
            "unlimited",
            "0+0",
            "10+0",
            "3 d",
            "+3d",
            "10 + 5",
            "٣d",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert_eq!(e.input, bad.trim());
            assert_eq!(
                e.to_string(),
                format!(
                    "unknown time control {:?}: choose one of 1d, 3d, 7d, 14d, 3+2, 5+3, 10+5, \
                     15+10, 30+20",
                    bad.trim()
                )
            );
        }
        let long = "x".repeat(10_000);
        assert_eq!(long.parse::<TimeControl>().unwrap_err().input.len(), 32);
    }

    #[test]
    fn storage_reads_values_no_longer_offered_within_range_only() {
        assert_eq!(
            TimeControl::from_storage("c2d"),
            Ok(TimeControl::Correspondence { days: 2 })
        );
        assert_eq!(
            TimeControl::from_storage("l1+0"),
            Ok(TimeControl::Live {
                minutes: 1,
                increment_secs: 0
            })
        );
        for bad in [
            "",
            "c",
            "cd",
            "c0d",
            "c366d",
            "c-1d",
            "c+3d",
            "3d",
            "l10",
            "l0+5",
            "l10+",
            "l+5",
            "l10+3601",
            "l1441+0",
            "x10+5",
            "c3d ",
            "l99999999999+1",
        ] {
            assert!(TimeControl::from_storage(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn kind_milliseconds_and_speed() {
        let c3 = TimeControl::DEFAULT;
        assert_eq!(c3.kind(), Kind::Correspondence);
        assert_eq!(c3.initial_ms(), 3 * 86_400_000);
        assert_eq!(c3.increment_ms(), 0);
        assert_eq!(c3.speed(), Speed::Correspondence);
        let live = |minutes, increment_secs| TimeControl::Live {
            minutes,
            increment_secs,
        };
        assert_eq!(live(3, 2).kind(), Kind::Live);
        assert_eq!(live(3, 2).initial_ms(), 180_000);
        assert_eq!(live(3, 2).increment_ms(), 2_000);
        // lichess: 3+2 is 260 s estimated (blitz), 10+5 800 s (rapid), 30+20 2600 s (classical).
        let speeds: Vec<Speed> = TimeControl::CHOICES[4..]
            .iter()
            .map(|t| t.speed())
            .collect();
        assert_eq!(
            speeds,
            [
                Speed::Blitz,
                Speed::Blitz,
                Speed::Rapid,
                Speed::Rapid,
                Speed::Classical
            ]
        );
        assert_eq!(live(1, 0).speed(), Speed::Bullet);
        assert_eq!(live(2, 3).speed(), Speed::Blitz);
        assert_eq!(live(8, 0).speed(), Speed::Rapid);
        assert_eq!(live(25, 0).speed(), Speed::Classical);
    }
}
