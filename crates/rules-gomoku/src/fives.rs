//! Five-in-a-row tests on a line mask (see [`board_core::lines`]: a run of stones along a
//! line is a run of one bits).

/// The bits that start a run of five or more ones.
#[inline]
pub(crate) const fn five_or_more(bits: u32) -> u32 {
    let two = bits & (bits >> 1);
    two & (two >> 2) & (bits >> 4)
}

/// The bits that start a run of exactly five ones.
#[inline]
pub(crate) const fn exactly_five(bits: u32) -> u32 {
    five_or_more(bits) & !(bits >> 5) & !(bits << 1)
}

#[cfg(test)]
mod tests {
    use board_core::lines::run_up;

    use super::*;

    #[test]
    fn fives_in_bits() {
        for bits in 0u32..1 << 14 {
            let (mut five, mut exact) = (0, 0);
            for start in 0..14 {
                let before = start > 0 && bits >> (start - 1) & 1 == 1;
                let len = run_up(bits, start) + 1;
                if bits >> start & 1 == 1 && !before {
                    if len >= 5 {
                        five |= 1 << start;
                    }
                    if len == 5 {
                        exact |= 1 << start;
                    }
                }
            }
            assert_eq!(five_or_more(bits) != 0, five != 0, "{bits:b}");
            assert_eq!(exactly_five(bits), exact, "{bits:b}");
        }
    }
}
