//! The rules between the players of one game, whatever door they use.
//!
//! - A **takeback** or a **draw** at one screen (the follower holds both seats) or
//!   against the engine is immediate ([`Consent::Now`]); between two remote people it is
//!   an [`Offer`] the opponent answers ([`Consent::Ask`]), and only an acceptance carries
//!   it out. A move withdraws any offer. The engine agrees to no draw.
//! - **Engine help** (hints, analysis) in a live game between two remote people is off
//!   unless both players turned it on for that game; a spectator gets analysis only once
//!   the game is over, and never a hint.
//!
//! These are checks on who holds which seat ([`Held`]); the host applies them before it
//! changes anything, so a refused request leaves the game as it was.

use board_core::Player;

use crate::seat::Seat;

/// The seats a follower holds (by the tokens it showed): first, second.
pub type Held = [bool; 2];

/// Whether an action by a follower is carried out now or needs the opponent's consent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consent {
    /// At one screen, or against the engine: nobody else to ask.
    Now,
    /// Between two remote people: this seat's player must agree.
    Ask(Player),
}

/// An offer waiting for the opponent's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// `by` asks to take the game back to its first `to_ply` moves.
    Takeback {
        /// Who asks.
        by: Player,
        /// How many moves stay.
        to_ply: usize,
    },
    /// `by` offers a draw.
    Draw {
        /// Who offers.
        by: Player,
    },
    /// `by` offers a rematch of the finished game (colours swapped).
    Rematch {
        /// Who offers.
        by: Player,
    },
}

impl Offer {
    /// Who made the offer.
    pub fn by(self) -> Player {
        match self {
            Offer::Takeback { by, .. } | Offer::Draw { by } | Offer::Rematch { by } => by,
        }
    }

    /// `takeback`, `draw` or `rematch`: the protocols' word for it.
    pub fn kind(self) -> &'static str {
        match self {
            Offer::Takeback { .. } => "takeback",
            Offer::Draw { .. } => "draw",
            Offer::Rematch { .. } => "rematch",
        }
    }
}

/// Which engine help is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Help {
    /// The engine's move for the player to move.
    Hint,
    /// The engine's scores of the game's positions.
    Analysis,
}

/// Why an action was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The follower holds no person's seat in this game.
    #[error("{0} needs a seat of yours in this game")]
    NoSeat(&'static str),
    /// The game is over.
    #[error("the game is over: {0}")]
    Over(String),
    /// Nothing to take back for this player.
    #[error("nothing to take back")]
    NothingToTakeBack,
    /// Nothing to redo (or a redo between two remote people, who take back by consent).
    #[error("nothing to redo")]
    NothingToRedo,
    /// No offer of the opponent waits for this follower's answer.
    #[error("no offer of your opponent to answer")]
    NoOffer,
    /// An offer waits already.
    #[error("a {0} offer waits for an answer already")]
    Pending(&'static str),
    /// A draw offered to the server's engine.
    #[error("the engine does not agree to draws")]
    EngineDraw,
    /// Engine help in a live game between two remote people, not turned on by both.
    #[error("engine help is off in a live game between two people unless both players turn it on")]
    HelpOff,
    /// A spectator's request for engine help while the game is live.
    #[error("spectators get the engine's analysis once the game is over")]
    Spectator,
    /// A rematch asked while the game is still being played.
    #[error("a rematch follows a finished game: this one is still being played")]
    NotOver,
}

/// The offer and the help consent of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conduct {
    /// The offer waiting for an answer.
    pub offer: Option<Offer>,
    /// Each player turned engine help on.
    pub help: [bool; 2],
}

/// The seats among `held` that people hold.
pub fn people_held(seats: &[Seat; 2], held: Held) -> [bool; 2] {
    [0, 1].map(|i| held[i] && seats[i].is_person())
}

/// Whether an action of a follower holding `held` is immediate or needs the opponent's
/// consent; refused if the follower holds no person's seat (`what` names the action).
pub fn consent(seats: &[Seat; 2], held: Held, what: &'static str) -> Result<Consent, ActionError> {
    let mine = people_held(seats, held);
    match mine {
        [false, false] => Err(ActionError::NoSeat(what)),
        [true, true] => Ok(Consent::Now),
        [true, false] | [false, true] => {
            let other = if mine[0] {
                Player::Second
            } else {
                Player::First
            };
            Ok(if seats[other.index()].is_person() {
                Consent::Ask(other)
            } else {
                Consent::Now
            })
        }
    }
}

