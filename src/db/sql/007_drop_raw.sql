-- Version 7, after the code step: the raw original and the whole tag list go.
ALTER TABLE games DROP COLUMN tags;
ALTER TABLE games DROP COLUMN original;
ALTER TABLE games DROP COLUMN source_file;
DROP TABLE position_postings;
ALTER TABLE position_postings_new RENAME TO position_postings;
