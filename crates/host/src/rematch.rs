//! Rematches: a finished game played again with the same settings and the colours
//! swapped. Between two remote people a rematch is an offer the opponent accepts (or
//! declines), like a draw; at one screen or against the engine it is made at once. The new game's seat tokens are kept with the finished game so that each
//! player, following it, is told their own token and nobody else's
//! ([`Status::rematch`]).

use board_core::Player;
use serde::Serialize;

use super::{Event, SeatChoice, Table};
use crate::{
    ActionError, Consent, HostError, Offer, Seat, conduct::people_held, game::create_game,
};

/// The rematch made of a finished game: the new game's id, the secret token of each of
/// its person seats (first, second of the new game) and its creator's token.
#[derive(Clone, Debug)]
pub(super) struct Made {
    id: u64,
    tokens: [Option<String>; 2],
    owner: String,
}

/// The rematch of a finished game as one follower sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RematchView {
    /// The new game's id.
    pub id: u64,
    /// This follower's tokens in the new game: the seats it held, swapped, and the
    /// creator's token if it held the finished game's. Empty for a spectator, who may
    /// watch the new game.
    pub tokens: Vec<String>,
}

impl Made {
    /// What a follower holding the person seats `humans` of the finished game (`owner`:
    /// and its creator's token) is told.
    pub(super) fn view_for(&self, humans: [bool; 2], owner: bool) -> RematchView {
        // Colours are swapped: the finished game's first seat is the new game's second.
        let mut tokens: Vec<String> = Player::BOTH
            .into_iter()
            .filter(|p| humans[p.index()])
            .filter_map(|p| self.tokens[p.other().index()].clone())
            .collect();
        if owner {
            tokens.push(self.owner.clone());
        }
        RematchView {
            id: self.id,
            tokens,
        }
    }
}

impl Table {
    /// A rematch of finished game `id`, asked by a follower holding `held`: a new game
    /// of the same spec and time control with the seats swapped (a person's seat gets a
    /// new token, an engine keeps its level). At one screen or against the engine it is
    /// made at once; between two remote people it is offered ([`Offer::Rematch`]) and
    /// made when the opponent accepts ([`Table::answer`]) or asks for one too. Both
    /// players see it in the finished game's state, each with their own token, and the
    /// followers hear [`Event::Rematched`] (with each player's token, for a door to hand
    /// to that player alone) when it is made. Asked
    /// again (by either player), the same rematch; refused for a spectator or while the
    /// game is being played. The new game's id, or `None` when it was offered.
    pub fn rematch(&mut self, id: u64, held: super::Held) -> Result<Option<u64>, HostError> {
        let h = self.hosted(id)?;
        let humans = people_held(&h.seats, held);
        if humans == [false, false] {
            return Err(ActionError::NoSeat("a rematch").into());
        }
        if !h.over() {
            return Err(ActionError::NotOver.into());
        }
        if let Some(made) = &h.rematch
            && self.games.contains_key(&made.id)
        {
            return Ok(Some(made.id));
        }
        // The opponent's offer waits: asking for a rematch too accepts it.
        if let Some(Offer::Rematch { by }) = h.conduct.offer
            && humans[by.other().index()]
        {
            return self.make_rematch(id).map(Some);
        }
        let (seats, mut conduct) = (h.seats.clone(), h.conduct.clone());
        match conduct.ask_rematch(&seats, held)? {
            Consent::Now => self.make_rematch(id).map(Some),
            Consent::Ask(_) => {
                let h = self.hosted_mut(id)?;
                h.conduct = conduct;
                if let Some(offer) = h.conduct.offer {
                    h.followers.send(&Event::Offered(offer));
                }
                h.announce();
                Ok(None)
            }
        }
    }

