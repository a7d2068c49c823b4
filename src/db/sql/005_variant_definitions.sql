-- xpgn database, version 5 (variants as data files):
-- `variant_definitions`: the definition of every variant loaded from a
--   user's file (TOML or a Fairy-Stockfish variants.ini section with the
--   sections it inherits from) that the database stores games of, by short
--   name: its format (`toml` or `ini`), its text and the SHA-256 of the
--   text (hex). Filled on import; commands register these definitions when
--   they open the database. Built-in variants are part of xpgn and are not
--   stored.
CREATE TABLE variant_definitions (
    name       TEXT PRIMARY KEY,
    format     TEXT NOT NULL,
    definition TEXT NOT NULL,
    hash       TEXT NOT NULL
);
