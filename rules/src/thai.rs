//! Thai SAN characters (Fairy-Stockfish `NOTATION_THAI_SAN`, `apiutil.h`) and the reader of
//! Thai move texts for [`crate::san::parse_move`].
//!
//! Files ก ข ค ง จ ฉ ช ญ (a–h), ranks ๑–๘; letters ข Khun, ม็ Met, ค Khon, ม Ma, ร Ruea,
//! ง Bia-ngai (บ Bia, never written by Fairy-Stockfish but accepted). ข, ค and ง are both piece
//! letters and files, so a text can have two readings; both are tried.

use crate::san::{
    file_of_char as latin_file, letterless, rank_of_char as latin_rank, split_target, Pattern,
    PieceSel, Reading, Unreadable,
};
use crate::Role;

/// Thai file letters, a to h.
pub(crate) const FILES: [&str; 8] = ["ก", "ข", "ค", "ง", "จ", "ฉ", "ช", "ญ"];
/// Thai digits, rank 1 to 8.
pub(crate) const RANKS: [&str; 8] = ["๑", "๒", "๓", "๔", "๕", "๖", "๗", "๘"];

const FILE_CHARS: [char; 8] = ['ก', 'ข', 'ค', 'ง', 'จ', 'ฉ', 'ช', 'ญ'];
/// The mark (mai taikhu) that turns ม (Ma) into ม็ (Met).
const MAI_TAIKHU: char = '\u{0E47}';

/// The Thai letter of a moving piece (`promoted`: a Bia-ngai). A Bia has none in SAN.
pub(crate) fn piece_letter(role: Role, promoted: bool) -> &'static str {
    match role {
        Role::Khun => "ข",
        Role::Met if promoted => "ง",
        Role::Met => "ม็",
        Role::Khon => "ค",
        Role::Ma => "ม",
        Role::Ruea => "ร",
        Role::Bia => "",
    }
}

/// True for a character of the Thai Unicode block.
pub(crate) fn is_thai(c: char) -> bool {
    ('\u{0E00}'..='\u{0E7F}').contains(&c)
}

/// A Thai digit ๑–๘ as a rank index 0–7.
pub(crate) fn rank_of_char(c: char) -> Option<u8> {
    match c {
        '๑'..='๘' => Some(c as u32 as u8 - ('๑' as u32 as u8)),
        _ => None,
    }
}

fn file_of(c: char) -> Option<u8> {
    FILE_CHARS
        .iter()
        .position(|&f| f == c)
        .map(|i| i as u8)
        .or_else(|| latin_file(c).filter(|_| c.is_ascii_lowercase()))
}

fn rank_of(c: char) -> Option<u8> {
    rank_of_char(c).or_else(|| latin_rank(c))
}

fn origin(rest: &[char]) -> Option<(Option<u8>, Option<u8>)> {
    match rest {
        [] => Some((None, None)),
        [c] => file_of(*c)
            .map(|f| (Some(f), None))
            .or_else(|| rank_of(*c).map(|r| (None, Some(r)))),
        [f, r] => Some((Some(file_of(*f)?), Some(rank_of(*r)?))),
        _ => None,
    }
}

/// The readings of a Thai move text (already without spaces and `+`/`#`), best tier first.
pub(crate) fn patterns(text: &str) -> Result<Reading, Unreadable> {
    let mut c: Vec<char> = text.chars().collect();
    let promotion = c.contains(&'=');
    if let Some(eq) = c.iter().rposition(|&ch| ch == '=') {
        let suffix: String = c[eq + 1..].iter().collect();
        if !matches!(
            suffix.as_str(),
            "" | "M" | "m" | "P" | "p" | "Q" | "q" | "ม็" | "ง" | "ม"
        ) {
            return Err(Unreadable::BadPromotion);
        }
        c.truncate(eq);
    }
    let (prefix, separator, to) = split_target(&c, file_of, rank_of)?;
    let dash = separator == Some('-');
    let make = |piece, o| Pattern::new(piece, o, to);
    let mut tier1 = Vec::new();
    let mut tier2 = Vec::new();
    if let Some(o) = origin(prefix) {
        letterless(o, to, dash, &mut tier1, &mut tier2);
    }
    // With a piece letter first (ม็ is two characters).
    let letter = match prefix {
        ['ม', MAI_TAIKHU, ..] => Some((2, "ม็")),
        [first, ..] => Some((1, piece_str(*first))),
        [] => None,
    };
    if let Some((len, letter)) = letter {
        if let Some(o) = origin(&prefix[len..]) {
            match letter {
                "ข" => tier1.push(make(PieceSel::Role(Role::Khun), o)),
                "ค" => tier1.push(make(PieceSel::Role(Role::Khon), o)),
                "ม" => tier1.push(make(PieceSel::Role(Role::Ma), o)),
                "ร" => tier1.push(make(PieceSel::Role(Role::Ruea), o)),
                "บ" => tier1.push(make(PieceSel::Bia, o)),
                "ม็" => {
                    tier1.push(make(PieceSel::Met(Some(false)), o));
                    tier2.push(make(PieceSel::Met(None), o));
                }
                "ง" => {
                    tier1.push(make(PieceSel::Met(Some(true)), o));
                    tier2.push(make(PieceSel::Met(None), o));
                }
                _ => {}
            }
        }
    }
    if tier1.is_empty() && tier2.is_empty() {
        return Err(Unreadable::UnexpectedChar(
            prefix.first().copied().unwrap_or('?'),
        ));
    }
    Ok(Reading {
        tiers: vec![tier1, tier2],
        promotion,
    })
}

fn piece_str(c: char) -> &'static str {
    match c {
        'ข' => "ข",
        'ค' => "ค",
        'ม' => "ม",
        'ร' => "ร",
        'บ' => "บ",
        'ง' => "ง",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thai_digits_and_files() {
        assert_eq!(rank_of_char('๑'), Some(0));
        assert_eq!(rank_of_char('๘'), Some(7));
        assert_eq!(rank_of_char('๙'), None);
        assert_eq!(file_of('ญ'), Some(7));
        assert_eq!(file_of('ก'), Some(0));
    }

    #[test]
    fn two_readings_of_a_letter_that_is_also_a_file() {
        let tiers = patterns("ขxค๓").expect("readable").tiers;
        let pieces: Vec<PieceSel> = tiers[0].iter().map(|p| p.piece).collect();
        assert_eq!(pieces, vec![PieceSel::Bia, PieceSel::Role(Role::Khun)]);
        // With a dash only the piece reading is left.
        let tiers = patterns("ข-ค๒").expect("readable").tiers;
        assert_eq!(tiers[0].len(), 1);
        assert_eq!(tiers[0][0].piece, PieceSel::Role(Role::Khun));
        // ม็ is the Met, ม the Ma.
        assert_eq!(
            patterns("ม็๕-ฉ๖").expect("readable").tiers[0][0].from_rank,
            Some(4)
        );
        assert_eq!(
            patterns("ม-ง๒").expect("readable").tiers[0][0].piece,
            PieceSel::Role(Role::Ma)
        );
        assert!(patterns("ก").is_err());
        assert!(patterns("ม็").is_err());
        assert!(patterns("จ๔=ร").is_err());
    }
}
