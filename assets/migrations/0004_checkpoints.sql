-- The streaming checkpoints through which flows committed batches (path
-- relative to the workspace), so that a checkpoint removed by hand (the
-- whole checkpoints folder, with the markers beside each flow's folder)
-- is told from a new flow: its next run would read every file again. A
-- refresh that resets the checkpoint forgets it first.
CREATE TABLE checkpoints (
    path       TEXT    PRIMARY KEY,
    flow       TEXT    NOT NULL,
    query_id   TEXT    NOT NULL DEFAULT '',
    run_id     INTEGER REFERENCES runs (id) ON DELETE SET NULL,
    written_at TEXT    NOT NULL
) WITHOUT ROWID;
