-- Who held a seat before its present occupant, once the game had begun (a JSON list of
-- {"until", "name", "bot"[, "bot_since"]}, oldest first; NULL for nobody): the record's
-- earlier moves of the seat are theirs.
ALTER TABLE seats ADD COLUMN earlier TEXT;
