-- Whether the table's deal was shown (every seat taken at some time since it was dealt):
-- the game has begun, and its cards are never dealt again, even with a seat open since.
ALTER TABLE game_tables ADD COLUMN deal_shown BOOLEAN NOT NULL DEFAULT FALSE;
-- Tables stored before: whether their deal was shown was never written. One whose seats
-- changed hands may have been shown, then had a seat open again (a restart would deal it
-- again): counted as shown. The rest were shown only if every seat is taken, which the
-- server reads off the seats.
UPDATE game_tables SET deal_shown = TRUE
    WHERE finished IS NULL AND COALESCE(seat_changes, 0) > 0;
