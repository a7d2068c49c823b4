//! Compiles a [`VariantDef`] into lookup tables for the move generator.

use super::{
    CastlingDef, CastlingSafety, CastlingSide, PromotionRule, Role, VariantDef, VariantDefError,
};
use crate::rules::castling::MAX_PARTNERS;
use crate::rules::geometry::{BoardSize, SQUARE_SPACE, Square};
use crate::rules::movement::{Atom, Mode};
use crate::rules::piece::{Color, PieceKind};
use crate::rules::square_set::SquareSet;

/// A slice of a flat square table: start and length.
#[derive(Clone, Copy, Default)]
pub(crate) struct Span {
    start: u32,
    len: u32,
}

/// One castling, compiled.
pub(crate) struct CompiledCastling {
    pub index: u8,
    pub king_from: Square,
    pub king_to: Square,
    /// Index of the partner among `color`'s partners.
    pub partner: u8,
    pub partner_from: Square,
    /// The partner's type.
    pub partner_kind: PieceKind,
    /// The king's required stage: `None` = never moved, `Some(sq)` = its only move went to `sq`.
    pub king_stage: Option<Square>,
    /// The partner's required stage, likewise.
    pub partner_stage: Option<Square>,
    /// Squares that must be empty (other than king and partner).
    pub empty: Vec<Square>,
    /// Squares that must not be attacked.
    pub safe: Vec<Square>,
}

pub(crate) struct Tables {
    pub def: VariantDef,
    pub size: BoardSize,
    pub king: PieceKind,
    pub pawn: PieceKind,
    pub kind_count: usize,
    pub king_origin: [Square; 2],
    pub setup_counts: [[u8; 16]; 2],
    leap_flat: Vec<Square>,
    leap_span: Vec<Span>,
    /// Per colour, per kind: (direction index, maximum steps, mode).
    pub rides: [Vec<Vec<(u8, u8, Mode)>>; 2],
    pub dirs: Vec<(i8, i8)>,
    pub reverse: Vec<u8>,
    ray_flat: Vec<Square>,
    ray_span: Vec<Span>,
    /// Per direction, per distance 0..=16: kinds riding that way at least that far.
    /// Per colour; only rides that capture (attack).
    pub ride_mask: [Vec<[u16; 17]>; 2],
    /// Per square: the squares a leaper could attack it from, with the kinds that can.
    leap_attack_flat: Vec<(Square, u16)>,
    leap_attack_span: Vec<Span>,
    /// Per colour: (file, rank) step of a pawn push, and its two captures.
    pub pawn_push: [i8; 2],
    /// Per colour: ranks (bit per rank) a pawn may double-step from.
    pub double_step: [u16; 2],
    /// Per colour: ranks (bit per rank) where pawns promote.
    pub promotion_zone: [u16; 2],
    pub last_rank: [u8; 2],
    /// Promotion by arrival square (R-CH-4), per colour and file.
    pub promote_on: [[Option<PieceKind>; 16]; 2],
    pub castlings: [Vec<CompiledCastling>; 2],
    /// Per colour: castling partners' setup squares.
    pub partners: [Vec<Square>; 2],
    /// Per colour: the partners' types, in the order of `partners`.
    pub partner_kinds: [Vec<PieceKind>; 2],
    pub has_stages: bool,
    pub special_attacks: Vec<(i8, i8)>,
    /// Kinds that have leaps (bit per kind).
    pub leapers: u16,
    /// Per offset (file, rank) in -15..=15: the rider direction it lies
    /// along, as [`Line`].
    lines: Vec<Line>,
}

/// How two squares lie for riders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// No rider direction joins them.
    None,
    /// Direction `dir` joins them, `steps` steps apart.
    Along { dir: u8, steps: u8 },
    /// Several directions join them (say, one step of two squares and one
    /// of one): callers fall back to a full test.
    Several,
}

fn line_index(df: i8, dr: i8) -> usize {
    (df + 15) as usize * 31 + (dr + 15) as usize
}

fn rank_bits(ranks: &[u8], map: impl Fn(u8) -> u8) -> u16 {
    ranks
        .iter()
        .filter(|&&r| r < 16)
        .fold(0, |bits, &r| bits | 1 << map(r))
}

