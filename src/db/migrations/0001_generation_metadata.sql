-- Every LLM generation or transform the library performs, with how it was made and how it ended.
-- Holds no user content: codes, versions and times only.
CREATE TABLE generation_metadata (
    id               INTEGER PRIMARY KEY,
    feature          TEXT    NOT NULL,             -- e.g. 'plan.transform'
    schema_version   TEXT    NOT NULL,             -- 'v1-current' | 'v2-flat'
    selection_reason TEXT    NOT NULL,             -- 'override' | 'single_supported' | 'smallest_estimate'
    ruleset_version  TEXT    NOT NULL,             -- enum-expansion ruleset applied
    succeeded        INTEGER NOT NULL CHECK (succeeded IN (0, 1)),
    error_code       TEXT,                         -- OutputErrorCode in snake_case when it failed
    error_path       TEXT,                         -- JSON path of the failure, if any
    created_at_ms    INTEGER NOT NULL
);
CREATE INDEX generation_metadata_created ON generation_metadata (created_at_ms DESC, id DESC);
