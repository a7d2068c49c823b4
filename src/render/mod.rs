//! Board diagrams: any [`Position`] of any variant (boards up to 16x16) as
//! a standalone SVG document.
//!
//! Depends on `rules` only (and on nothing outside the crate); `db`, the
//! command line and the web viewer use it. Each piece is drawn with its
//! own image ([`pieces`]), chosen by the piece's name; a piece of a
//! user-defined variant whose name has no image is drawn as a lettered
//! token. Waiting pawns (R-CS-3..6) carry an hourglass mark; the one-time
//! rights still unused (castlings and their stages, the king's leap, the
//! king's knight move), the checks given where they are counted, the gates
//! and the waiting pawns are listed in a legend under the board; the
//! pieces in hand are drawn in a strip beside it, each kind once with its
//! count.
//!
//! ```
//! use xpgn::render::{Diagram, render_svg};
//! use xpgn::rules::{Position, Variant};
//! let pos = Position::start(Variant::by_name("courier-spiel").unwrap());
//! let svg = render_svg(&pos, &Diagram::default());
//! assert!(svg.starts_with("<svg"));
//! assert!(svg.contains(r#"data-image="fool""#));
//! ```

pub mod pieces;

use std::fmt::Write;

use crate::rules::{Color, Piece, Position, Square, Stage};

/// Side of a square, in SVG user units (the piece images are drawn at it).
const SQ: f32 = 45.0;
/// Room for the rank numbers left of the board and the file letters under it.
const LABEL: f32 = 18.0;
/// Height of one legend line.
const LINE: f32 = 16.0;
/// Width of the strip right of the board where the hands are drawn.
const HAND_W: f32 = SQ + 8.0;

const LIGHT: &str = "#eedcb8";
const DARK: &str = "#b48a63";
const LAST_MOVE: &str = "#e8d44d";
const HIGHLIGHT: &str = "#3a8fd6";
const ARROW: &str = "#1d7a35";

/// The colour of an arrow or a square a game's comment draws (`[%cal
/// Ge2e4]`, `[%csl Rd4]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `R`.
    Red,
    /// `G`.
    Green,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

impl Mark {
    /// The mark of a colour name: `red`, `green`, `yellow`, `blue`.
    pub fn named(name: &str) -> Option<Mark> {
        match name {
            "red" => Some(Mark::Red),
            "green" => Some(Mark::Green),
            "yellow" => Some(Mark::Yellow),
            "blue" => Some(Mark::Blue),
            _ => None,
        }
    }

    /// Its name, as the SVG's `data-color` says it.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Red => "red",
            Mark::Green => "green",
            Mark::Yellow => "yellow",
            Mark::Blue => "blue",
        }
    }
}

/// The colours of a comment's arrows and squares, as lichess draws them.
fn mark_color(mark: Mark) -> &'static str {
    match mark {
        Mark::Red => "#882020",
        Mark::Green => "#15781b",
        Mark::Yellow => "#e68f00",
        Mark::Blue => "#003088",
    }
}
const WAITING: &str = "#c0392b";

/// How to draw a diagram.
///
/// ```
/// use xpgn::render::Diagram;
/// let d = Diagram { flip: true, coordinates: true, ..Diagram::default() };
/// assert!(d.legend);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Black at the bottom.
    pub flip: bool,
    /// File letters and rank numbers beside the board.
    pub coordinates: bool,
    /// Squares to mark with a ring.
    pub highlights: Vec<Square>,
    /// Arrows from one square to another.
    pub arrows: Vec<(Square, Square)>,
    /// Arrows in a colour of their own, as a game's comment draws them
    /// (`[%cal Ge2e4]`, docs/notation.md §14).
    pub colored_arrows: Vec<(Square, Square, Mark)>,
    /// Squares ringed in a colour of their own (`[%csl Gd4]`).
    pub colored_squares: Vec<(Square, Mark)>,
    /// The last move's squares, shaded.
    pub last_move: Option<(Square, Square)>,
    /// Width of the image in pixels (`width` attribute); `None`: 45 per
    /// file, plus the labels.
    pub width: Option<u32>,
    /// The legend of unused one-time rights and waiting pawns.
    pub legend: bool,
}

impl Default for Diagram {
    fn default() -> Diagram {
        Diagram {
            flip: false,
            coordinates: false,
            highlights: Vec::new(),
            arrows: Vec::new(),
            colored_arrows: Vec::new(),
            colored_squares: Vec::new(),
            last_move: None,
            width: None,
            legend: true,
        }
    }
}

