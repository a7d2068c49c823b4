//! Variants are values owned by a registry: two registries that define
//! the same name differently replay the same game each by its own
//! definition, at the same time, with no state shared between them.

use xpgn::notation::pgn::parse_game;
use xpgn::notation::replay::check_game;
use xpgn::rules::Registry;

/// A 4x4 variant named `mini` whose `N` moves as `betza` says.
fn mini(betza: &str) -> Registry {
    let text = format!(
        "name = \"mini\"\nboard = \"4x4\"\nsetup = \"k3/p3/3P/N2K\"\n\
         [[piece]]\nletter = \"K\"\nname = \"King\"\nbetza = \"K\"\nrole = \"king\"\n\
         [[piece]]\nletter = \"P\"\nname = \"Pawn\"\nrole = \"pawn\"\n\
         [[piece]]\nletter = \"N\"\nname = \"Jumper\"\nbetza = \"{betza}\"\n"
    );
    let mut registry = Registry::builtin();
    registry.load("mini.toml", &text).unwrap();
    registry
}

/// `1. Nb3`: a knight's leap from a1, which a wazir cannot make.
const GAME: &str = "[Variant \"mini\"]\n\n1. Nb3 *\n";

fn valid_in(registry: &Registry) -> bool {
    let game = parse_game(GAME, 1).unwrap();
    check_game(registry, &game, None).is_valid()
}

#[test]
fn a_knight_registry_reads_the_leap() {
    let knights = mini("N");
    for _ in 0..200 {
        assert!(valid_in(&knights));
    }
}

#[test]
fn a_wazir_registry_refuses_the_leap() {
    let wazirs = mini("W");
    for _ in 0..200 {
        assert!(!valid_in(&wazirs));
    }
}

#[test]
fn two_registries_replay_side_by_side() {
    let knights = mini("N");
    let wazirs = mini("W");
    // The two definitions are different variants under one name.
    assert_ne!(knights.lookup("mini"), wazirs.lookup("mini"));
    // The same definition compiled twice is the same variant.
    assert_eq!(knights.lookup("mini"), mini("N").lookup("mini"));
    std::thread::scope(|s| {
        let a = s.spawn(|| (0..500).all(|_| valid_in(&knights)));
        let b = s.spawn(|| (0..500).all(|_| !valid_in(&wazirs)));
        assert!(a.join().unwrap());
        assert!(b.join().unwrap());
    });
    // Neither is known to the built-ins alone.
    assert!(Registry::builtin().lookup("mini").is_none());
}
