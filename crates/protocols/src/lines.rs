//! Reading protocol lines from a pipe with a length cap, so that a peer sending garbage (a
//! 10 MB line, no newline at all) can neither exhaust memory nor stop the engine.

use std::io::{self, BufRead, Write};

/// Longest line the protocols accept (a full 26×26 move list is a few kilobytes).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line read by [`read_line_capped`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line without its terminator (invalid UTF-8 replaced by U+FFFD).
    Text(String),
    /// A line longer than the cap: its bytes were discarded up to the terminator.
    TooLong,
}

/// Reads the next line ending in LF, CR or CR LF (a CR LF yields the line and then an
/// empty line, which every protocol ignores). `None` at the end of the input.
/// Holds at most `cap` bytes of a line in memory.
pub fn read_line_capped<R: BufRead + ?Sized>(
    input: &mut R,
    cap: usize,
) -> io::Result<Option<Line>> {
    let mut buf: Vec<u8> = Vec::new();
    let mut too_long = false;
    let mut seen_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            // End of input: a last line without a terminator still counts.
            return Ok(seen_any.then(|| finish(buf, too_long)));
        }
        seen_any = true;
        let end = chunk.iter().position(|&b| b == b'\n' || b == b'\r');
        let take = end.unwrap_or(chunk.len());
        if !too_long {
            if buf.len() + take > cap {
                too_long = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(&chunk[..take]);
            }
        }
        match end {
            Some(i) => {
                input.consume(i + 1);
                return Ok(Some(finish(buf, too_long)));
            }
            None => {
                let n = chunk.len();
                input.consume(n);
            }
        }
    }
}

fn finish(buf: Vec<u8>, too_long: bool) -> Line {
    if too_long {
        Line::TooLong
    } else {
        Line::Text(String::from_utf8_lossy(&buf).into_owned())
    }
}

/// Writes `line` and a newline in one write, then flushes (the protocols require a
/// flush per line). One buffer, not two writes: on a socket a separate one-byte write of
/// the newline waits for the peer's delayed ACK (Nagle), some 40 ms per line.
pub fn write_line<W: Write + ?Sized>(out: &mut W, line: &str) -> io::Result<()> {
    let mut buf = Vec::with_capacity(line.len() + 1);
    buf.extend_from_slice(line.as_bytes());
    buf.push(b'\n');
    out.write_all(&buf)?;
    out.flush()
}

/// At most `n` characters of peer text, for quoting it in an error message. Line breaks
/// (CR, LF) become U+FFFD, so a reply quoting a line that still held one (a caller that
/// splits on LF only) stays a single line.
pub fn quote(text: &str, n: usize) -> String {
    let t: String = text
        .trim()
        .chars()
        .take(n)
        .map(|c| {
            if matches!(c, '\r' | '\n') {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect();
    if text.trim().chars().count() > n {
        format!("{t}...")
    } else {
        t
    }
}

/// `text` with every control character (C0, DEL, C1; line breaks included) written as
/// its Rust escape (`\n`, `\u{1b}`), so that echoing peer text can neither split a line
/// nor drive the reader's terminal.
pub fn escape_controls(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Reads a decimal integer, saturating instead of failing on huge values (`"-"` sign
/// allowed). `None` if `text` is not an integer at all.
pub fn parse_saturating(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut v: i64 = 0;
    for b in digits.bytes() {
        v = v.saturating_mul(10).saturating_add(i64::from(b - b'0'));
    }
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], cap: usize) -> Vec<Line> {
        let mut r = io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        while let Some(l) = read_line_capped(&mut r, cap).expect("in-memory read") {
            out.push(l);
        }
        out
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn terminators_and_caps() {
        assert_eq!(
            all(b"a\r\nbb\ncc\rd", 100),
            vec![text("a"), text(""), text("bb"), text("cc"), text("d")]
        );
        assert_eq!(all(b"", 100), vec![]);
        assert_eq!(all(b"\n", 100), vec![text("")]);
        let long = [b'x'; 1000];
        let mut input = long.to_vec();
        input.extend_from_slice(b"\nok\n");
        input.extend_from_slice(&long);
        assert_eq!(
            all(&input, 100),
            vec![Line::TooLong, text("ok"), Line::TooLong]
        );
        assert_eq!(all(&[b'x'; 100], 100), vec![text(&"x".repeat(100))]);
        assert_eq!(all(b"\xff\xfeab\n", 100), vec![text("\u{fffd}\u{fffd}ab")]);
    }

    /// Regression (found by the pbrain fuzz target): `handle("STA\rT 5")` answered
    /// `UNKNOWN command 'STA\rT 5'`, which a manager reads as two lines.
    #[test]
    fn quotes_stay_on_one_line() {
        assert_eq!(quote("STA\rT 5", 32), "STA\u{fffd}T 5");
        assert_eq!(quote("a\nb\r\nc", 3), "a\u{fffd}b...");
        assert_eq!(quote(" go\u{0} ", 32), "go\u{0}");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_controls("plain text é"), "plain text é");
        assert_eq!(
            escape_controls("a\u{1b}[31mb\u{0}c\td\u{7f}\u{85}"),
            "a\\u{1b}[31mb\\u{0}c\\td\\u{7f}\\u{85}"
        );
        assert!(!escape_controls("x\ny\rz").contains(['\n', '\r']));
    }

    /// One write per line: a writer that counts calls sees one for the text and its
    /// newline together.
    #[test]
    fn a_line_is_written_in_one_call() {
        struct Calls(Vec<Vec<u8>>);
        impl Write for Calls {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.push(b.to_vec());
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut out = Calls(Vec::new());
        write_line(&mut out, "ok games 1 2").expect("in memory");
        assert_eq!(out.0, vec![b"ok games 1 2\n".to_vec()]);
    }

    #[test]
    fn saturating_integers() {
        assert_eq!(parse_saturating("15"), Some(15));
        assert_eq!(parse_saturating(" -3 "), Some(-3));
        assert_eq!(parse_saturating("+7"), Some(7));
        assert_eq!(parse_saturating("99999999999999999999999"), Some(i64::MAX));
        assert_eq!(
            parse_saturating("-99999999999999999999999"),
            Some(-i64::MAX)
        );
        for bad in ["", "-", "1.5", "abc", "1e3", "0x10", "--1"] {
            assert_eq!(parse_saturating(bad), None, "{bad}");
        }
    }
}