/// `text` with `&`, `<`, `>`, `"` and `'` written as entities, fit for XML
/// (and HTML) text and attribute values.
///
/// ```
/// assert_eq!(xpgn::render::escape(r#"<a href="x">"#), "&lt;a href=&quot;x&quot;&gt;");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // XML 1.0 forbids most control characters even as references.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The lines of the legend: castlings still possible (with a first stage
/// done), unused king moves, checks given where they are counted, gates,
/// waiting pawns. Empty when there is nothing to say.
///
/// ```
/// use xpgn::rules::{Position, Variant};
/// let pos = Position::start(Variant::by_name("kings-leap").unwrap());
/// let lines = xpgn::render::legend_lines(&pos);
/// assert!(lines.iter().any(|l| l.contains("the king's leap")));
/// ```
pub fn legend_lines(pos: &Position) -> Vec<String> {
    let variant = pos.variant();
    let mut lines = Vec::new();
    let castling = pos.castling();
    for color in Color::BOTH {
        let sides = pos.castling_sides(color);
        if sides.is_empty() {
            continue;
        }
        let names: Vec<&str> = sides
            .iter()
            .map(|s| match s {
                crate::rules::CastlingSide::Short => "O-O",
                crate::rules::CastlingSide::Long => "O-O-O",
            })
            .collect();
        let mut line = format!(
            "{}: castling {} unused",
            color_name(color),
            names.join(", ")
        );
        let mut stages = Vec::new();
        if let Stage::Staged(sq) = castling.king[color.index()] {
            stages.push(format!("king's first stage to {sq} done"));
        }
        for stage in castling.partners[color.index()] {
            if let Stage::Staged(sq) = stage {
                stages.push(format!("rook's first stage to {sq} done"));
            }
        }
        if !stages.is_empty() {
            line.push_str(&format!(" ({})", stages.join(", ")));
        }
        lines.push(line);
    }
    if let Some(special) = variant.special_king_move() {
        for color in Color::BOTH {
            if pos.king_right(color) {
                lines.push(format!(
                    "{}: {} unused ({})",
                    color_name(color),
                    special.name,
                    special.rule
                ));
            }
        }
    }
    if let Some(limit) = variant.def().check_limit {
        for color in Color::BOTH {
            lines.push(format!(
                "{}: {} of {limit} checks given",
                color_name(color),
                pos.checks_given(color)
            ));
        }
    }
    for color in Color::BOTH {
        let gates = pos.gates(color);
        if !gates.is_empty() {
            let names: Vec<String> = gates.iter().map(|s| s.to_string()).collect();
            lines.push(format!("{}: gates {}", color_name(color), names.join(", ")));
        }
    }
    for w in pos.waiting_pawns() {
        let when = match w.turns {
            0 => "blocked until a piece of its side is lost (R-CS-6)".to_string(),
            1 => format!("promotes with {}'s next move (R-CS-4)", color_name(w.color)),
            n => format!(
                "promotes with {}'s move {n} from now (R-CS-4)",
                color_name(w.color)
            ),
        };
        lines.push(format!(
            "{}: waiting pawn on {}, {when}",
            color_name(w.color),
            w.square
        ));
    }
    lines
}

/// Where the top left corner of `sq` is drawn, in user units.
fn corner(pos: &Position, d: &Diagram, left: f32, sq: Square) -> (f32, f32) {
    let size = pos.variant().size();
    let (col, row) = if d.flip {
        (size.files - 1 - sq.file(), sq.rank())
    } else {
        (sq.file(), size.ranks - 1 - sq.rank())
    };
    (left + f32::from(col) * SQ, f32::from(row) * SQ)
}

/// One piece, drawn at `(x, y)`: on `sq`, or in a hand (`None`).
fn draw_piece(out: &mut String, pos: &Position, sq: Option<Square>, p: Piece, x: f32, y: f32) {
    let def = pos.variant().piece_def(p.kind);
    let (fill, stroke, detail) = match p.color {
        Color::White => ("#ffffff", "#1a1a1a", "#1a1a1a"),
        Color::Black => ("#2b2b2b", "#000000", "#f2f2f2"),
    };
    let image = pieces::image_for(&def.name);
    let shape = image.map_or(pieces::TOKEN, |i| i.shape);
    let color = match p.color {
        Color::White => "white",
        Color::Black => "black",
    };
    // A piece in hand stands on no square: it is not one of the board's.
    let place = sq.map_or(r#"class="in-hand""#.to_string(), |sq| {
        format!(r#"class="piece" data-square="{sq}""#)
    });
    let _ = write!(
        out,
        r#"<g {place} data-piece="{color} {}" data-image="{}" transform="translate({x} {y})"><title>{} {}</title>"#,
        escape(&def.name.to_lowercase()),
        image.map_or("token", |i| i.id),
        color_name(p.color),
        escape(&def.name),
    );
    out.push_str(
        &shape
            .replace("{F}", fill)
            .replace("{S}", stroke)
            .replace("{D}", detail),
    );
    if image.is_none() {
        let _ = write!(
            out,
            r#"<text x="22.5" y="29.5" text-anchor="middle" font-family="sans-serif" font-weight="bold" font-size="19" fill="{detail}">{}</text>"#,
            escape(&def.letter.to_string())
        );
    }
    out.push_str("</g>");
}

