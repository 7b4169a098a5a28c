-- The database's identity: a random name made once, kept by backups (pg_dump). The
-- processes of a cluster note it in their Redis, so that a process started on another
-- database with the same Redis is refused (gametable.server.joining).
CREATE TABLE storage_identity (id TEXT PRIMARY KEY);
INSERT INTO storage_identity (id) VALUES (md5(random()::text || clock_timestamp()::text));