fn mode_index(mode: Mode) -> usize {
    match mode {
        Mode::Any => 0,
        Mode::MoveOnly => 1,
        Mode::CaptureOnly => 2,
    }
}

fn leap_index(color: usize, mode: usize, kinds: usize, kind: usize, sq: Square) -> usize {
    ((color * 3 + mode) * kinds + kind) * SQUARE_SPACE + sq.index()
}

fn push_span(flat: &mut Vec<Square>, items: impl IntoIterator<Item = Square>) -> Span {
    let start = flat.len() as u32;
    flat.extend(items);
    Span {
        start,
        len: flat.len() as u32 - start,
    }
}

impl Tables {
    pub fn build(mut def: VariantDef) -> Result<Tables, VariantDefError> {
        let n = def.pieces.len();
        if n == 0 || n > 15 {
            return Err(VariantDefError::PieceCount(n));
        }
        let role = |r: Role| def.pieces.iter().filter(|p| p.role == r).count();
        if role(Role::King) != 1 || role(Role::Pawn) != 1 {
            return Err(VariantDefError::Roles);
        }
        for (i, p) in def.pieces.iter().enumerate() {
            if def.pieces[..i].iter().any(|q| q.letter == p.letter) {
                return Err(VariantDefError::DuplicateLetter(p.letter));
            }
        }
        let king = PieceKind(
            def.pieces
                .iter()
                .position(|p| p.role == Role::King)
                .unwrap_or(0) as u8,
        );
        let pawn = PieceKind(
            def.pieces
                .iter()
                .position(|p| p.role == Role::Pawn)
                .unwrap_or(0) as u8,
        );
        let size = def.size;

        let mut seen = SquareSet::EMPTY;
        let mut king_origin = [None, None];
        let mut setup_counts = [[0u8; 16]; 2];
        for &(sq, p) in &def.setup {
            if !size.contains(sq) || seen.contains(sq) || p.kind.index() >= n {
                return Err(VariantDefError::BadSetupSquare(sq));
            }
            seen.insert(sq);
            setup_counts[p.color.index()][p.kind.index()] += 1;
            if p.kind == king {
                if king_origin[p.color.index()].is_some() {
                    return Err(VariantDefError::SetupKings);
                }
                king_origin[p.color.index()] = Some(sq);
            }
        }
        let (Some(wk), Some(bk)) = (king_origin[0], king_origin[1]) else {
            return Err(VariantDefError::SetupKings);
        };
        let king_origin = [wk, bk];

        // Directions: every rider direction (both colours' views) and its reverse.
        let mut dirs: Vec<(i8, i8)> = Vec::new();
        for p in &def.pieces {
            for atom in &p.movement.0 {
                let bad = |o: &[(i8, i8)]| {
                    o.iter()
                        .any(|&(f, r)| (f, r) == (0, 0) || f.abs() > 15 || r.abs() > 15)
                };
                match atom {
                    Atom::Ride { directions, .. } => {
                        if bad(directions) {
                            return Err(VariantDefError::BadOffset(p.name));
                        }
                        for &(df, dr) in directions {
                            for d in [(df, dr), (-df, -dr), (df, -dr), (-df, dr)] {
                                if !dirs.contains(&d) {
                                    dirs.push(d);
                                }
                            }
                        }
                    }
                    Atom::Leap { offsets, .. } => {
                        if bad(offsets) {
                            return Err(VariantDefError::BadOffset(p.name));
                        }
                    }
                }
            }
        }
        let reverse = dirs
            .iter()
            .map(|&(f, r)| dirs.iter().position(|&d| d == (-f, -r)).unwrap_or(0) as u8)
            .collect();

        let mut lines = vec![Line::None; 31 * 31];
        for df in -15i8..=15 {
            for dr in -15i8..=15 {
                let mut found = Line::None;
                for (d, &(f, r)) in dirs.iter().enumerate() {
                    let steps = (1..=15i16).find(|&k| {
                        (i16::from(f) * k, i16::from(r) * k) == (i16::from(df), i16::from(dr))
                    });
                    if let Some(k) = steps {
                        found = match found {
                            Line::None => Line::Along {
                                dir: d as u8,
                                steps: k as u8,
                            },
                            _ => Line::Several,
                        };
                    }
                }
                lines[line_index(df, dr)] = found;
            }
        }

        let mut ray_flat = Vec::new();
        let mut ray_span = vec![Span::default(); dirs.len() * SQUARE_SPACE];
        for (d, &(df, dr)) in dirs.iter().enumerate() {
            for sq in size.squares() {
                let mut ray = Vec::new();
                let mut cur = sq;
                while let Some(next) = size.offset(cur, df, dr) {
                    ray.push(next);
                    cur = next;
                }
                ray_span[d * SQUARE_SPACE + sq.index()] = push_span(&mut ray_flat, ray);
            }
        }

        let mut leap_flat = Vec::new();
        let mut leap_span = vec![Span::default(); 2 * 3 * n * SQUARE_SPACE];
        let mut rides = [vec![Vec::new(); n], vec![Vec::new(); n]];
        let mut ride_mask = [vec![[0u16; 17]; dirs.len()], vec![[0u16; 17]; dirs.len()]];
        // Per colour, per square: who attacks it by a leap (captures), and
        // who may move to it by a leap when it is empty.
        let mut leap_attackers: [Vec<Vec<(Square, u16)>>; 2] = [
            vec![Vec::new(); SQUARE_SPACE],
            vec![Vec::new(); SQUARE_SPACE],
        ];
        let mut leap_movers: [Vec<Vec<(Square, u16)>>; 2] = [
            vec![Vec::new(); SQUARE_SPACE],
            vec![Vec::new(); SQUARE_SPACE],
        ];
        let mut leapers = 0u16;
        for (k, p) in def.pieces.iter().enumerate() {
            if p.role == Role::Pawn {
                continue;
            }
            if p.movement
                .0
                .iter()
                .any(|a| matches!(a, Atom::Leap { offsets, .. } if !offsets.is_empty()))
            {
                leapers |= 1 << k;
            }
            for ci in 0..2 {
                // Black sees White's offsets mirrored in rank.
                let view = |(f, r): (i8, i8)| if ci == 0 { (f, r) } else { (f, -r) };
                let mut offsets: [Vec<(i8, i8)>; 3] = [Vec::new(), Vec::new(), Vec::new()];
                for atom in &p.movement.0 {
                    match atom {
                        Atom::Leap { offsets: o, mode } => {
                            let list = &mut offsets[mode_index(*mode)];
                            for &off in o {
                                let off = view(off);
                                if !list.contains(&off) {
                                    list.push(off);
                                }
                            }
                        }
                        Atom::Ride {
                            directions,
                            max,
                            mode,
                        } => {
                            let max = max.unwrap_or(15).min(15);
                            for &d in directions {
                                let d = view(d);
                                let di = dirs.iter().position(|x| *x == d).unwrap_or(0) as u8;
                                rides[ci][k].push((di, max, *mode));
                                if mode.captures() {
                                    for mask in &mut ride_mask[ci][di as usize][1..=max as usize] {
                                        *mask |= 1 << k;
                                    }
                                }
                            }
                        }
                    }
                }
                for (mi, list) in offsets.iter().enumerate() {
                    for sq in size.squares() {
                        let targets: Vec<Square> = list
                            .iter()
                            .filter_map(|&(f, r)| size.offset(sq, f, r))
                            .collect();
                        for &t in &targets {
                            let note = |table: &mut Vec<Vec<(Square, u16)>>| {
                                let list = &mut table[t.index()];
                                match list.iter_mut().find(|(s, _)| *s == sq) {
                                    Some(entry) => entry.1 |= 1 << k,
                                    None => list.push((sq, 1 << k)),
                                }
                            };
                            if mi != 1 {
                                note(&mut leap_attackers[ci]);
                            }
                            if mi != 2 {
                                note(&mut leap_movers[ci]);
                            }
                        }
                        leap_span[leap_index(ci, mi, n, k, sq)] =
                            push_span(&mut leap_flat, targets);
                    }
                }
            }
        }
        let mut leap_attack_flat = Vec::new();
        let mut leap_attack_span = vec![Span::default(); 4 * SQUARE_SPACE];
        for (t, table) in leap_attackers.into_iter().chain(leap_movers).enumerate() {
            for (i, list) in table.into_iter().enumerate() {
                let start = leap_attack_flat.len() as u32;
                leap_attack_flat.extend(list);
                leap_attack_span[t * SQUARE_SPACE + i] = Span {
                    start,
                    len: leap_attack_flat.len() as u32 - start,
                };
            }
        }

        let top = size.ranks - 1;
        let zone: Vec<u8> = if def.pawns.promotion_ranks.is_empty() {
            vec![top]
        } else {
            def.pawns.promotion_ranks.clone()
        };
        let mut promote_on = [[None; 16]; 2];
        if let PromotionRule::SetupSquare { on_king_square } = def.pawns.promotion {
            for &(sq, p) in &def.setup {
                // A pawn of the other colour arriving here takes this type.
                let arriving = p.color.other();
                if sq.rank() == [top, 0][arriving.index()] {
                    promote_on[arriving.index()][sq.file() as usize] = Some(if p.kind == king {
                        on_king_square
                    } else {
                        p.kind
                    });
                }
            }
        }

        if let Some(free) = &def.free_castling {
            let files = size.files;
            if usize::from(files) * usize::from(files - 1) * 2 + def.castling.len() > 255 {
                return Err(VariantDefError::TooManyCastlings);
            }
            for color in [Color::White, Color::Black] {
                let rank = king_origin[color.index()].rank();
                for kf in 0..files {
                    for pf in (0..files).filter(|&f| f != kf) {
                        let (side, i) = if pf > kf {
                            (CastlingSide::Short, 0)
                        } else {
                            (CastlingSide::Long, 1)
                        };
                        def.castling.push(CastlingDef {
                            color,
                            side,
                            king_from: Square::new(kf, rank),
                            king_to: Square::new(free.king_files[i], rank),
                            partner_origin: Square::new(pf, rank),
                            partner_from: Square::new(pf, rank),
                            partner_to: Square::new(free.partner_files[i], rank),
                            safety: CastlingSafety::KingPath,
                            rule: free.rule,
                        });
                    }
                }
            }
        }
        let free_from = def.castling.len()
            - def.free_castling.as_ref().map_or(0, |_| {
                usize::from(size.files) * usize::from(size.files - 1) * 2
            });
        let mut partners: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
        let mut partner_kinds: [Vec<PieceKind>; 2] = [Vec::new(), Vec::new()];
        let mut castlings: [Vec<CompiledCastling>; 2] = [Vec::new(), Vec::new()];
        let mut has_stages = false;
        let occupant = |sq: Square| def.setup.iter().find(|(s, _)| *s == sq).map(|(_, p)| *p);
        for (index, c) in def.castling.iter().enumerate() {
            let ci = c.color.index();
            let origin = king_origin[ci];
            let partner_kind = match (&def.free_castling, occupant(c.partner_origin)) {
                (Some(free), _) if index >= free_from => free.partner,
                (_, Some(p)) if p.color == c.color && p.kind != king && p.kind != pawn => p.kind,
                _ => return Err(VariantDefError::BadCastling(c.rule)),
            };
            let on_back_rank = |s: Square| size.contains(s) && s.rank() == origin.rank();
            if ![c.king_from, c.king_to, c.partner_from, c.partner_to]
                .into_iter()
                .all(on_back_rank)
            {
                return Err(VariantDefError::BadCastling(c.rule));
            }
            let partner = match partners[ci].iter().position(|&s| s == c.partner_origin) {
                Some(i) => i,
                None => {
                    if partners[ci].len() == MAX_PARTNERS {
                        return Err(VariantDefError::BadCastling(c.rule));
                    }
                    partners[ci].push(c.partner_origin);
                    partner_kinds[ci].push(partner_kind);
                    partners[ci].len() - 1
                }
            };
            let free = index >= free_from;
            let king_stage = (c.king_from != origin && !free).then_some(c.king_from);
            let partner_stage = (c.partner_from != c.partner_origin).then_some(c.partner_from);
            has_stages |= king_stage.is_some() || partner_stage.is_some();
            let (empty, safe) = castling_squares(c);
            castlings[ci].push(CompiledCastling {
                index: index as u8,
                king_from: c.king_from,
                king_to: c.king_to,
                partner: partner as u8,
                partner_from: c.partner_from,
                partner_kind,
                king_stage,
                partner_stage,
                empty,
                safe,
            });
        }

        let special_attacks = def
            .special_king_move
            .as_ref()
            .filter(|s| s.attacks_while_unused)
            .map(|s| s.offsets.clone())
            .unwrap_or_default();

        Ok(Tables {
            size,
            king,
            pawn,
            kind_count: n,
            king_origin,
            setup_counts,
            leap_flat,
            leap_span,
            rides,
            dirs,
            reverse,
            ray_flat,
            ray_span,
            ride_mask,
            leap_attack_flat,
            leap_attack_span,
            pawn_push: [1, -1],
            double_step: [
                rank_bits(&def.pawns.double_step_ranks, |r| r),
                rank_bits(&def.pawns.double_step_ranks, |r| top - r),
            ],
            promotion_zone: [rank_bits(&zone, |r| r), rank_bits(&zone, |r| top - r)],
            last_rank: [top, 0],
            promote_on,
            castlings,
            partners,
            partner_kinds,
            has_stages,
            special_attacks,
            leapers,
            lines,
            def,
        })
    }

