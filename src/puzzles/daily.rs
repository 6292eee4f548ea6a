//! The daily puzzle's calendar: a server's day and time of day in its time zone (a fixed
//! offset from UTC, as `/settings` takes it), when its puzzle is due, and which puzzle a day
//! gets. Times are Unix milliseconds; offsets and times of day are minutes.

/// Milliseconds in a minute and in a day.
const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 24 * 60 * MINUTE_MS;

/// The default time of day: 08:00 (minutes after midnight).
pub const DEFAULT_MINUTE: i64 = 8 * 60;
/// The default time zone: UTC+7 (Thailand and Cambodia), in minutes east of UTC.
pub const DEFAULT_OFFSET: i64 = 7 * 60;

/// The server's date at `now_ms` (its offset `offset_min` minutes east of UTC): days since
/// 1970-01-01 in that zone.
#[must_use]
pub fn local_day_number(now_ms: i64, offset_min: i64) -> i64 {
    (now_ms + offset_min * MINUTE_MS).div_euclid(DAY_MS)
}

/// The date of day number `day` (days since 1970-01-01) as `YYYY-MM-DD` (proleptic Gregorian,
/// Howard Hinnant's `civil_from_days`).
#[must_use]
pub fn date_text(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}")
}

/// The server's date at `now_ms`, `YYYY-MM-DD`.
#[must_use]
pub fn local_date(now_ms: i64, offset_min: i64) -> String {
    date_text(local_day_number(now_ms, offset_min))
}

/// The date of the day before `date` (`YYYY-MM-DD`), or `None` if `date` is not one.
#[must_use]
pub fn previous_date(date: &str) -> Option<String> {
    let n = day_number(date)?;
    Some(date_text(n - 1))
}

