-- Version 3, after `position_postings` is filled: the row-per-position
-- table goes, and so do the indexes no query uses (player and tag values
-- are matched as case-blind substrings, which an index cannot serve).
DROP TABLE positions;
DROP INDEX games_white;
DROP INDEX games_black;
DROP INDEX tags_name_value;
