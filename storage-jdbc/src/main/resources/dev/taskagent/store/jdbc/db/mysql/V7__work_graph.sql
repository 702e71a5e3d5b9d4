-- Version 7: the work graph. A task may have a parent (0 for none), tasks it waits for (its blockers), tags and
-- the caller's metadata. open_blockers counts the blockers not in success and is kept by the statements that
-- change a status, so that the claim selects ready tasks (open_blockers = 0) as one range of its index.
-- blocked_by copies the task's blocker ids (sorted, comma-separated; NULL for none) into its row, written with
-- the dependencies under the row's lock, so that every read and claim returns them without reading
-- taskagent_dependencies; that table serves the other direction (a blocker's dependants) and the cycle check.
-- Tasks from before get no parent, no blockers, no tags and no metadata.
-- MySQL has no IF NOT EXISTS for columns and indexes: a migration interrupted in this script must be finished
-- by hand (the schema-version table says which version was applied last).

ALTER TABLE taskagent_tasks ADD COLUMN parent_id BIGINT NOT NULL DEFAULT 0;

ALTER TABLE taskagent_tasks ADD COLUMN open_blockers INT NOT NULL DEFAULT 0;

ALTER TABLE taskagent_tasks ADD COLUMN blocked_by MEDIUMTEXT NULL;

-- A JSON array of strings, sorted; NULL for none.
ALTER TABLE taskagent_tasks ADD COLUMN tags TEXT NULL;

-- The caller's JSON object, verbatim; NULL for none.
ALTER TABLE taskagent_tasks ADD COLUMN metadata MEDIUMTEXT NULL;

-- One row per edge: dependant_id waits for blocker_id. The second index serves a blocker's dependants: for
-- the counts when its status changes, and the cycle check's walk.
CREATE TABLE IF NOT EXISTS taskagent_dependencies (
    dependant_id BIGINT NOT NULL,
    blocker_id BIGINT NOT NULL,
    PRIMARY KEY (dependant_id, blocker_id),
    INDEX taskagent_dependencies_blocker (blocker_id, dependant_id)
) ENGINE=InnoDB;

-- A parent's subtasks, lowest id first.
CREATE INDEX taskagent_tasks_parent ON taskagent_tasks (parent_id, id);

-- One row, locked FOR UPDATE by every change of a dependency or a parent: of two units of work whose edges
-- together would close a cycle, the second checks after the first committed.
CREATE TABLE IF NOT EXISTS taskagent_graph_lock (
    id INT NOT NULL PRIMARY KEY
) ENGINE=InnoDB;

INSERT IGNORE INTO taskagent_graph_lock (id) VALUES (1);

-- The claim index with open_blockers as a fourth equality column: a claim of ready tasks stays one range,
-- read in the claim's ORDER BY (claim_rank is -priority, see V1).
DROP INDEX taskagent_tasks_claim ON taskagent_tasks;

CREATE INDEX taskagent_tasks_claim
    ON taskagent_tasks (assignee, status, archived, open_blockers, claim_rank, created_at, id);