/// The diagram of `pos` as a standalone SVG document.
///
/// Every piece is a `<g class="piece">` with `data-square` (`e1`),
/// `data-piece` (`white king`) and `data-image` (the image's id, `token`
/// for a lettered token); every square a `<rect class="square">` with
/// `data-square`; waiting pawns a `<g class="waiting">` mark.
///
/// ```
/// use xpgn::render::{Diagram, render_svg};
/// use xpgn::rules::{Position, Variant};
/// let svg = render_svg(&Position::start(Variant::chess()), &Diagram::default());
/// assert_eq!(svg.matches(r#"class="piece""#).count(), 32);
/// ```
pub fn render_svg(pos: &Position, d: &Diagram) -> String {
    let size = pos.variant().size();
    let left = if d.coordinates { LABEL } else { 0.0 };
    let bottom = if d.coordinates { LABEL } else { 0.0 };
    let board_w = f32::from(size.files) * SQ;
    let board_h = f32::from(size.ranks) * SQ;
    let legend = if d.legend {
        legend_lines(pos)
    } else {
        Vec::new()
    };
    let legend_h = if legend.is_empty() {
        0.0
    } else {
        legend.len() as f32 * LINE + 6.0
    };
    let hands = pos.variant().def().hand.is_some();
    let view_w = left + board_w + if hands { HAND_W } else { 0.0 };
    let view_h = board_h + bottom + legend_h;
    let width = d.width.map_or(view_w, |w| w as f32);
    let height = width * view_h / view_w;
    let mut out = String::with_capacity(16 * 1024);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="xpgn-board" version="1.1" width="{width:.0}" height="{height:.0}" viewBox="0 0 {view_w} {view_h}" data-variant="{}" data-files="{}" data-ranks="{}"><title>{}</title>"#,
        escape(pos.variant().name()),
        size.files,
        size.ranks,
        escape(&pos.variant().def().display_name),
    );
    out.push_str(r#"<g class="squares">"#);
    for sq in size.squares() {
        let (x, y) = corner(pos, d, left, sq);
        let light = (sq.file() + sq.rank()) % 2 == 1;
        let _ = write!(
            out,
            r#"<rect class="square" data-square="{sq}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{}"/>"#,
            if light { LIGHT } else { DARK }
        );
    }
    out.push_str("</g>");
    if let Some((from, to)) = d.last_move {
        out.push_str(r#"<g class="last-move">"#);
        for sq in [from, to] {
            if size.contains(sq) {
                let (x, y) = corner(pos, d, left, sq);
                let _ = write!(
                    out,
                    r#"<rect data-square="{sq}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{LAST_MOVE}" fill-opacity="0.55"/>"#
                );
            }
        }
        out.push_str("</g>");
    }
    if d.coordinates {
        draw_coordinates(&mut out, pos, d, left, board_h);
    }
    out.push_str(r#"<g class="pieces">"#);
    for (sq, p) in pos.pieces() {
        let (x, y) = corner(pos, d, left, sq);
        draw_piece(&mut out, pos, Some(sq), p, x, y);
    }
    out.push_str("</g>");
    draw_waiting(&mut out, pos, d, left);
    draw_marks(&mut out, pos, d, left);
    if hands {
        draw_hands(&mut out, pos, d, left + board_w, board_h);
    }
    if !legend.is_empty() {
        out.push_str(
            r##"<g class="legend" font-family="sans-serif" font-size="11.5" fill="#222">"##,
        );
        for (i, line) in legend.iter().enumerate() {
            let _ = write!(
                out,
                r#"<text x="2" y="{}">{}</text>"#,
                board_h + bottom + 4.0 + LINE * (i as f32 + 0.8),
                escape(line)
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

/// The files' letters under the board and the ranks' numbers left of it.
fn draw_coordinates(out: &mut String, pos: &Position, d: &Diagram, left: f32, board_h: f32) {
    let size = pos.variant().size();
    out.push_str(r##"<g class="coordinates" font-family="sans-serif" font-size="12" fill="#444" text-anchor="middle">"##);
    for f in 0..size.files {
        let (x, _) = corner(pos, d, left, Square::new(f, 0));
        let _ = write!(
            out,
            r#"<text x="{}" y="{}">{}</text>"#,
            x + SQ / 2.0,
            board_h + 13.0,
            (b'a' + f) as char
        );
    }
    for r in 0..size.ranks {
        let (_, y) = corner(pos, d, left, Square::new(0, r));
        let _ = write!(
            out,
            r#"<text x="{}" y="{}">{}</text>"#,
            LABEL / 2.0,
            y + SQ / 2.0 + 4.0,
            r + 1
        );
    }
    out.push_str("</g>");
}

/// A mark on each waiting pawn (R-CS-3): a dashed frame and a sign.
fn draw_waiting(out: &mut String, pos: &Position, d: &Diagram, left: f32) {
    for w in pos.waiting_pawns() {
        let (x, y) = corner(pos, d, left, w.square);
        let _ = write!(
            out,
            r##"<g class="waiting" data-square="{}" data-turns="{}"><rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{WAITING}" stroke-width="2.5" stroke-dasharray="5 3"/><circle cx="{}" cy="{}" r="7" fill="{WAITING}"/><path d="M{} {}h7l-7 8h7z" fill="#fff"/></g>"##,
            w.square,
            w.turns,
            x + 1.5,
            y + 1.5,
            SQ - 3.0,
            SQ - 3.0,
            x + SQ - 8.0,
            y + 8.0,
            x + SQ - 11.5,
            y + 4.0,
        );
    }
}

/// The diagram's highlights, marked squares and arrows, those off the
/// board left out.
fn draw_marks(out: &mut String, pos: &Position, d: &Diagram, left: f32) {
    let size = pos.variant().size();
    for &sq in &d.highlights {
        if size.contains(sq) {
            let (x, y) = corner(pos, d, left, sq);
            let _ = write!(
                out,
                r#"<circle class="highlight" data-square="{sq}" cx="{}" cy="{}" r="{}" fill="none" stroke="{HIGHLIGHT}" stroke-width="3.5" stroke-opacity="0.85"/>"#,
                x + SQ / 2.0,
                y + SQ / 2.0,
                SQ / 2.0 - 3.0
            );
        }
    }
    for &(sq, mark) in &d.colored_squares {
        if size.contains(sq) {
            let (x, y) = corner(pos, d, left, sq);
            let _ = write!(
                out,
                r#"<circle class="mark" data-square="{sq}" data-color="{}" cx="{}" cy="{}" r="{}" fill="none" stroke="{}" stroke-width="4" stroke-opacity="0.8"/>"#,
                mark.name(),
                x + SQ / 2.0,
                y + SQ / 2.0,
                SQ / 2.0 - 3.0,
                mark_color(mark)
            );
        }
    }
    let arrows = d.arrows.iter().map(|&(from, to)| (from, to, ARROW, None));
    let colored = d
        .colored_arrows
        .iter()
        .map(|&(from, to, mark)| (from, to, mark_color(mark), Some(mark.name())));
    for (from, to, color, name) in arrows.chain(colored) {
        if size.contains(from) && size.contains(to) && from != to {
            draw_arrow(
                out,
                (corner(pos, d, left, from), corner(pos, d, left, to)),
                (from, to),
                color,
                name,
            );
        }
    }
}

/// The hands, in a strip right of the board at `x` (docs/notation.md
/// §13): the side at the top of the board holds its pieces at the top,
/// the other at the bottom, each kind once at half size, in two columns,
/// with its count. Each is a `<g class="hand-piece">` with `data-piece`
/// and `data-count`.
fn draw_hands(out: &mut String, pos: &Position, d: &Diagram, x: f32, board_h: f32) {
    let variant = pos.variant();
    let top = if d.flip { Color::White } else { Color::Black };
    let cell = SQ / 2.0;
    let rows = (board_h / 2.0 / cell).floor().max(1.0) as usize;
    out.push_str(r#"<g class="hands">"#);
    for color in [top, top.other()] {
        let held: Vec<(Piece, u8)> = variant
            .kinds()
            .filter_map(|kind| {
                let n = pos.in_hand(color, kind);
                (n > 0).then_some((Piece { color, kind }, n))
            })
            .collect();
        let _ = write!(
            out,
            r#"<g class="hand" data-color="{}" data-pieces="{}">"#,
            color_name(color).to_lowercase(),
            held.iter().map(|&(_, n)| u32::from(n)).sum::<u32>()
        );
        for (i, &(p, n)) in held.iter().enumerate() {
            let (col, row) = ((i / rows) as f32, (i % rows) as f32);
            let cx = x + 4.0 + col * cell;
            let cy = if color == top {
                row * cell
            } else {
                board_h - (row + 1.0) * cell
            };
            let name = variant.piece_def(p.kind).name.to_lowercase();
            let _ = write!(
                out,
                r#"<g class="hand-piece" data-piece="{} {}" data-count="{n}" transform="translate({cx} {cy}) scale(0.5)">"#,
                color_name(color).to_lowercase(),
                escape(&name)
            );
            draw_piece(out, pos, None, p, 0.0, 0.0);
            let _ = write!(
                out,
                r##"<text x="40" y="44" text-anchor="end" font-family="sans-serif" font-weight="bold" font-size="24" fill="#c0392b">{n}</text></g>"##
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</g>");
}

/// An arrow between the centres of two squares (corners given), in
/// `color` (and named by its mark's colour, for a comment's arrow).
fn draw_arrow(
    out: &mut String,
    (a, b): ((f32, f32), (f32, f32)),
    (from, to): (Square, Square),
    color: &str,
    name: Option<&str>,
) {
    let (x1, y1) = (a.0 + SQ / 2.0, a.1 + SQ / 2.0);
    let (x2, y2) = (b.0 + SQ / 2.0, b.1 + SQ / 2.0);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / len, dy / len);
    let head = 14.0_f32.min(len / 2.0);
    let (bx, by) = (x2 - ux * head, y2 - uy * head);
    let (px, py) = (-uy * head * 0.55, ux * head * 0.55);
    let _ = write!(
        out,
        r#"<g class="arrow" data-from="{from}" data-to="{to}"{} fill="{color}" stroke="{color}" opacity="0.8"><line x1="{x1}" y1="{y1}" x2="{bx}" y2="{by}" stroke-width="6" stroke-linecap="round"/><path d="M{x2} {y2}L{} {}L{} {}z" stroke="none"/></g>"#,
        name.map_or(String::new(), |n| format!(r#" data-color="{n}""#)),
        bx + px,
        by + py,
        bx - px,
        by - py
    );
}

/// Every piece of `variant`, White's in one row and Black's under it,
/// as an SVG a board editor picks from: each a `<g class="palette-piece">`
/// with `data-letter` (its letter in position strings) and `data-piece`
/// (`white knight`), holding the piece drawn as on a board.
///
/// ```
/// use xpgn::rules::Variant;
/// let svg = xpgn::render::render_palette(&Variant::by_name("counsellor").unwrap());
/// assert!(svg.contains(r#"data-letter="C" data-piece="white counsellor""#));
/// assert!(svg.contains(r#"data-letter="e" data-piece="black elephant""#));
/// ```
pub fn render_palette(variant: &crate::rules::Variant) -> String {
    let pos = Position::start(variant.clone());
    let kinds: Vec<_> = variant.kinds().collect();
    let width = kinds.len().max(1) as f32 * SQ;
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="xpgn-palette" version="1.1" width="{width}" height="{}" viewBox="0 0 {width} {}"><title>pieces</title>"#,
        SQ * 2.0,
        SQ * 2.0
    );
    for (row, color) in Color::BOTH.into_iter().enumerate() {
        for (col, &kind) in kinds.iter().enumerate() {
            let def = variant.piece_def(kind);
            let letter = match color {
                Color::White => def.letter.to_ascii_uppercase(),
                Color::Black => def.letter.to_ascii_lowercase(),
            };
            let _ = write!(
                out,
                r#"<g class="palette-piece" data-letter="{}" data-piece="{} {}" role="button" aria-label="{} {}">"#,
                escape(&letter.to_string()),
                color_name(color).to_lowercase(),
                escape(&def.name.to_lowercase()),
                color_name(color),
                escape(&def.name),
            );
            let (x, y) = (col as f32 * SQ, row as f32 * SQ);
            let _ = write!(
                out,
                r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{LIGHT}"/>"#
            );
            draw_piece(&mut out, &pos, None, Piece { color, kind }, x, y);
            out.push_str("</g>");
        }
    }
    out.push_str("</svg>");
    out
}
