//! The page's WebSocket messages as typed requests: [`decode`] reads one message (JSON,
//! bounded sizes), [`apply`] carries out the ones that change a game on the host's
//! [`Table`].
//! The WebSocket door ([`crate::app`]) is these two plus the pushes; the fuzz target
//! `web_messages` drives them directly.

use boardlab_host::{Held, HostError, Table};
use serde::Deserialize;

/// Longest move text a page may send.
pub const MAX_MOVE_CHARS: usize = 64;
/// Longest token a page may send.
pub const MAX_TOKEN_CHARS: usize = 64;
/// Most tokens one page shows: its two seats and the creator's.
pub const MAX_TOKENS: usize = 3;

/// A page's message.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Follow game `game`, holding the seats (and creator) of these tokens.
    Open {
        /// The game's id.
        game: u64,
        /// Seat tokens, and the creator's token.
        #[serde(default)]
        tokens: Vec<String>,
    },
    /// Play a move for the player to move.
    Move {
        /// The move's text (a legal move's text as the server listed it, or typed).
        #[serde(rename = "move")]
        mv: String,
    },
    /// A takeback: at once at one screen or against the engine, else asked.
    Undo,
    /// Replay moves taken back (one screen or against the engine).
    Redo,
    /// Resign.
    Resign,
    /// Offer a draw (agreed at once at one screen).
    Draw,
    /// Answer the opponent's takeback or draw offer.
    Answer {
        /// Accept it.
        accept: bool,
    },
    /// Turn engine help on or off for this follower's seats.
    Help {
        /// On.
        on: bool,
    },
    /// The creator pauses (`on`) or resumes the game's engines.
    Pause {
        /// Pause.
        on: bool,
    },
    /// A rematch of the finished game: same settings, colours swapped (made once; asked
    /// again, the same game).
    Rematch,
    /// A hint for the player to move.
    Hint,
    /// The evaluation of every position.
    Analyse,
    /// The board after the first `ply` moves.
    View {
        /// How many moves.
        ply: usize,
    },
}

/// Reads one message; the error says what is wrong with it (nothing changes).
pub fn decode(text: &str) -> Result<Request, String> {
    let request: Request = serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))?;
    match &request {
        Request::Open { tokens, .. }
            if tokens.len() > MAX_TOKENS
                || tokens.iter().any(|t| t.chars().count() > MAX_TOKEN_CHARS) =>
        {
            Err(format!(
                "at most {MAX_TOKENS} tokens (two seats and the creator's) of at most \
                 {MAX_TOKEN_CHARS} characters"
            ))
        }
        Request::Move { mv } if mv.chars().count() > MAX_MOVE_CHARS => {
            Err(format!("a move is at most {MAX_MOVE_CHARS} characters"))
        }
        _ => Ok(request),
    }
}

/// Who sends a request: the game the page follows, the seats it holds, whether it
/// showed the creator's token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sender {
    /// The followed game.
    pub game: u64,
    /// The seats held.
    pub held: Held,
    /// The creator's token was shown.
    pub owner: bool,
}

impl Request {
    /// Whether [`apply`] carries this request out (it changes the game), rather than the
    /// door (following, hints, analyses, views).
    pub fn is_action(&self) -> bool {
        !matches!(
            self,
            Request::Open { .. } | Request::Hint | Request::Analyse | Request::View { .. }
        )
    }
}

/// Carries out an action ([`Request::is_action`]) of `from` on the table; an error
/// leaves the game as it was. Other requests are the door's to answer.
///
/// Returns `None` for a request that is no action.
pub fn apply(table: &mut Table, from: Sender, request: &Request) -> Option<Result<(), HostError>> {
    let (id, held) = (from.game, from.held);
    Some(match request {
        Request::Move { mv } => table.play(id, held, mv).map(|_| ()),
        Request::Undo => table.undo(id, held).map(|_| ()),
        Request::Redo => table.redo(id, held),
        Request::Resign => table.resign(id, held).map(|_| ()),
        Request::Draw => table.offer_draw(id, held).map(|_| ()),
        Request::Answer { accept } => table.answer(id, held, *accept).map(|_| ()),
        Request::Help { on } => table.set_help(id, held, *on),
        Request::Pause { on } => table.pause(id, from.owner, *on),
        Request::Rematch => table.rematch(id, held).map(|_| ()),
        Request::Open { .. } | Request::Hint | Request::Analyse | Request::View { .. } => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_decoded_with_their_bounds() {
        assert_eq!(
            decode(r#"{"type":"move","move":"c3"}"#),
            Ok(Request::Move { mv: "c3".into() })
        );
        assert_eq!(
            decode(r#"{"type":"answer","accept":true}"#),
            Ok(Request::Answer { accept: true })
        );
        assert!(
            decode(r#"{"type":"answer"}"#)
                .unwrap_err()
                .starts_with("bad message")
        );
        assert!(decode("not json").unwrap_err().starts_with("bad message"));
        let long = format!(r#"{{"type":"move","move":"{}"}}"#, "a".repeat(65));
        assert!(decode(&long).unwrap_err().contains("at most 64"));
        let many = r#"{"type":"open","game":1,"tokens":["a","b","c","d"]}"#;
        assert!(decode(many).unwrap_err().contains("at most 3 tokens"));
        assert!(Request::Undo.is_action() && !Request::Hint.is_action());
    }
}
