//! What `convert` and `export` change in a game before they write it, when
//! asked: the opening tags (`--add-eco`, `--replace-eco`), comments, NAGs
//! and variations stripped, which tags are kept, a `PlyCount` tag, and
//! result tags fixed from the final position (`--fix-results`).

use super::game::{Game, Node};
use super::opening::Opening;
use super::writer::SEVEN_TAG_ROSTER;
use crate::rules::Position;

/// Which tags a cleaned game keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TagSet {
    /// Every tag, the Seven Tag Roster first (missing ones as `?`).
    #[default]
    All,
    /// The Seven Tag Roster only, with the tags its moves need (`Variant`,
    /// `FEN`, `SetUp`) and those asked for (`ECO`, `Opening`, `PlyCount`).
    Roster,
    /// No tag but the ones its moves need and those asked for.
    None,
}

/// The tags a game's moves cannot be read without.
const NEEDED: [&str; 3] = ["Variant", "FEN", "SetUp"];

/// What to do with the `ECO` and `Opening` tags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EcoTags {
    /// Leave them as written.
    #[default]
    Keep,
    /// Add the ones a game lacks; a tag already written stays as it is.
    Add,
    /// Add the ones a game lacks and replace the ones that differ.
    Replace,
}

/// Everything `convert` and `export` may change in a valid game before
/// writing it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cleaning {
    /// The `ECO` and `Opening` tags.
    pub eco: EcoTags,
    /// Drop every comment.
    pub strip_comments: bool,
    /// Drop every NAG (suffix annotations too).
    pub strip_nags: bool,
    /// Drop every variation.
    pub strip_variations: bool,
    /// Which tags to keep.
    pub tags: TagSet,
    /// Add (or set) a `PlyCount` tag: the main line's plies.
    pub ply_count: bool,
    /// Set the result (tag and termination marker) to what the final
    /// position decides, where it decides one (checkmate, stalemate, a
    /// variant's win) and the game says otherwise.
    pub fix_results: bool,
}

/// What [`clean`] changed that a command reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cleaned {
    /// The opening tags.
    pub eco: Option<OpeningTagsChange>,
    /// The result was set from the final position.
    pub result_fixed: bool,
}

/// A 128-bit key of a game's moves: variant, start position and main
/// line, what `--drop-duplicates` compares (as `xpgn duplicates` groups
/// games, under any tags).
pub fn line_key(start: &Position, moves: &[crate::rules::Move]) -> u128 {
    use std::hash::{Hash, Hasher};
    let mut halves = [0u64; 2];
    for (seed, half) in halves.iter_mut().enumerate() {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        seed.hash(&mut h);
        start.variant().name().hash(&mut h);
        super::position::write_position(start).hash(&mut h);
        let mut pos = start.clone();
        for m in moves {
            super::coord::write_coord(&pos, m).hash(&mut h);
            pos.play_unchecked(m);
        }
        *half = h.finish();
    }
    (u128::from(halves[0]) << 64) | u128::from(halves[1])
}

/// Sets the result of `game` (its `Result` tag and termination marker) to
/// the one its final position `end` decides, when it decides one
/// (checkmate, stalemate, a variant's win) and the game records another
/// (`*` included), as pgn-extract's `--fixresulttags` does. Returns
/// whether it changed anything.
pub fn fix_result(game: &mut Game, end: &Position) -> bool {
    let Some(outcome) = end.outcome() else {
        return false;
    };
    let decided = outcome.result();
    let written = game
        .result
        .as_deref()
        .or_else(|| game.tag("Result"))
        .unwrap_or("*");
    let tag = game.tag("Result").unwrap_or(decided);
    if written == decided && tag == decided {
        return false;
    }
    game.result = Some(decided.to_string());
    match game.tags.iter_mut().find(|(n, _)| n == "Result") {
        Some((_, v)) => *v = decided.to_string(),
        None => game.tags.push(("Result".into(), decided.into())),
    }
    true
}

