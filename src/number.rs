//! The one reader of the numbers the engine is given: in protocol commands,
//! in positions, in match settings and on the command line. Numbers are
//! decimal digits and nothing else (protocol.md, "Errors and limits"); a
//! sign is read only where one is allowed. Rust's own `parse` also takes a
//! leading `+`, which the protocol calls an error, so no number is read
//! with it directly.

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// `text` as a whole number of type `T`: one or more ASCII digits, nothing
/// else, and a value `T` holds.
pub fn whole<T: FromStr>(text: &str) -> Option<T> {
    is_digits(text).then(|| text.parse().ok()).flatten()
}

/// [`whole`] within `range`.
pub fn whole_in<T: FromStr + PartialOrd>(text: &str, range: &RangeInclusive<T>) -> Option<T> {
    whole(text).filter(|n| range.contains(n))
}

/// `text` as an integer of type `T`: digits after an optional `-` (never
/// a `+`), for values whose range reaches below zero.
pub fn integer<T: FromStr>(text: &str) -> Option<T> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    is_digits(digits).then(|| text.parse().ok()).flatten()
}

/// A count that may have run below zero, such as a clock a GUI let run
/// over: digits, or a `-` and digits of any size, which count as 0.
pub fn zero_if_negative(text: &str) -> Option<u64> {
    match text.strip_prefix('-') {
        Some(digits) => is_digits(digits).then_some(0),
        None => whole(text),
    }
}

/// Whether `text` is one or more ASCII digits.
fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// A command-line value parser (for clap) of whole numbers in `range`, so
/// that the command line reads numbers as the protocol does.
pub fn argument<T>(
    range: RangeInclusive<T>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Clone + Send + Sync + 'static,
{
    move |text| {
        whole_in(text, &range).ok_or_else(|| {
            format!(
                "expected an integer from {} to {}",
                range.start(),
                range.end()
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_digits_only() {
        assert_eq!(whole::<u32>("0"), Some(0));
        assert_eq!(whole::<u32>("007"), Some(7));
        assert_eq!(whole::<u64>("18446744073709551615"), Some(u64::MAX));
        for bad in [
            "",
            "+3",
            "-3",
            " 3",
            "3 ",
            "1e9",
            "0x10",
            "3_000",
            "٣",
            "4294967296",
        ] {
            assert_eq!(whole::<u32>(bad), None, "{bad:?}");
        }
        assert_eq!(whole_in("5", &(1..=10)), Some(5));
        assert_eq!(whole_in("11", &(1..=10)), None);
    }

    #[test]
    fn integers_take_a_minus_but_no_plus() {
        assert_eq!(integer::<i64>("-5"), Some(-5));
        assert_eq!(integer::<i64>("5"), Some(5));
        for bad in ["+5", "--5", "-", "-+5", "- 5", "", "5-"] {
            assert_eq!(integer::<i64>(bad), None, "{bad:?}");
        }
        assert_eq!(integer::<i64>("-9223372036854775809"), None);
    }

    #[test]
    fn negative_counts_of_any_size_are_zero() {
        assert_eq!(zero_if_negative("-1"), Some(0));
        assert_eq!(zero_if_negative("-1180591620717411303424"), Some(0));
        assert_eq!(zero_if_negative("1500"), Some(1500));
        for bad in ["+1500", "-", "-x", "--1", ""] {
            assert_eq!(zero_if_negative(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_command_line_reads_numbers_as_the_protocol() {
        let depth = argument(1u32..=10);
        assert_eq!(depth("3"), Ok(3));
        assert!(depth("+3").is_err());
        assert_eq!(
            depth("11"),
            Err("expected an integer from 1 to 10".to_string())
        );
    }
}
