-- xpgn database, version 8 (`tree` under 100 ms for any position):
-- `opening_tree`: the tree (`xpgn tree`) of every position at least 2,000
-- games reach, as `xpgn optimize` counted it from the games: `games`,
-- `ended`, and per move played there its packed bytes with games, White
-- wins, draws, Black wins and first game (src/db/tree.rs, `stored`).
-- Every import that adds games empties it.
CREATE TABLE opening_tree (
    key   INTEGER PRIMARY KEY,
    games INTEGER NOT NULL,
    ended INTEGER NOT NULL,
    moves BLOB    NOT NULL
);
