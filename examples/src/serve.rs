//! `boardlab serve` / `boardlab connect`: the TCP game server and its terminal client;
//! `boardlab web`: the board in the browser.

use std::path::Path;

use crate::cli_error::CliError;

pub fn serve(listen: &str, data: Option<&str>) -> Result<(), CliError> {
    protocols::server::run(listen, data.map(Path::new))
        .map_err(|e| CliError::usage(format!("serve: {e}")))
}

pub fn connect(addr: &str) -> Result<(), CliError> {
    protocols::server::connect(addr).map_err(|e| CliError::usage(format!("connect: {e}")))
}

pub fn web(listen: &str, data: Option<&str>, open: bool) -> Result<(), CliError> {
    boardlab_web::run(listen, data.map(Path::new), open)
        .map_err(|e| CliError::usage(format!("web: {e}")))
}