/// Days since 1970-01-01 of `YYYY-MM-DD` (Hinnant's `days_from_civil`).
#[must_use]
pub fn day_number(date: &str) -> Option<i64> {
    let mut parts = date.splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// The Unix ms at which the puzzle of the server's day `day` is due (`minute` after its
/// midnight).
#[must_use]
pub fn due_ms(day: i64, minute: i64, offset_min: i64) -> i64 {
    day * DAY_MS + minute * MINUTE_MS - offset_min * MINUTE_MS
}

/// The server's day whose puzzle is due at `now_ms`: today's if its time has come, else
/// `None` (yesterday's, if never posted, is not posted late: a new day brings a new one).
#[must_use]
pub fn due_day(now_ms: i64, minute: i64, offset_min: i64) -> Option<i64> {
    let today = local_day_number(now_ms, offset_min);
    (now_ms >= due_ms(today, minute, offset_min)).then_some(today)
}

/// When the next daily puzzle of a server is due, after `now_ms`, if today's is already
/// claimed (`claimed_today`); otherwise today's due time (which may be past).
#[must_use]
pub fn next_due_ms(now_ms: i64, minute: i64, offset_min: i64, claimed_today: bool) -> i64 {
    let today = local_day_number(now_ms, offset_min);
    let at = due_ms(today, minute, offset_min);
    if claimed_today {
        due_ms(today + 1, minute, offset_min)
    } else {
        at
    }
}

/// Reads a time of day, `HH:MM` (24 hours), into minutes after midnight.
#[must_use]
pub fn parse_time(text: &str) -> Option<i64> {
    let (h, m) = text.trim().split_once(':')?;
    let (h, m): (i64, i64) = (h.trim().parse().ok()?, m.trim().parse().ok()?);
    ((0..24).contains(&h) && (0..60).contains(&m)).then_some(h * 60 + m)
}

/// Reads a time zone as an offset from UTC: `UTC+7`, `+07:00`, `GMT-3:30`, `UTC−3` (the
/// minus sign too), `7`, `UTC` (minutes east of UTC, within ±14 hours). `None` for anything
/// else (at most 16 characters are looked at).
#[must_use]
pub fn parse_offset(text: &str) -> Option<i64> {
    let t = text.trim().to_ascii_uppercase().replace('\u{2212}', "-");
    if t.chars().count() > 16 {
        return None;
    }
    let t = t
        .strip_prefix("UTC")
        .or_else(|| t.strip_prefix("GMT"))
        .unwrap_or(&t)
        .trim();
    if t.is_empty() {
        return Some(0);
    }
    let (sign, rest) = match t.as_bytes()[0] {
        b'+' => (1, &t[1..]),
        b'-' => (-1, &t[1..]),
        _ => (1, t),
    };
    let digits = |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    let (h, m) = match rest.split_once(':') {
        Some((h, m)) if digits(h) && digits(m) => (h.parse::<i64>().ok()?, m.parse::<i64>().ok()?),
        None if digits(rest) => (rest.parse::<i64>().ok()?, 0),
        _ => return None,
    };
    let minutes = h * 60 + m;
    ((0..60).contains(&m) && minutes <= 14 * 60).then_some(sign * minutes)
}

/// An offset as `UTC+7`, `UTC+5:30`, `UTC−3`.
#[must_use]
pub fn offset_text(offset_min: i64) -> String {
    let sign = if offset_min < 0 { '−' } else { '+' };
    let a = offset_min.abs();
    if a % 60 == 0 {
        format!("UTC{sign}{}", a / 60)
    } else {
        format!("UTC{sign}{}:{:02}", a / 60, a % 60)
    }
}

/// A time of day as `HH:MM`.
#[must_use]
pub fn time_text(minute: i64) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// Which of `candidates` puzzles a server gets on day `day`: spread by a hash of the two, so
/// that servers do not all get the same one.
#[must_use]
pub fn pick(guild: u64, day: i64, candidates: i64) -> i64 {
    if candidates <= 0 {
        return 0;
    }
    // SplitMix64 of the pair: stable across versions and platforms.
    let mut z = guild ^ (day as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z % candidates as u64) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_and_match_known_days() {
        assert_eq!(date_text(0), "1970-01-01");
        assert_eq!(date_text(20_000), "2024-10-04");
        assert_eq!(day_number("2000-02-29"), Some(11_016));
        for n in [-1000, 0, 59, 60, 11_016, 20_000, 30_000] {
            assert_eq!(day_number(&date_text(n)), Some(n));
        }
        assert_eq!(previous_date("2026-03-01").as_deref(), Some("2026-02-28"));
        assert_eq!(day_number("2026-13-01"), None);
    }

    #[test]
    fn the_puzzle_is_due_at_the_servers_time_of_day() {
        // 2026-12-04 00:30 UTC is 07:30 in Bangkok: not yet due at 08:00 there.
        let now = day_number("2026-12-04").unwrap() * DAY_MS + 30 * MINUTE_MS;
        assert_eq!(local_date(now, 420), "2026-12-04");
        assert_eq!(due_day(now, 480, 420), None);
        assert_eq!(next_due_ms(now, 480, 420, false), now + 30 * MINUTE_MS);
        // An hour later it is.
        let later = now + 60 * MINUTE_MS;
        assert_eq!(due_day(later, 480, 420), day_number("2026-12-04"));
        // Once claimed, the next is tomorrow's.
        assert_eq!(
            next_due_ms(later, 480, 420, true),
            now + 30 * MINUTE_MS + DAY_MS
        );
        // West of UTC the date is still the day before.
        assert_eq!(local_date(now, -300), "2026-12-03");
    }

    #[test]
    fn times_and_zones_are_read() {
        assert_eq!(parse_time("08:00"), Some(480));
        assert_eq!(parse_time("23:59"), Some(1439));
        assert_eq!(parse_time("24:00"), None);
        assert_eq!(parse_time("8"), None);
        assert_eq!(parse_offset("UTC+7"), Some(420));
        assert_eq!(parse_offset("+07:00"), Some(420));
        assert_eq!(parse_offset("gmt-3:30"), Some(-210));
        assert_eq!(parse_offset("UTC"), Some(0));
        assert_eq!(parse_offset("UTC+15"), None);
        assert_eq!(parse_offset("Asia/Bangkok"), None);
        assert_eq!(parse_offset("UTC\u{2212}3"), Some(-180));
        assert_eq!(parse_offset(&offset_text(-210)), Some(-210));
        assert_eq!(parse_offset("+-5"), None);
        assert_eq!(parse_offset("99999999999999999999"), None);
        assert_eq!(parse_offset("+123"), None);
        assert_eq!(offset_text(420), "UTC+7");
        assert_eq!(offset_text(-210), "UTC−3:30");
        assert_eq!(time_text(485), "08:05");
    }

    #[test]
    fn servers_get_different_puzzles() {
        let picks: std::collections::HashSet<i64> = (0..20u64)
            .map(|g| pick(g * 1_000_003, 20_000, 1000))
            .collect();
        assert!(picks.len() > 10);
        assert!((0..100).all(|d| pick(7, d, 13) < 13));
        assert_eq!(pick(7, 3, 0), 0);
    }
}
