-- A computer player that took a person's seat over mid-game: how many actions the
-- record held then (the record names the person for the seat's moves before them).
ALTER TABLE seats ADD COLUMN bot_since INTEGER;
