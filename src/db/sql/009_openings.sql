-- xpgn database, version 9 (openings named):
-- `eco`, `opening`: the ECO code and name of the game's opening, that of
-- the last position of its main line (an invalid game's up to its fault)
-- that its variant's opening book names (src/notation/opening.rs); NULL
-- when the book names none, or the variant has no book. Written by every
-- import; the code step names the stored games of orthodox chess from
-- their packed main lines (the one variant with a built-in book; a
-- variant loaded from a file had no book before this version).
ALTER TABLE games ADD COLUMN eco TEXT;
ALTER TABLE games ADD COLUMN opening TEXT;
