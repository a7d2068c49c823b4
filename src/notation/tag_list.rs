//! A game's tag pairs as a reading keeps them: every name and value in
//! one string, in the order written. An import keeps the tags of every
//! game it reads; as two strings a pair, a game of fifteen tags took
//! thirty allocations and as many frees, about 3% of an import's
//! instructions.

/// Tag pairs in the order written, their text held in one string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagList {
    text: String,
    /// Per pair, where its name ends and where its value ends in `text`
    /// (its name starts where the pair before it ends).
    ends: Vec<(usize, usize)>,
}

impl TagList {
    /// An empty list with room for `pairs` pairs of `bytes` bytes of text.
    pub fn with_capacity(pairs: usize, bytes: usize) -> TagList {
        TagList {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(pairs),
        }
    }

    /// Adds a pair after the others.
    pub fn push(&mut self, name: &str, value: &str) {
        self.text.push_str(name);
        let name_end = self.text.len();
        self.text.push_str(value);
        self.ends.push((name_end, self.text.len()));
    }

    /// The pairs in the order written.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + Clone + '_ {
        (0..self.ends.len()).map(move |i| {
            let start = if i == 0 { 0 } else { self.ends[i - 1].1 };
            let (name_end, end) = self.ends[i];
            (&self.text[start..name_end], &self.text[name_end..end])
        })
    }

    /// The value of the first pair named `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        // Names compared as bytes, the value sliced only for the pair
        // found: a dataset looks up nine names in every game.
        let text = self.text.as_bytes();
        let mut start = 0;
        for &(name_end, end) in &self.ends {
            if text.get(start..name_end) == Some(name.as_bytes()) {
                return self.text.get(name_end..end);
            }
            start = end;
        }
        None
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no pair.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The pairs as owned strings.
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        self.iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }
}

impl<'a> FromIterator<(&'a str, &'a str)> for TagList {
    fn from_iter<I: IntoIterator<Item = (&'a str, &'a str)>>(pairs: I) -> TagList {
        let mut list = TagList::default();
        for (name, value) in pairs {
            list.push(name, value);
        }
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_come_back_in_order_empty_ones_too() {
        let pairs = [
            ("Event", "Casual"),
            ("Site", ""),
            ("", "no name"),
            ("White", "Ünal, \"Ö\""),
            ("Event", "again"),
        ];
        let list: TagList = pairs.iter().copied().collect();
        assert_eq!(list.len(), 5);
        assert!(!list.is_empty());
        assert_eq!(list.iter().collect::<Vec<_>>(), pairs.to_vec());
        assert_eq!(list.get("Event"), Some("Casual"));
        assert_eq!(list.get("Site"), Some(""));
        assert_eq!(list.get("Black"), None);
        let owned = list.to_pairs();
        assert_eq!(owned[3], ("White".to_string(), "Ünal, \"Ö\"".to_string()));
        assert!(TagList::default().iter().next().is_none());
    }
}
