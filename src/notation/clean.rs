//! What `convert` and `export` change in a game before they write it, when
//! asked: the opening tags (`--add-eco`, `--replace-eco`).

use super::game::Game;
use super::opening::Opening;

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