    /// Makes the rematch of finished game `id` (once: a rematch made stays the one).
    pub(super) fn make_rematch(&mut self, id: u64) -> Result<u64, HostError> {
        let h = self.hosted(id)?;
        if let Some(made) = &h.rematch
            && self.games.contains_key(&made.id)
        {
            return Ok(made.id);
        }
        let choice = |seat: &Seat| match seat {
            Seat::Person(_) => SeatChoice::Human,
            Seat::Engine(level) => SeatChoice::Engine(*level),
            Seat::Free => SeatChoice::Free,
        };
        let choices = [choice(&h.seats[1]), choice(&h.seats[0])];
        let spec = h.game.spec();
        let game = create_game(&self.registry, &spec)?;
        // Under the table's bound on games, not the creator's per-peer bound: the refusal
        // would name the creator's address to the other player. A finished game makes
        // one rematch only, so rematches grow no faster than games are played.
        // The same time control, with fresh clocks.
        let time = h.clocks.as_ref().map(crate::clock::Clocks::control);
        let created = self.host(
            game,
            choices,
            None,
            crate::save::ClockRecords::fresh(time),
            crate::save::Ending::default(),
        )?;
        let h = self.hosted_mut(id)?;
        // Colours swapped: this game's first seat's player holds the new game's second.
        let [first, second] = created.tokens.clone();
        h.followers.send(&Event::Rematched {
            id: created.id,
            tokens: [second, first],
        });
        h.rematch = Some(Made {
            id: created.id,
            tokens: created.tokens,
            owner: created.owner,
        });
        h.conduct.offer = None;
        h.changed();
        Ok(created.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;

    fn finished_between_two_people(table: &mut Table) -> (u64, String, String) {
        let c = table
            .create("gomoku:size=7", [SeatChoice::Human, SeatChoice::Human])
            .expect("create");
        let (t0, t1) = (c.tokens[0].clone().unwrap(), c.tokens[1].clone().unwrap());
        table.play(c.id, [true, false], "d4").expect("move");
        table.resign(c.id, [false, true]).expect("resign");
        (c.id, t0, t1)
    }

    #[test]
    fn a_rematch_swaps_colours_and_tells_each_player_only_their_token() {
        let (mut table, _) = Table::open(None).expect("table");
        let (id, t0, t1) = finished_between_two_people(&mut table);
        let first = table.seats_of(id, std::slice::from_ref(&t0)).unwrap();
        let second = table.seats_of(id, std::slice::from_ref(&t1)).unwrap();
        assert!(table.state(id, second).unwrap().can_rematch);
        assert!(!table.state(id, [false, false]).unwrap().can_rematch);
        // Between two remote people it is offered; asking too accepts the offer.
        assert_eq!(table.rematch(id, second), Ok(None));
        let offer = table.state(id, first).unwrap().offer.expect("offered");
        assert_eq!(
            (offer.kind, offer.by, offer.yours_to_answer),
            ("rematch", 1, true)
        );
        assert!(
            !table.state(id, second).unwrap().can_rematch,
            "asked already"
        );
        let new = table.rematch(id, first).expect("accepted").expect("made");
        assert_ne!(new, id);
        assert!(table.state(id, first).unwrap().offer.is_none());
        // Asked again, by either player: the same game.
        assert_eq!(table.rematch(id, second), Ok(Some(new)));
        let mine = table
            .state(id, first)
            .unwrap()
            .rematch
            .expect("rematch named");
        let theirs = table
            .state(id, second)
            .unwrap()
            .rematch
            .expect("rematch named");
        let watcher = table.state(id, [false, false]).unwrap().rematch.unwrap();
        assert_eq!((mine.id, theirs.id, watcher.id), (new, new, new));
        assert!(watcher.tokens.is_empty(), "a spectator gets no token");
        assert_eq!((mine.tokens.len(), theirs.tokens.len()), (1, 1));
        assert_ne!(mine.tokens, theirs.tokens);
        // The finished game's first player holds the new game's second seat.
        assert_eq!(table.seats_of(new, &mine.tokens).unwrap(), [false, true]);
        assert_eq!(table.seats_of(new, &theirs.tokens).unwrap(), [true, false]);
        let status = table.state(new, [false, false]).unwrap();
        assert_eq!(status.spec, table.state(id, first).unwrap().spec);
        assert!(status.moves.is_empty() && status.ended.is_none());
    }

    #[test]
    fn a_rematch_is_refused_while_playing_and_to_spectators_changing_nothing() {
        let (mut table, _) = Table::open(None).expect("table");
        let c = table
            .create(
                "fourshift",
                [SeatChoice::Human, SeatChoice::Engine(Level::Engine(50))],
            )
            .expect("create");
        let games = table.ids();
        let e = table.rematch(c.id, [true, false]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a rematch follows a finished game: this one is still being played"
        );
        let (id, _, _) = finished_between_two_people(&mut table);
        let e = table.rematch(id, [false, false]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a rematch needs a seat of yours in this game"
        );
        assert_eq!(table.ids().len(), games.len() + 1, "no game was made");
        assert!(table.state(id, [true, false]).unwrap().rematch.is_none());
        // Against the engine: the engine keeps its level, in the other seat.
        table.resign(c.id, [true, false]).expect("resign");
        let new = table
            .rematch(c.id, [true, false])
            .expect("rematch")
            .expect("made at once against the engine");
        let seats = table.state(new, [false, false]).unwrap().seats;
        assert_eq!((seats[0].kind, seats[1].kind), ("engine", "human"));
        let mine = table.state(c.id, [true, false]).unwrap().rematch.unwrap();
        assert_eq!(table.seats_of(new, &mine.tokens).unwrap(), [false, true]);
    }

    #[test]
    fn a_rematch_offer_is_accepted_or_declined_by_the_opponent() {
        let (mut table, _) = Table::open(None).expect("table");
        let (id, t0, t1) = finished_between_two_people(&mut table);
        let first = table.seats_of(id, std::slice::from_ref(&t0)).unwrap();
        let second = table.seats_of(id, std::slice::from_ref(&t1)).unwrap();
        let games = table.ids().len();
        assert_eq!(table.rematch(id, first), Ok(None));
        assert_eq!(
            table.rematch(id, first).unwrap_err().to_string(),
            "a rematch offer waits for an answer already"
        );
        assert!(
            table.answer(id, first, true).is_err(),
            "not one's own offer"
        );
        table.answer(id, second, false).expect("declined");
        assert_eq!(table.ids().len(), games, "no game made");
        let seen = table.state(id, first).unwrap();
        assert!(seen.offer.is_none() && seen.rematch.is_none() && seen.can_rematch);
        assert_eq!(table.rematch(id, first), Ok(None));
        let accepted = table.answer(id, second, true).expect("accepted");
        assert_eq!(accepted.map(Offer::kind), Some("rematch"));
        let made = table.state(id, second).unwrap().rematch.expect("made");
        assert_eq!(table.ids().len(), games + 1);
        assert_eq!(
            table.seats_of(made.id, &made.tokens).unwrap(),
            [true, false]
        );
    }

    #[test]
    fn the_followers_hear_the_rematch_with_each_players_token_in_the_new_game() {
        let (mut table, _) = Table::open(None).expect("table");
        let (id, t0, t1) = finished_between_two_people(&mut table);
        let first = table.seats_of(id, std::slice::from_ref(&t0)).unwrap();
        let second = table.seats_of(id, std::slice::from_ref(&t1)).unwrap();
        let (tx, events) = std::sync::mpsc::channel();
        table
            .subscribe(id, Box::new(move |e| tx.send(e.clone()).is_ok()))
            .expect("subscribed");
        assert_eq!(table.rematch(id, first), Ok(None));
        assert!(
            !events
                .try_iter()
                .any(|e| matches!(e, Event::Rematched { .. })),
            "only offered"
        );
        table.answer(id, second, true).expect("accepted");
        let heard = events.try_iter().find_map(|e| match e {
            Event::Rematched { id, tokens } => Some((id, tokens)),
            _ => None,
        });
        let (new, [of_first, of_second]) = heard.expect("the rematch is heard");
        // The finished game's first player holds the new game's second seat, and so on.
        let of_first = of_first.expect("a person's token");
        let of_second = of_second.expect("a person's token");
        assert_eq!(table.seats_of(new, &[of_first]).unwrap(), [false, true]);
        assert_eq!(table.seats_of(new, &[of_second]).unwrap(), [true, false]);
        // Asked again: the same game, and nothing heard again.
        assert_eq!(table.rematch(id, first), Ok(Some(new)));
        assert!(
            !events
                .try_iter()
                .any(|e| matches!(e, Event::Rematched { .. }))
        );
    }
}
