//! The piece images: simple SVG shapes drawn for this project (MIT OR
//! Apache-2.0 like the rest of it), one per piece type of the built-in
//! variants (of Fairy-Stockfish's built-ins, the pieces named as one of
//! these: its alfil is the elephant, its fers the firzan; its archbishop,
//! amazon, centaur and other compound pieces have none yet), each in a
//! 45 x 45 box with its foot at the bottom.
//!
//! An image is chosen by the piece's name in its variant definition
//! (case-blind): `Elephant` is drawn as an elephant in every variant that
//! has one. A name this table does not know (a user-defined variant's
//! piece) is drawn as a lettered token.
//!
//! Every shape is written with three colours, substituted when drawn: `{F}`
//! the body, `{S}` the outline, `{D}` inner details (dark on a white
//! piece, light on a black one).

/// One piece image.
#[derive(Clone, Copy, Debug)]
pub struct PieceImage {
    /// The image's own name (`elephant`), written into the SVG as
    /// `data-image` so programs and tests can tell the images apart.
    pub id: &'static str,
    /// The piece names it draws, lower case.
    pub names: &'static [&'static str],
    /// SVG elements in a 45 x 45 box, with `{F}`, `{S}` and `{D}` for
    /// the colours.
    pub shape: &'static str,
}

/// Puts the plinth most pieces stand on under a shape.
macro_rules! with_base {
    ($body:expr) => {
        concat!(
            r#"<path d="M9.5 39.5h26v-3.5h-26z" fill="{F}" stroke="{S}" stroke-width="1.5" stroke-linejoin="round"/>"#,
            $body
        )
    };
}

