-- Run history of a workspace (DIR/.laktory/state.db).
--
-- Conventions: times are UTC text 'YYYY-MM-DDTHH:MM:SS.mmmZ' (sortable, and
-- SQLite's date functions read them); durations are integer milliseconds; a
-- task is named by its key ("pipeline.node") within its run; an empty task key
-- is stored as NULL and means "the run itself". The counters of runs and
-- tasks are kept by the triggers at the end, so they are right at any moment,
-- also while a run is still going.

-- One refresh started by `laktory run` or the TUI. The id is the run number
-- users type (`laktory history --run 42`); AUTOINCREMENT never reuses one.
CREATE TABLE runs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    status       TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted')),
    started_at   TEXT    NOT NULL,
    ended_at     TEXT,
    workspace    TEXT    NOT NULL,
    env          TEXT    NOT NULL DEFAULT '',
    refresh      TEXT    NOT NULL CHECK (refresh IN ('INCREMENTAL', 'FULL', 'RESET')),
    reset_mode   TEXT    NOT NULL DEFAULT '' CHECK (reset_mode IN ('', 'DROP', 'TRUNCATE')),
    pipelines    TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(pipelines)), -- selected pipelines (JSON array)
    selectors    TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(selectors)), -- node selectors (JSON array)
    parallelism  INTEGER NOT NULL DEFAULT 0,
    -- summary, kept by triggers
    tasks        INTEGER NOT NULL DEFAULT 0,
    tasks_failed INTEGER NOT NULL DEFAULT 0,
    rows_read    INTEGER NOT NULL DEFAULT 0,
    rows_written INTEGER NOT NULL DEFAULT 0,
    rows_deleted INTEGER NOT NULL DEFAULT 0,
    retries      INTEGER NOT NULL DEFAULT 0,
    warnings     INTEGER NOT NULL DEFAULT 0,
    errors       INTEGER NOT NULL DEFAULT 0,
    error        TEXT    NOT NULL DEFAULT '',
    -- the process that owns the run, to detect runs left behind by a crash
    owner_host   TEXT    NOT NULL DEFAULT '',
    owner_pid    INTEGER NOT NULL DEFAULT 0,
    owner_start  TEXT    NOT NULL DEFAULT '' -- process start token (Linux: /proc starttime)
);
CREATE INDEX runs_status ON runs (status);

-- Pipelines a run touched: the selected ones and those of its tasks.
CREATE TABLE run_pipelines (
    pipeline TEXT    NOT NULL,
    run_id   INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    PRIMARY KEY (pipeline, run_id)
) WITHOUT ROWID;
CREATE INDEX run_pipelines_run ON run_pipelines (run_id);

-- One node of a run.
CREATE TABLE tasks (
    run_id       INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    task_key     TEXT    NOT NULL,
    pipeline     TEXT    NOT NULL,
    node         TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'skipped', 'interrupted')),
    started_at   TEXT,            -- NULL while queued, or when skipped
    ended_at     TEXT,
    rows_read    INTEGER NOT NULL DEFAULT 0,
    rows_written INTEGER NOT NULL DEFAULT 0, -- kept by triggers from operations
    rows_deleted INTEGER NOT NULL DEFAULT 0, -- kept by triggers from operations
    retries      INTEGER NOT NULL DEFAULT 0, -- kept by triggers from retries
    error        TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, task_key)
);

-- The latest task of each node, for "last status per pipeline/node".
CREATE TABLE last_tasks (
    task_key TEXT    PRIMARY KEY,
    pipeline TEXT    NOT NULL,
    run_id   INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE
);
CREATE INDEX last_tasks_pipeline ON last_tasks (pipeline);
CREATE INDEX last_tasks_run ON last_tasks (run_id);

-- Every commit (or file write, drop, ...) a run made to a table.
CREATE TABLE operations (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    task_key      TEXT,
    table_name    TEXT    NOT NULL,
    table_path    TEXT    NOT NULL DEFAULT '',
    version       INTEGER,         -- Delta version committed; NULL when none
    operation     TEXT    NOT NULL, -- WRITE, DELETE, TRUNCATE, DROP, CREATE TABLE, ...
    detail        TEXT    NOT NULL DEFAULT '', -- e.g. the mode or the delete predicate
    rows_added    INTEGER NOT NULL DEFAULT 0,
    rows_deleted  INTEGER NOT NULL DEFAULT 0,
    files_added   INTEGER NOT NULL DEFAULT 0,
    files_removed INTEGER NOT NULL DEFAULT 0,
    duration_ms   INTEGER NOT NULL DEFAULT 0,
    at            TEXT    NOT NULL,
    FOREIGN KEY (run_id, task_key) REFERENCES tasks (run_id, task_key) ON DELETE CASCADE
);
CREATE INDEX operations_run ON operations (run_id);
CREATE INDEX operations_table ON operations (table_name, id);

