//! The search stops promptly when told to: within one polling interval of nodes of the flag
//! being set, whatever the machine's load (the time that interval takes is the benchmarks'
//! nodes per second: 1,024 nodes at about 2 M nodes a second is about half a millisecond).

use makruk::{Game, Position, Ruleset};
use makruk_engine::{Engine, Limits};
use std::sync::atomic::{AtomicBool, Ordering};

/// The search polls its stop flag every this many nodes (`search.rs`, `POLL_NODES`).
const POLL_NODES: u64 = 1024;

#[test]
fn stops_within_one_polling_interval_of_the_flag() {
    // An infinite search from several positions; the flag is set from the search's own
    // progress report once it has searched `after` nodes, and the search must return having
    // searched at most one polling interval more.
    for (fen, after) in [
        (None, 50_000u64),
        (None, 400_000),
        (
            Some("rn1mk1n1/2s1s2r/pppp1ppp/4p3/7P/PPPPPPPN/8/RNSKMS1R w - - 4 5"),
            100_000,
        ),
        (
            Some("r1sk4/4m3/1pp1p1p1/p2pn2p/3P1P2/PPP1S1PP/3M4/R1S1K3 b - - 1 20"),
            200_000,
        ),
    ] {
        let game = match fen {
            None => Game::new(Ruleset::Standard),
            Some(f) => Game::from_position(Position::from_fen(f, Ruleset::Standard).expect("fen")),
        };
        let stop = AtomicBool::new(false);
        let mut set_at = None;
        let mut e = Engine::new(16);
        let result = e.search(&game, &Limits::default(), &stop, &mut |info| {
            if set_at.is_none() && info.nodes >= after {
                stop.store(true, Ordering::Relaxed);
                set_at = Some(info.nodes);
            }
        });
        let set_at = set_at.expect("the search reported its progress");
        assert!(
            result.nodes <= set_at + POLL_NODES,
            "{fen:?}: stopped at {set_at} nodes, returned after {}",
            result.nodes
        );
        assert!(result.best.is_some(), "{fen:?}: a move even when stopped");
    }
}
