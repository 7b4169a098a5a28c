-- Whether the host removed the seat's person (open since, or played on by a computer
-- player): the pages say "the host removed Kari", not that Kari left, until someone
-- else takes the seat.
ALTER TABLE seats ADD COLUMN removed BOOLEAN NOT NULL DEFAULT FALSE;