/// Every image, in no particular order.
pub const IMAGES: &[PieceImage] = &[
    PieceImage {
        id: "king",
        names: &["king"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M12 32.5C7 25 11 17.5 17 20c1.5-3 3.5-4.5 5.5-4.5s4 1.5 5.5 4.5c6-2.5 10 5 5 12.5z"/><path d="M11.5 36v-3.5h22V36z"/><path d="M22.5 5.5v10M18.5 9.5h8" fill="none" stroke-width="2.5" stroke-linecap="round"/></g><path d="M22.5 18v13M14 27h17" fill="none" stroke="{D}" stroke-width="1"/>"#
        ),
    },
    PieceImage {
        id: "queen",
        names: &["queen"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M11 31.5 8.5 15l7 9 2-13 5 12 5-12 2 13 7-9-2.5 16.5z"/><path d="M11 36v-4.5h23V36z"/><circle cx="8.5" cy="13.5" r="2.2"/><circle cx="17.5" cy="9.5" r="2.2"/><circle cx="27.5" cy="9.5" r="2.2"/><circle cx="36.5" cy="13.5" r="2.2"/><circle cx="22.5" cy="20" r="1.8"/></g><path d="M12.5 29h20" stroke="{D}" stroke-width="1"/>"#
        ),
    },
    PieceImage {
        id: "rook",
        names: &["rook", "rookni"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M11.5 36v-3.5h22V36z"/><path d="M14 32.5 15 17h15l1 15.5z"/><path d="M11.5 17V9h4.5v3.5h4V9h5v3.5h4V9h4.5v8z"/></g><path d="M15.5 21h14M15 28h15" stroke="{D}" stroke-width="1"/>"#
        ),
    },
    PieceImage {
        id: "bishop",
        names: &["bishop", "biskni"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M22.5 11C15 17 13.5 24 16.5 30h12c3-6 1.5-13-6-19z"/><path d="M14 36v-6h17v6z"/><circle cx="22.5" cy="8.5" r="2.6"/></g><path d="M25.5 16.5l-5 7M19 33h7" stroke="{D}" stroke-width="1.5" stroke-linecap="round"/>"#
        ),
    },
    PieceImage {
        id: "knight",
        names: &["knight", "knibis", "kniroo"],
        shape: with_base!(
            r#"<path d="M14 36v-4c0-5 3-7.5 7-10-2.5.5-5.5 1.5-8 2.5-2 .8-4.5-.5-4.5-3 0-2 1-3.5 3-5.5l6.5-6.5.5-4 3 3c8 0 14 6 14 15.5 0 4.5-.5 8.5-1.5 12z" fill="{F}" stroke="{S}" stroke-width="1.5" stroke-linejoin="round"/><circle cx="18.5" cy="15.5" r="1.4" fill="{D}"/><path d="M11 22.5h1.5M26 14c3 3 4.5 8 4 14" fill="none" stroke="{D}" stroke-width="1" stroke-linecap="round"/>"#
        ),
    },
    PieceImage {
        id: "pawn",
        names: &["pawn"],
        shape: with_base!(
            r#"<path d="M22.5 10a4.5 4.5 0 0 0-3 7.9c-2 1.3-3.2 3.4-3.2 5.8 0 2 .9 3.8 2.3 5-3.5 1.6-6.1 4.4-6.6 7.3h21c-.5-2.9-3.1-5.7-6.6-7.3 1.4-1.2 2.3-3 2.3-5 0-2.4-1.2-4.5-3.2-5.8a4.5 4.5 0 0 0-3-7.9z" fill="{F}" stroke="{S}" stroke-width="1.5" stroke-linejoin="round"/>"#
        ),
    },
    PieceImage {
        id: "elephant",
        names: &["elephant", "alfil", "khon"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M16.5 13C9 6.5 3.5 13 5 20.5c.8 4 4 6.5 8 6.5l3.5-4z"/><path d="M28.5 13c7.5-6.5 13 0 11.5 7.5-.8 4-4 6.5-8 6.5l-3.5-4z"/><path d="M22.5 7c-5 0-8 4-8 9 0 4 1.5 7 4.5 8.5v5c0 3-2 4.5-4 4.5 0 1.5 1 2 2.5 2 4 0 6.5-3 6.5-7v-4.5c3-1.5 4.5-4.5 4.5-8.5 0-5-1-9-6-9z"/></g><path d="M19.5 25c-1.5 1-3 1.3-4.5 1M25.5 25c1.5 1 3 1.3 4.5 1" fill="none" stroke="{D}" stroke-width="1.3" stroke-linecap="round"/><circle cx="19.3" cy="15.5" r="1.2" fill="{D}"/><circle cx="25.7" cy="15.5" r="1.2" fill="{D}"/>"#
        ),
    },
    PieceImage {
        // Counsellor Chess: a scholar in a square cap.
        id: "counsellor",
        names: &["counsellor"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M10.5 36c0-8 5-12.5 12-12.5s12 4.5 12 12.5z"/><circle cx="22.5" cy="17" r="5.5"/><path d="M11 11 22.5 6 34 11l-11.5 4.5z"/></g><path d="M31 12v7" stroke="{S}" stroke-width="1.5"/><circle cx="31" cy="20" r="1.5" fill="{S}"/><path d="M22.5 24.5v11M18 28l4.5 3 4.5-3" fill="none" stroke="{D}" stroke-width="1"/>"#
        ),
    },
    PieceImage {
        // Royal Chess Firzan and the Chaturanga Councelor, one square
        // diagonally: a vizier in a turban.
        id: "firzan",
        names: &["firzan", "councelor", "ferz", "fers", "met"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M14.5 36l2-10h12l2 10z"/><path d="M11.5 26c0-9 4.5-14 11-14s11 5 11 14z"/><path d="M22.5 12c-1-3 0-5.5 2.5-7-1 2 0 3.5 1.5 4.5-1 1-2.5 2-4 2.5z"/></g><path d="M13 21.5c6 2.5 13 2.5 19 0M12 25c7-4 14-4 21 0M16 16c4 2 9 2 13 0" fill="none" stroke="{D}" stroke-width="1"/><circle cx="22.5" cy="31" r="1.3" fill="{D}"/>"#
        ),
    },
    PieceImage {
        // Chaturanga's rook: a chariot with a wheel and a pennant.
        id: "chariot",
        names: &["chariot"],
        shape: r#"<path d="M6 39.5h33" stroke="{S}" stroke-width="1.5"/><g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M8.5 15h28l-3 11h-22z"/><circle cx="22.5" cy="30.5" r="8"/><path d="M29.5 15V5l6 2.5-6 2.5"/></g><path d="M22.5 22.5v16M14.5 30.5h16M17 25l11 11M28 25 17 36" stroke="{D}" stroke-width="1"/><circle cx="22.5" cy="30.5" r="2" fill="{S}"/><path d="M11 19h23" stroke="{D}" stroke-width="1"/>"#,
    },
    PieceImage {
        // Courier-Spiel Courier (an orthodox bishop's move): a messenger
        // with a winged cap.
        id: "courier",
        names: &["courier"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M14 36l4-10h9l4 10z"/><circle cx="22.5" cy="19.5" r="6.5"/><path d="M16 16.5 5 8.5l3 5.5-4.5 1 5.5 3-3 3.5 10-1z"/><path d="M29 16.5l11-8-3 5.5 4.5 1-5.5 3 3 3.5-10-1z"/><path d="M16 18c0-5 3-7.5 6.5-7.5S29 13 29 18z"/></g><path d="M18.5 30h8" stroke="{D}" stroke-width="1"/>"#
        ),
    },
    PieceImage {
        // Courier-Spiel Councillor (the "Mann"): a man in a broad hat.
        id: "councillor",
        names: &["councillor", "mann", "man", "commoner"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M10.5 36c0-8 5-12 12-12s12 4 12 12z"/><circle cx="22.5" cy="18" r="5.5"/><path d="M17.5 13.5c0-4 2-6.5 5-6.5s5 2.5 5 6.5z"/><ellipse cx="22.5" cy="13.5" rx="11" ry="2.2"/></g><path d="M17 28.5h11M22.5 24v12" stroke="{D}" stroke-width="1"/><circle cx="22.5" cy="31.5" r="1" fill="{D}"/>"#
        ),
    },
    PieceImage {
        // Courier-Spiel Fool: a jester's cap with three bells.
        id: "fool",
        names: &["fool"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M12.5 36l3-5 3.5 3 3.5-3.5 3.5 3.5 3.5-3 3 5z"/><circle cx="22.5" cy="25" r="5.5"/><path d="M14 21c-1-4-4-6-8-6 4-1 8 0 10 2 0-5 3-9 6.5-10 3.5 1 6.5 5 6.5 10 2-2 6-3 10-2-4 0-7 2-8 6z"/><circle cx="6" cy="15" r="2.2"/><circle cx="22.5" cy="6.5" r="2.2"/><circle cx="39" cy="15" r="2.2"/></g><path d="M20 26.5c1.5 1.5 3.5 1.5 5 0" fill="none" stroke="{D}" stroke-width="1" stroke-linecap="round"/>"#
        ),
    },
    PieceImage {
        // Chancellor (rook and knight): a tower crowned with a horse's head.
        id: "chancellor",
        names: &["chancellor", "marshal", "empress"],
        shape: with_base!(
            r#"<g stroke="{S}" stroke-width="1.5" stroke-linejoin="round" fill="{F}"><path d="M12 36l1.5-12h18L33 36z"/><path d="M10.5 24v-6h4v2.5h4V18h8v2.5h4V18h4v6z"/><path d="M17.5 18c0-3 2-5 5-6.5-2 0-4 .5-5.5 1-1.5.5-3-.5-2.5-2 .5-1.5 2.5-3 4.5-4.5l.5-2.5 2 2c5.5.5 8.5 5 8 12.5z"/></g><circle cx="19.5" cy="9" r="1" fill="{D}"/><path d="M14.5 29h16" stroke="{D}" stroke-width="1"/>"#
        ),
    },
];

/// The image for a piece called `name` (case-blind), if the table has one.
pub fn image_for(name: &str) -> Option<&'static PieceImage> {
    let name = name.to_lowercase();
    IMAGES.iter().find(|i| i.names.contains(&name.as_str()))
}

/// The lettered token drawn for a piece without an image.
pub(crate) const TOKEN: &str = r#"<circle cx="22.5" cy="22.5" r="17" fill="{F}" stroke="{S}" stroke-width="2"/><circle cx="22.5" cy="22.5" r="13.5" fill="none" stroke="{D}" stroke-width="1"/>"#;
