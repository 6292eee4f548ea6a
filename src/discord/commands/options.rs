//! The choices of the commands' options that more than one command offers: the ruleset, the
//! colour and the time control (`/challenge`, `/play`, `/rules`), each turned into what the
//! service takes.

use crate::game::{ColorChoice, Ruleset, Variant};

/// Ruleset asked for in `/challenge` and `/rules`.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum RulesetOption {
    #[name = "standard"]
    Standard,
    #[name = "traditional"]
    Traditional,
    #[name = "material"]
    Material,
    #[name = "fifty-move"]
    FiftyMove,
}

impl RulesetOption {
    /// The ruleset chosen.
    pub(super) fn ruleset(&self) -> Ruleset {
        match self {
            RulesetOption::Standard => Ruleset::Standard,
            RulesetOption::Traditional => Ruleset::Traditional,
            RulesetOption::Material => Ruleset::Material,
            RulesetOption::FiftyMove => Ruleset::FiftyMove,
        }
    }
}

/// Variant asked for in `/challenge`, `/play` and `/rules`: Fairy-Stockfish's names.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum VariantOption {
    #[name = "makruk"]
    Makruk,
    #[name = "makpong"]
    Makpong,
    #[name = "cambodian"]
    Cambodian,
    #[name = "asean"]
    Asean,
    #[name = "sittuyin"]
    Sittuyin,
}

impl VariantOption {
    /// The variant chosen.
    pub(super) fn variant(self) -> Variant {
        match self {
            VariantOption::Makruk => Variant::Makruk,
            VariantOption::Makpong => Variant::Makpong,
            VariantOption::Cambodian => Variant::Cambodian,
            VariantOption::Asean => Variant::Asean,
            VariantOption::Sittuyin => Variant::Sittuyin,
        }
    }
}

/// The variant asked for (default: Makruk).
pub(super) fn variant(option: Option<VariantOption>) -> Variant {
    option.map_or(Variant::Makruk, VariantOption::variant)
}

/// Time control asked for in `/challenge`: the names are `TimeControl::CHOICES` as shown.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum TimeOption {
    #[name = "1d"]
    Days1,
    #[name = "3d"]
    Days3,
    #[name = "7d"]
    Days7,
    #[name = "14d"]
    Days14,
    #[name = "3+2"]
    Live3,
    #[name = "5+3"]
    Live5,
    #[name = "10+5"]
    Live10,
    #[name = "15+10"]
    Live15,
    #[name = "30+20"]
    Live30,
}

/// Colour asked for in `/challenge`.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum ColorOption {
    #[name = "white"]
    White,
    #[name = "black"]
    Black,
    #[name = "random"]
    Random,
}

/// The colour asked for, as the service takes it (default: random).
pub(super) fn color_choice(color: Option<ColorOption>) -> ColorChoice {
    match color {
        Some(ColorOption::White) => ColorChoice::White,
        Some(ColorOption::Black) => ColorChoice::Black,
        Some(ColorOption::Random) | None => ColorChoice::Random,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TimeControl;
    use poise::ChoiceParameter as _;

    #[test]
    fn the_time_choices_are_the_services() {
        let offered: Vec<String> = TimeOption::list().into_iter().map(|c| c.name).collect();
        let service: Vec<String> = TimeControl::CHOICES
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(offered, service);
    }
}
