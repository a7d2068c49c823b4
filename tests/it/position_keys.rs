//! Position keys are stored in users' databases and datasets: their values
//! must never change. `tests/data/position_keys.tsv` holds positions of
//! random games of every built-in variant and of the test variant files
//! (`tests/variants/`), each with the key `xpgn key` printed for it before
//! the rules core moved to square sets and a Zobrist table (commit
//! 398e9d3): today's keys must be those.

use xpgn::notation::position::read_position;
use xpgn::rules::Registry;

#[test]
fn keys_keep_the_values_stored_before() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/");
    let mut reg = Registry::builtin();
    for file in ["fairy.ini", "grid10.toml"] {
        let text = std::fs::read_to_string(format!("{dir}variants/{file}")).unwrap();
        reg.load(file, &text).unwrap();
    }
    let table = std::fs::read_to_string(format!("{dir}data/position_keys.tsv")).unwrap();
    let mut checked = std::collections::BTreeMap::new();
    for line in table.lines() {
        let [name, fen, key] = line.split('\t').collect::<Vec<_>>()[..] else {
            panic!("not variant, position, key: {line}");
        };
        let variant = reg.lookup(name).unwrap_or_else(|| panic!("{name}"));
        let pos = read_position(&variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let stored: i64 = key.parse().unwrap();
        assert_eq!(pos.key() as i64, stored, "{name} {fen}");
        *checked.entry(name).or_insert(0) += 1;
    }
    assert_eq!(checked.len(), 18, "{checked:?}");
    assert!(checked.values().all(|&n| n >= 20), "{checked:?}");
}