    /// How `to` lies from `from` for riders.
    #[inline]
    pub fn line(&self, from: Square, to: Square) -> Line {
        let df = to.file() as i8 - from.file() as i8;
        let dr = to.rank() as i8 - from.rank() as i8;
        self.lines[line_index(df, dr)]
    }

    /// Squares `color`'s kind `k` leaps to from `sq`, moving or capturing.
    #[inline]
    pub fn leaps(&self, color: Color, k: PieceKind, sq: Square) -> &[Square] {
        self.leaps_mode(color, Mode::Any, k, sq)
    }

    /// Squares `color`'s kind `k` leaps to from `sq` with atoms of `mode`.
    #[inline]
    pub fn leaps_mode(&self, color: Color, mode: Mode, k: PieceKind, sq: Square) -> &[Square] {
        let s = self.leap_span[leap_index(
            color.index(),
            mode_index(mode),
            self.kind_count,
            k.index(),
            sq,
        )];
        &self.leap_flat[s.start as usize..(s.start + s.len) as usize]
    }

    /// Squares from `sq` to the edge in direction `d`.
    #[inline]
    pub fn ray(&self, d: u8, sq: Square) -> &[Square] {
        let s = self.ray_span[d as usize * SQUARE_SPACE + sq.index()];
        &self.ray_flat[s.start as usize..(s.start + s.len) as usize]
    }

