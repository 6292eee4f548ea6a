//! [`Ruleset`]: which counting and draw rules a game follows (RULES.md, one section each).

use std::fmt;
use std::str::FromStr;

/// The four rulesets of RULES.md. They share the board, the pieces and the moves; they differ
/// in counting and draws. The differences themselves are data: see [`crate::RuleTable`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ruleset {
    /// Automatic counting as Fairy-Stockfish and pychess play (RULES.md "Ruleset `standard`").
    #[default]
    Standard,
    /// Board's honour counted on request (RULES.md "Ruleset `traditional`").
    Traditional,
    /// Counting by material (the "How to play Makruk" seed; RULES.md "Ruleset `material`").
    Material,
    /// No counting; 50-move rule (the Ply Yard seed; RULES.md "Ruleset `fifty-move`").
    FiftyMove,
}

impl Ruleset {
    /// Every ruleset, default first.
    pub const ALL: [Ruleset; 4] = [
        Ruleset::Standard,
        Ruleset::Traditional,
        Ruleset::Material,
        Ruleset::FiftyMove,
    ];

    /// `"standard"`, `"traditional"`, `"material"` or `"fifty-move"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::Standard => "standard",
            Ruleset::Traditional => "traditional",
            Ruleset::Material => "material",
            Ruleset::FiftyMove => "fifty-move",
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error reading a ruleset name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset {0:?}: expected standard, traditional, material or fifty-move")]
pub struct ParseRulesetError(pub String);

impl FromStr for Ruleset {
    type Err = ParseRulesetError;

    /// Reads a name of [`Ruleset::name`], case-insensitively; `fifty_move`, `fiftymove` and
    /// `50-move` are accepted too.
    fn from_str(s: &str) -> Result<Ruleset, ParseRulesetError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "standard" => Ok(Ruleset::Standard),
            "traditional" => Ok(Ruleset::Traditional),
            "material" => Ok(Ruleset::Material),
            "fifty-move" | "fifty_move" | "fiftymove" | "50-move" => Ok(Ruleset::FiftyMove),
            _ => Err(ParseRulesetError(s.to_string())),
        }
    }
}
