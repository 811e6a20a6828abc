-- The engine that executed a run and where: '' is the local engine (every
-- run before this migration), 'spark' with the Spark Connect address.
ALTER TABLE runs ADD COLUMN engine TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN remote TEXT NOT NULL DEFAULT '';