/// A game that is invalid only for a result its final position
/// contradicts (R-0-3), with that result fixed ([`fix_result`]) and
/// checked again: `Some` with the fixed game and its check when that makes
/// it valid.
pub fn fixed_if_only_the_result_is_wrong(
    registry: &crate::rules::Registry,
    game: &Game,
    checked: &super::replay::Checked,
    visit: Option<&mut super::replay::MoveVisitor<'_>>,
) -> Option<(Game, super::replay::Checked)> {
    if checked.is_valid() {
        return None;
    }
    let r = checked.replay.as_ref()?;
    let mut end = r.start.clone();
    for m in &r.moves {
        end.play_unchecked(m);
    }
    let mut fixed = game.clone();
    if !fix_result(&mut fixed, &end) {
        return None;
    }
    let again = super::replay::check_game(registry, &fixed, visit);
    again.is_valid().then_some((fixed, again))
}

/// Changes a valid `game` as `cleaning` says: `end` is the position its
/// main line ends in and `plies` the main line's length; `opening` its
/// opening.
pub fn clean(
    game: &mut Game,
    cleaning: &Cleaning,
    end: Option<&Position>,
    plies: usize,
    opening: Option<&Opening>,
) -> Cleaned {
    let mut done = Cleaned {
        eco: Some(set_opening_tags(game, opening, cleaning.eco)),
        ..Cleaned::default()
    };
    if cleaning.strip_comments || cleaning.strip_nags || cleaning.strip_variations {
        if cleaning.strip_comments {
            game.final_comments.clear();
        }
        let mut lines: Vec<&mut Vec<Node>> = vec![&mut game.moves];
        while let Some(line) = lines.pop() {
            for node in line.iter_mut() {
                if cleaning.strip_comments {
                    node.comments.clear();
                    node.comments_before.clear();
                }
                if cleaning.strip_nags {
                    node.nags.clear();
                }
                if cleaning.strip_variations {
                    node.variations.clear();
                }
                lines.extend(node.variations.iter_mut());
            }
        }
    }
    if cleaning.fix_results
        && let Some(end) = end
    {
        done.result_fixed = fix_result(game, end);
    }
    if cleaning.ply_count {
        let value = plies.to_string();
        match game.tags.iter_mut().find(|(n, _)| n == "PlyCount") {
            Some((_, v)) => *v = value,
            None => game.tags.push(("PlyCount".into(), value)),
        }
    }
    let asked = |name: &str| {
        (cleaning.eco != EcoTags::Keep && (name == "ECO" || name == "Opening"))
            || (cleaning.ply_count && name == "PlyCount")
    };
    match cleaning.tags {
        TagSet::All => {}
        TagSet::Roster => game.tags.retain(|(n, _)| {
            SEVEN_TAG_ROSTER.contains(&n.as_str()) || NEEDED.contains(&n.as_str()) || asked(n)
        }),
        TagSet::None => game
            .tags
            .retain(|(n, _)| NEEDED.contains(&n.as_str()) || asked(n)),
    }
    // Tag locations no longer follow the tags.
    game.tag_locations.clear();
    done
}

/// What [`set_opening_tags`] did to a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningTagsChange {
    /// Nothing: nothing asked, no opening named, or the tags already say it.
    None,
    /// A tag was added (and none that differs was kept).
    Added,
    /// A tag written with another value was kept (asked to add only).
    KeptOther,
    /// A tag written with another value was replaced.
    Replaced,
}