impl Conduct {
    /// A takeback to the first `to_ply` moves asked by a follower holding `held`, who
    /// plays `by` (the seat the takeback returns the turn to). [`Consent::Now`]: carry it
    /// out; [`Consent::Ask`]: it is now the waiting offer.
    pub fn ask_takeback(
        &mut self,
        seats: &[Seat; 2],
        held: Held,
        by: Player,
        to_ply: usize,
    ) -> Result<Consent, ActionError> {
        let consent = consent(seats, held, "a takeback")?;
        if let Consent::Ask(_) = consent {
            self.offer_once(Offer::Takeback { by, to_ply })?;
        }
        Ok(consent)
    }

    /// A draw offered by a follower holding `held`: [`Consent::Now`] at one screen (agree
    /// it now); [`Consent::Ask`]: it is now the waiting offer. The engine refuses draws.
    pub fn offer_draw(&mut self, seats: &[Seat; 2], held: Held) -> Result<Consent, ActionError> {
        let consent = consent(seats, held, "a draw offer")?;
        let mine = people_held(seats, held);
        match consent {
            Consent::Now if mine != [true, true] => Err(ActionError::EngineDraw),
            Consent::Now => Ok(Consent::Now),
            Consent::Ask(opponent) => {
                self.offer_once(Offer::Draw {
                    by: opponent.other(),
                })?;
                Ok(consent)
            }
        }
    }

    /// A rematch asked by a follower holding `held` (of a finished game):
    /// [`Consent::Now`] at one screen or against the engine (make it now);
    /// [`Consent::Ask`]: it is now the waiting offer, which the opponent accepts.
    pub fn ask_rematch(&mut self, seats: &[Seat; 2], held: Held) -> Result<Consent, ActionError> {
        let consent = consent(seats, held, "a rematch")?;
        if let Consent::Ask(opponent) = consent {
            self.offer_once(Offer::Rematch {
                by: opponent.other(),
            })?;
        }
        Ok(consent)
    }

    fn offer_once(&mut self, offer: Offer) -> Result<(), ActionError> {
        if let Some(waiting) = self.offer {
            return Err(ActionError::Pending(waiting.kind()));
        }
        self.offer = Some(offer);
        Ok(())
    }

    /// The answer of a follower holding `held` to the waiting offer: taken off, and
    /// returned if `accept` (the caller carries it out). Only the opponent of whoever
    /// offered answers.
    pub fn answer(
        &mut self,
        seats: &[Seat; 2],
        held: Held,
        accept: bool,
    ) -> Result<Option<Offer>, ActionError> {
        let mine = people_held(seats, held);
        let offer = self.offer.ok_or(ActionError::NoOffer)?;
        if !mine[offer.by().other().index()] {
            return Err(ActionError::NoOffer);
        }
        self.offer = None;
        Ok(accept.then_some(offer))
    }

    /// A move was played (or the position changed): a waiting offer is withdrawn.
    pub fn moved(&mut self) {
        self.offer = None;
    }

    /// Turns engine help on or off for the person seats in `held`; the seats changed.
    pub fn set_help(
        &mut self,
        seats: &[Seat; 2],
        held: Held,
        on: bool,
    ) -> Result<Vec<Player>, ActionError> {
        let mine = people_held(seats, held);
        if mine == [false, false] {
            return Err(ActionError::NoSeat("turning engine help on or off"));
        }
        let changed: Vec<Player> = Player::BOTH
            .into_iter()
            .filter(|p| mine[p.index()] && self.help[p.index()] != on)
            .collect();
        for p in &changed {
            self.help[p.index()] = on;
        }
        Ok(changed)
    }

