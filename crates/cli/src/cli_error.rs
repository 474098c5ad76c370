//! The binary's error: always one line, exit code 2.

use board_core::SpecError;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("bad game spec: {0}")]
    Spec(#[from] SpecError),
    #[error("{0}")]
    Usage(String),
}

impl CliError {
    pub fn usage(msg: impl Into<String>) -> CliError {
        CliError::Usage(msg.into())
    }
}