    /// Squares a leaper of `color` may attack `sq` from, with the kinds that can.
    #[inline]
    pub fn leap_attackers(&self, color: Color, sq: Square) -> &[(Square, u16)] {
        let s = self.leap_attack_span[color.index() * SQUARE_SPACE + sq.index()];
        &self.leap_attack_flat[s.start as usize..(s.start + s.len) as usize]
    }

    /// Squares a leaper of `color` may move to the empty `sq` from, with the
    /// kinds that can.
    #[inline]
    pub fn leap_movers(&self, color: Color, sq: Square) -> &[(Square, u16)] {
        let s = self.leap_attack_span[(2 + color.index()) * SQUARE_SPACE + sq.index()];
        &self.leap_attack_flat[s.start as usize..(s.start + s.len) as usize]
    }
}

/// The squares that must be empty and those that must be safe (R-0-5, R-CS-2).
fn castling_squares(c: &CastlingDef) -> (Vec<Square>, Vec<Square>) {
    let rank = c.king_from.rank();
    let span = |a: Square, b: Square| {
        let (lo, hi) = (a.file().min(b.file()), a.file().max(b.file()));
        (lo..=hi).map(move |f| Square::new(f, rank))
    };
    let mut empty: Vec<Square> = span(c.king_from, c.king_to)
        .chain(span(c.partner_from, c.partner_to))
        .filter(|&s| s != c.king_from && s != c.partner_from)
        .collect();
    empty.sort();
    empty.dedup();
    let mut safe: Vec<Square> = match c.safety {
        CastlingSafety::KingPath => span(c.king_from, c.king_to).collect(),
        CastlingSafety::PartnerToKing => span(c.partner_from, c.king_from)
            .chain(span(c.king_from, c.king_to))
            .collect(),
    };
    safe.sort();
    safe.dedup();
    (empty, safe)
}