-- Commit-conflict retries.
CREATE TABLE retries (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    task_key   TEXT,
    table_name TEXT    NOT NULL DEFAULT '',
    attempt    INTEGER NOT NULL,
    delay_ms   INTEGER NOT NULL DEFAULT 0,
    error      TEXT    NOT NULL DEFAULT '',
    at         TEXT    NOT NULL,
    FOREIGN KEY (run_id, task_key) REFERENCES tasks (run_id, task_key) ON DELETE CASCADE
);
CREATE INDEX retries_run ON retries (run_id);

-- Rows deleted from a shared table for one writer (by writer id or predicate).
CREATE TABLE deletions (
    id           INTEGER PRIMARY KEY,
    run_id       INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    task_key     TEXT,
    table_name   TEXT    NOT NULL,
    writer       TEXT    NOT NULL DEFAULT '',
    predicate    TEXT    NOT NULL DEFAULT '',
    rows_deleted INTEGER NOT NULL DEFAULT 0,
    version      INTEGER,
    at           TEXT    NOT NULL,
    CHECK (writer <> '' OR predicate <> ''),
    FOREIGN KEY (run_id, task_key) REFERENCES tasks (run_id, task_key) ON DELETE CASCADE
);
CREATE INDEX deletions_run ON deletions (run_id);

-- Warnings, errors and notes shown to the user.
CREATE TABLE messages (
    id       INTEGER PRIMARY KEY,
    run_id   INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    task_key TEXT,
    severity TEXT    NOT NULL CHECK (severity IN ('info', 'warning', 'error')),
    code     TEXT    NOT NULL DEFAULT '',
    text     TEXT    NOT NULL,
    at       TEXT    NOT NULL,
    FOREIGN KEY (run_id, task_key) REFERENCES tasks (run_id, task_key) ON DELETE CASCADE
);
CREATE INDEX messages_run ON messages (run_id);

-- Structured event log: everything else (ForEach sink definitions, flow
-- progress, ...). seq numbers the events of a run from 1.
CREATE TABLE events (
    run_id   INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    at       TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    task_key TEXT,
    payload  TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    PRIMARY KEY (run_id, seq),
    FOREIGN KEY (run_id, task_key) REFERENCES tasks (run_id, task_key) ON DELETE CASCADE
) WITHOUT ROWID;

-- Append flows of the tables of declarative pipelines, to tell which flows
-- are new (and will reprocess) before a run.
CREATE TABLE flows (
    table_name    TEXT    NOT NULL,
    pipeline      TEXT    NOT NULL,
    flow          TEXT    NOT NULL,
    first_run_id  INTEGER REFERENCES runs (id) ON DELETE SET NULL,
    last_run_id   INTEGER REFERENCES runs (id) ON DELETE SET NULL,
    first_seen_at TEXT    NOT NULL,
    last_seen_at  TEXT    NOT NULL,
    PRIMARY KEY (table_name, pipeline, flow)
) WITHOUT ROWID;

-- Counters.
CREATE TRIGGER tasks_inserted AFTER INSERT ON tasks BEGIN
    UPDATE runs SET tasks = tasks + 1,
                    tasks_failed = tasks_failed + (NEW.status = 'failed'),
                    rows_read = rows_read + NEW.rows_read
     WHERE id = NEW.run_id;
    INSERT OR IGNORE INTO run_pipelines (pipeline, run_id) VALUES (NEW.pipeline, NEW.run_id);
    INSERT INTO last_tasks (task_key, pipeline, run_id) VALUES (NEW.task_key, NEW.pipeline, NEW.run_id)
        ON CONFLICT (task_key) DO UPDATE SET pipeline = excluded.pipeline, run_id = excluded.run_id
        WHERE excluded.run_id > last_tasks.run_id;
END;

CREATE TRIGGER tasks_updated AFTER UPDATE OF status, rows_read ON tasks BEGIN
    UPDATE runs SET tasks_failed = tasks_failed + (NEW.status = 'failed') - (OLD.status = 'failed'),
                    rows_read = rows_read + NEW.rows_read - OLD.rows_read
     WHERE id = NEW.run_id;
END;

CREATE TRIGGER operations_inserted AFTER INSERT ON operations BEGIN
    UPDATE runs SET rows_written = rows_written + NEW.rows_added,
                    rows_deleted = rows_deleted + NEW.rows_deleted
     WHERE id = NEW.run_id;
    UPDATE tasks SET rows_written = rows_written + NEW.rows_added,
                     rows_deleted = rows_deleted + NEW.rows_deleted
     WHERE run_id = NEW.run_id AND task_key = NEW.task_key;
END;

CREATE TRIGGER retries_inserted AFTER INSERT ON retries BEGIN
    UPDATE runs SET retries = retries + 1 WHERE id = NEW.run_id;
    UPDATE tasks SET retries = retries + 1 WHERE run_id = NEW.run_id AND task_key = NEW.task_key;
END;

CREATE TRIGGER messages_inserted AFTER INSERT ON messages BEGIN
    UPDATE runs SET warnings = warnings + (NEW.severity = 'warning'),
                    errors = errors + (NEW.severity = 'error')
     WHERE id = NEW.run_id;
END;