/// Sets the `ECO` and `Opening` tags of `game` to `opening` as `how` says.
/// Tags are added after the others; a replaced tag keeps its place.
pub fn set_opening_tags(
    game: &mut Game,
    opening: Option<&Opening>,
    how: EcoTags,
) -> OpeningTagsChange {
    let Some(opening) = opening.filter(|_| how != EcoTags::Keep) else {
        return OpeningTagsChange::None;
    };
    let mut change = OpeningTagsChange::None;
    for (name, value) in [("ECO", &opening.eco), ("Opening", &opening.name)] {
        match game.tags.iter_mut().find(|(n, _)| n == name) {
            None => {
                game.tags.push((name.to_string(), value.clone()));
                if change == OpeningTagsChange::None {
                    change = OpeningTagsChange::Added;
                }
            }
            Some((_, written)) if written.trim() == value.as_str() => {}
            Some((_, written)) => {
                if how == EcoTags::Replace {
                    *written = value.clone();
                    change = OpeningTagsChange::Replaced;
                } else {
                    change = OpeningTagsChange::KeptOther;
                }
            }
        }
    }
    change
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::pgn::read_game;
    use crate::notation::replay::check_game;
    use crate::notation::writer::{MoveNotation, WriteOptions, write_game_with};
    use crate::rules::Registry;

    /// `text` read, cleaned and written.
    fn cleaned(text: &str, c: &Cleaning, options: &WriteOptions) -> String {
        let registry = Registry::builtin();
        let mut game = read_game(text, 1);
        let checked = check_game(&registry, &game, None);
        let r = checked.replay.unwrap();
        let mut end = r.start.clone();
        for m in &r.moves {
            end.play_unchecked(m);
        }
        clean(&mut game, c, Some(&end), r.moves.len(), None);
        write_game_with(&registry, &game, MoveNotation::San, options).unwrap()
    }

    const ANNOTATED: &str = "[Event \"e\"]\n[WhiteElo \"2700\"]\n{start} 1. e4 {best} $1 e5 (1... c5 {sharp} (1... e6)) 2. Nf3! {end} *";

    #[test]
    fn comments_nags_and_variations_are_stripped_each_on_its_own() {
        let all = Cleaning {
            strip_comments: true,
            strip_nags: true,
            strip_variations: true,
            ..Cleaning::default()
        };
        let text = cleaned(ANNOTATED, &all, &WriteOptions::default());
        assert!(text.ends_with("\n\n1. e4 e5 2. Nf3 *\n\n"), "{text}");
        let comments = Cleaning {
            strip_comments: true,
            ..Cleaning::default()
        };
        let text = cleaned(ANNOTATED, &comments, &WriteOptions::default());
        assert!(
            text.contains("1. e4 $1 e5 (1... c5 (1... e6)) 2. Nf3 $1 *"),
            "{text}"
        );
        let variations = Cleaning {
            strip_variations: true,
            ..Cleaning::default()
        };
        let text = cleaned(ANNOTATED, &variations, &WriteOptions::default());
        assert!(
            text.contains("{start} 1. e4 $1 {best} 1... e5 2. Nf3 $1 {end} *"),
            "{text}"
        );
    }

    #[test]
    fn tags_are_kept_all_the_roster_or_none_with_what_the_moves_need() {
        let from = "[Event \"e\"]\n[WhiteElo \"2700\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n1. e4 *";
        let roster = Cleaning {
            tags: TagSet::Roster,
            ply_count: true,
            ..Cleaning::default()
        };
        let text = cleaned(from, &roster, &WriteOptions::default());
        assert!(!text.contains("WhiteElo"), "{text}");
        assert!(text.starts_with("[Event \"e\"]\n[Site \"?\"]"), "{text}");
        assert!(
            text.contains(
                "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n[PlyCount \"1\"]\n"
            ),
            "{text}"
        );
        let none = Cleaning {
            tags: TagSet::None,
            ..Cleaning::default()
        };
        let options = WriteOptions {
            roster: false,
            ..WriteOptions::default()
        };
        let text = cleaned(from, &none, &options);
        assert_eq!(
            text,
            "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 *\n\n"
        );
        let text = cleaned("[Event \"e\"]\n1. e4 *", &none, &options);
        assert_eq!(text, "1. e4 *\n\n");
    }

    #[test]
    fn lines_are_as_wide_as_asked() {
        let long =
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *";
        for width in [20, 40, 80] {
            let text = cleaned(
                long,
                &Cleaning::default(),
                &WriteOptions {
                    width,
                    roster: true,
                },
            );
            let movetext = text.split("\n\n").nth(1).unwrap();
            assert!(
                movetext.lines().all(|l| l.chars().count() <= width),
                "{width}: {movetext}"
            );
            assert!(
                movetext.lines().any(|l| l.chars().count() > width - 8),
                "{width}: {movetext}"
            );
        }
        let text = cleaned(
            long,
            &Cleaning::default(),
            &WriteOptions {
                width: 255,
                roster: true,
            },
        );
        assert_eq!(text.split("\n\n").nth(1).unwrap(), long);
    }

    #[test]
    fn results_are_fixed_from_the_final_position_only_where_it_decides() {
        let fix = Cleaning {
            fix_results: true,
            ..Cleaning::default()
        };
        let mate = "[Result \"1/2-1/2\"]\n1. f3 e5 2. g4 Qh4# 1/2-1/2";
        let text = cleaned(mate, &fix, &WriteOptions::default());
        assert!(
            text.contains("[Result \"0-1\"]") && text.ends_with("Qh4# 0-1\n\n"),
            "{text}"
        );
        let stalemate = "[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n[Result \"1-0\"]\n1. Qf7 1-0";
        let text = cleaned(stalemate, &fix, &WriteOptions::default());
        assert!(
            text.contains("[Result \"1/2-1/2\"]") && text.ends_with("Qf7 1/2-1/2\n\n"),
            "{text}"
        );
        // A position that decides nothing keeps its result.
        let resigned = "[Result \"1-0\"]\n1. e4 1-0";
        let text = cleaned(resigned, &fix, &WriteOptions::default());
        assert!(
            text.contains("[Result \"1-0\"]") && text.ends_with("1. e4 1-0\n\n"),
            "{text}"
        );
    }

    fn game(tags: &[(&str, &str)]) -> Game {
        Game {
            tags: tags
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
            ..Game::default()
        }
    }

    fn sicilian() -> Opening {
        Opening {
            eco: "B20".into(),
            name: "Sicilian Defense".into(),
        }
    }

    #[test]
    fn missing_tags_are_added_and_written_ones_replaced_only_when_asked() {
        let mut g = game(&[("White", "A")]);
        let o = sicilian();
        assert_eq!(
            set_opening_tags(&mut g, Some(&o), EcoTags::Add),
            OpeningTagsChange::Added
        );
        assert_eq!(g.tags[1], ("ECO".to_string(), "B20".to_string()));
        assert_eq!(g.tags[2].1, "Sicilian Defense");
        let mut g = game(&[("ECO", "C00"), ("White", "A")]);
        assert_eq!(
            set_opening_tags(&mut g, Some(&o), EcoTags::Add),
            OpeningTagsChange::KeptOther
        );
        assert_eq!(g.tags[0].1, "C00");
        assert_eq!(g.tags[2].1, "Sicilian Defense");
        assert_eq!(
            set_opening_tags(&mut g, Some(&o), EcoTags::Replace),
            OpeningTagsChange::Replaced
        );
        assert_eq!(g.tags[0], ("ECO".to_string(), "B20".to_string()));
        assert_eq!(g.tags.len(), 3);
        // Nothing asked, or nothing named: the tags stay.
        let mut g = game(&[("ECO", "C00")]);
        assert_eq!(
            set_opening_tags(&mut g, Some(&o), EcoTags::Keep),
            OpeningTagsChange::None
        );
        assert_eq!(
            set_opening_tags(&mut g, None, EcoTags::Replace),
            OpeningTagsChange::None
        );
        assert_eq!(g.tags.len(), 1);
    }
}
