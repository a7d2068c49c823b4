//! The rules core: board geometry, pieces, variants, positions and move
//! generation. It knows nothing of text, files or databases; `notation`
//! and `db` build on it, never the other way.

mod bitboard;
mod castling;
mod explain;
mod gating;
mod geometry;
mod hash;
mod looked_up;
mod movegen;
mod movement;
mod moves;
mod outcome;
mod perft;
mod play;
mod polyglot;
mod position;
mod setup;
mod sliders;
mod square_set;
pub mod variant;

pub use castling::{CastlingState, MAX_PARTNERS, Stage};
pub use explain::{Illegality, kind_names};
pub use geometry::{BoardSize, MAX_SIDE, SQUARE_SPACE, Square};
pub use movement::{Atom, Movement};
pub use movement::{BetzaError, Mode};
pub use moves::{Gate, Move, MoveKind, WaitingPromotion};
pub use outcome::{Ending, Outcome};
pub use perft::{perft, perft_divide};
pub use piece::{Color, Piece, PieceKind};
pub use polyglot::polyglot_key;
pub use position::{IllegalMove, MAX_WAITING, Position, PositionError};
pub use setup::{Setup, WaitingPawn};
pub use square_set::{SquareSet, SquareSetIter};
pub use variant::{
    BareKing, CastlingDef, CastlingSafety, CastlingSide, DefinitionError, Explosion, Extinction,
    FlagRule, FreeCastling, HandRules, PawnRules, PieceDef, PromotionRule, Registry, Role,
    SourceFormat, SpecialKingMove, StalemateOutcome, Variant, VariantDef, VariantDefError,
    builtin_source, load_ini, load_toml, read_ini,
};

mod piece;
