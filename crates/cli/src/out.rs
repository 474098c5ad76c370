//! Standard output for the report-printing subcommands. `println!` panics when stdout is a
//! closed pipe (`boardlab perft ... | head -1`); these end the process quietly instead, as
//! a command-line tool killed by SIGPIPE would.

use std::{
    fmt,
    io::{self, Write},
    process,
};

/// Writes `args` to stdout; on a closed pipe exits with status 0, on any other write error
/// reports it on stderr and exits with status 1.
pub fn write(args: fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            process::exit(0);
        }
        let _ = writeln!(io::stderr(), "error: cannot write to stdout: {e}");
        process::exit(1);
    }
}

/// `print!` through [`write()`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

/// `println!` through [`write()`].
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
