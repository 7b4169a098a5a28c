-- How many times a seat of the table changed hands since it was made: the expiry of a
-- waiting table is written only while the count is the one its sweep found, so a
-- seat taken meanwhile (at any process) keeps the table.
ALTER TABLE game_tables ADD COLUMN seat_changes INTEGER NOT NULL DEFAULT 0;
