//! `boardlab serve` / `boardlab connect`: the TCP game server and its terminal client.

use std::path::Path;

use crate::cli_error::CliError;

pub fn serve(listen: &str, data: Option<&str>) -> Result<(), CliError> {
    protocols::server::run(listen, data.map(Path::new))
        .map_err(|e| CliError::usage(format!("serve: {e}")))
}

pub fn connect(addr: &str) -> Result<(), CliError> {
    protocols::server::connect(addr).map_err(|e| CliError::usage(format!("connect: {e}")))
}
