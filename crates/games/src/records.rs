//! Game records in other programs' formats, to and from the project's save file: SGF for
//! gomoku ([`rules_gomoku::sgf`]). Moves stay typed between the two: the save file is
//! replayed into gomoku moves, which the SGF codec writes, and back.

use board_core::{GameConfig, Position, savefile};
use rules_gomoku::sgf;
/// The players' names and the end of a game beyond its moves, for [`sgf_from_save_with`].
pub use rules_gomoku::sgf::{End, GameInfo};

use crate::Gomoku;

/// Why a record could not be converted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// SGF is written for gomoku only.
    #[error("SGF records are written for gomoku games only, not {0}")]
    NotGomoku(String),
    /// The save file does not replay.
    #[error("the save file does not replay: {0}")]
    Save(String),
    /// The SGF text is not a gomoku record boardlab can play.
    #[error("{0}")]
    Sgf(#[from] sgf::SgfError),
}

/// The SGF record of a gomoku game's save file.
pub fn sgf_from_save(save: &str) -> Result<String, RecordError> {
    sgf_from_save_with(save, &sgf::GameInfo::default())
}

/// [`sgf_from_save`] with the players' names and the end the players or a clock made
/// (`RE[B+R]`, `RE[W+T]`; [`sgf::GameInfo`]).
pub fn sgf_from_save_with(save: &str, info: &sgf::GameInfo) -> Result<String, RecordError> {
    let file = savefile::SaveFile::parse::<std::fmt::Error>(save)
        .map_err(|e| RecordError::Save(e.to_string()))?;
    let gomoku = <<Gomoku as Position>::Config as GameConfig>::GAME_ID;
    if file.spec.id != gomoku {
        return Err(RecordError::NotGomoku(file.spec.id.clone()));
    }
    let game = file
        .replay::<Gomoku>()
        .map_err(|e| RecordError::Save(e.to_string()))?;
    Ok(sgf::write_with(*game.position.config(), &game.moves, info))
}

/// The save file of the gomoku game an SGF record holds (its main line).
pub fn save_from_sgf(text: &str) -> Result<String, RecordError> {
    let game = sgf::read(text)?;
    Ok(savefile::save::<Gomoku>(&game.config, &game.moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::Registry;

    #[test]
    fn a_gomoku_game_goes_to_sgf_and_back() {
        let mut game = Registry::bundled()
            .start("gomoku:size=9,rule=exact5")
            .unwrap();
        for m in ["e5", "d4", "a9"] {
            game.play(m).unwrap();
        }
        let sgf = sgf_from_save(&game.save()).unwrap();
        assert!(
            sgf.contains("GM[4]") && sgf.contains("SZ[9]RU[standard]"),
            "{sgf}"
        );
        assert!(sgf.contains(";B[ee];W[df];B[aa]"), "{sgf}");
        assert_eq!(save_from_sgf(&sgf).unwrap(), game.save());
    }

    #[test]
    fn other_games_have_no_sgf() {
        let game = Registry::bundled().start("amazons").unwrap();
        assert_eq!(
            sgf_from_save(&game.save()),
            Err(RecordError::NotGomoku("amazons".into()))
        );
    }
}
