-- The rows a MERGE updated (its rows inserted are rows_added, its rows
-- deleted rows_deleted).
ALTER TABLE operations ADD COLUMN rows_updated INTEGER NOT NULL DEFAULT 0;
