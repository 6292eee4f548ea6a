//! The Thai alphabet of Thai SAN (Fairy-Stockfish `NOTATION_THAI_SAN`, `apiutil.h`; docs/RULES.md
//! "Notation"): the characters [`crate::san::to_thai_san`] writes and [`crate::notation`] reads.
//!
//! Files ก ข ค ง จ ฉ ช ญ (a–h), ranks ๑–๘; letters ข Khun, ม็ Met, ค Khon, ม Ma, ร Ruea,
//! ง Bia-ngai (บ Bia, never written by Fairy-Stockfish but accepted by the reader).

use crate::types::Role;

/// Thai file letters, a to h.
pub(crate) const FILES: [char; 8] = ['ก', 'ข', 'ค', 'ง', 'จ', 'ฉ', 'ช', 'ญ'];
/// Thai digits, rank 1 to 8.
pub(crate) const RANKS: [char; 8] = ['๑', '๒', '๓', '๔', '๕', '๖', '๗', '๘'];
/// The mark (mai taikhu) that turns ม (Ma) into ม็ (Met).
pub(crate) const MAI_TAIKHU: char = '\u{0E47}';

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

/// A Thai file letter ก–ญ as a file index 0–7.
pub(crate) fn file_of_char(c: char) -> Option<u8> {
    FILES.iter().position(|&f| f == c).map(|i| i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thai_digits_and_files() {
        assert_eq!(rank_of_char('๑'), Some(0));
        assert_eq!(rank_of_char('๘'), Some(7));
        assert_eq!(rank_of_char('๙'), None);
        assert_eq!(file_of_char('ญ'), Some(7));
        assert_eq!(file_of_char('ก'), Some(0));
        assert_eq!(file_of_char('a'), None);
        for i in 0..8 {
            assert_eq!(file_of_char(FILES[i]), Some(i as u8));
            assert_eq!(rank_of_char(RANKS[i]), Some(i as u8));
        }
    }
}