    /// Whether a follower holding `held` may have engine help of this kind now; `over` is
    /// the reason the game ended, if it did.
    pub fn help_allowed(
        &self,
        seats: &[Seat; 2],
        held: Held,
        over: Option<&str>,
        help: Help,
    ) -> Result<(), ActionError> {
        match (over, help) {
            (Some(reason), Help::Hint) => return Err(ActionError::Over(reason.to_string())),
            (Some(_), Help::Analysis) => return Ok(()),
            (None, _) => {}
        }
        match consent(seats, held, "engine help") {
            Err(_) => Err(ActionError::Spectator),
            Ok(Consent::Now) => Ok(()),
            Ok(Consent::Ask(_)) if self.help == [true, true] => Ok(()),
            Ok(Consent::Ask(_)) => Err(ActionError::HelpOff),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Level, Token};

    fn person() -> Seat {
        Seat::Person(Token::generate().expect("randomness"))
    }

    #[test]
    fn takebacks_are_immediate_at_one_screen_and_against_the_engine_only() {
        let remote = [person(), person()];
        let engine = [person(), Seat::Engine(Level::Random)];
        let mut c = Conduct::default();
        assert_eq!(
            c.ask_takeback(&remote, [true, true], Player::First, 2),
            Ok(Consent::Now)
        );
        assert_eq!(
            c.ask_takeback(&engine, [true, false], Player::First, 2),
            Ok(Consent::Now)
        );
        assert_eq!(c.offer, None);
        assert_eq!(
            c.ask_takeback(&remote, [false, false], Player::First, 2),
            Err(ActionError::NoSeat("a takeback"))
        );
        // Between two remote people: an offer, answered by the opponent only.
        assert_eq!(
            c.ask_takeback(&remote, [true, false], Player::First, 2),
            Ok(Consent::Ask(Player::Second))
        );
        assert_eq!(
            c.ask_takeback(&remote, [true, false], Player::First, 2),
            Err(ActionError::Pending("takeback"))
        );
        assert_eq!(
            c.answer(&remote, [true, false], true),
            Err(ActionError::NoOffer),
            "nobody accepts their own offer"
        );
        assert_eq!(
            c.answer(&remote, [false, true], true),
            Ok(Some(Offer::Takeback {
                by: Player::First,
                to_ply: 2
            }))
        );
        assert_eq!(c.offer, None);
        c.ask_takeback(&remote, [false, true], Player::Second, 1)
            .expect("asked");
        assert_eq!(c.answer(&remote, [true, false], false), Ok(None));
        assert_eq!(c.offer, None, "a refusal withdraws it");
        c.ask_takeback(&remote, [false, true], Player::Second, 1)
            .expect("asked");
        c.moved();
        assert_eq!(
            c.answer(&remote, [true, false], true),
            Err(ActionError::NoOffer)
        );
    }

    #[test]
    fn draws_are_offered_to_people_and_never_to_the_engine() {
        let remote = [person(), person()];
        let engine = [Seat::Engine(Level::Random), person()];
        let mut c = Conduct::default();
        assert_eq!(c.offer_draw(&remote, [true, true]), Ok(Consent::Now));
        assert_eq!(
            c.offer_draw(&engine, [false, true]),
            Err(ActionError::EngineDraw)
        );
        assert_eq!(
            c.offer_draw(&remote, [false, true]),
            Ok(Consent::Ask(Player::First))
        );
        assert_eq!(
            c.answer(&remote, [true, false], true),
            Ok(Some(Offer::Draw { by: Player::Second }))
        );
    }

    #[test]
    fn engine_help_between_remote_people_needs_both_and_spectators_wait_for_the_end() {
        let remote = [person(), person()];
        let engine = [person(), Seat::Engine(Level::Engine(100))];
        let mut c = Conduct::default();
        for help in [Help::Hint, Help::Analysis] {
            assert_eq!(
                c.help_allowed(&remote, [true, false], None, help),
                Err(ActionError::HelpOff)
            );
            assert_eq!(c.help_allowed(&remote, [true, true], None, help), Ok(()));
            assert_eq!(c.help_allowed(&engine, [true, false], None, help), Ok(()));
            assert_eq!(
                c.help_allowed(&engine, [false, false], None, help),
                Err(ActionError::Spectator)
            );
        }
        assert_eq!(
            c.set_help(&remote, [true, false], true),
            Ok(vec![Player::First])
        );
        assert_eq!(
            c.help_allowed(&remote, [true, false], None, Help::Hint),
            Err(ActionError::HelpOff),
            "one player's consent is not enough"
        );
        c.set_help(&remote, [false, true], true).expect("set");
        assert_eq!(
            c.help_allowed(&remote, [false, true], None, Help::Hint),
            Ok(())
        );
        assert_eq!(
            c.help_allowed(&remote, [false, false], None, Help::Analysis),
            Err(ActionError::Spectator)
        );
        assert_eq!(
            c.help_allowed(
                &remote,
                [false, false],
                Some("five in a row"),
                Help::Analysis
            ),
            Ok(())
        );
        assert!(matches!(
            c.help_allowed(&engine, [true, false], Some("five in a row"), Help::Hint),
            Err(ActionError::Over(_))
        ));
        assert_eq!(
            c.set_help(&remote, [false, false], true),
            Err(ActionError::NoSeat("turning engine help on or off"))
        );
    }
}
