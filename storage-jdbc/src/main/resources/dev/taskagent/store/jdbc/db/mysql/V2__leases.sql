-- Version 2: leases. A claim counts its attempt (the fencing token) and holds the task until its lease
-- expires; tasks from before (attempt 0, no lease) stay claimable. MySQL has no IF NOT EXISTS for columns
-- and indexes: a migration interrupted half-way must be finished by hand (the schema-version table says
-- which version was applied last).

ALTER TABLE taskagent_tasks ADD COLUMN attempt INT NOT NULL DEFAULT 0;

-- When the current claim's lease runs out, on the database's clock (UTC); NULL when no claim holds it.
ALTER TABLE taskagent_tasks ADD COLUMN lease_expires_at DATETIME(6) NULL;

-- How many claims the task may use before an expired lease fails it; 0 for the reclaimer's default.
ALTER TABLE taskagent_tasks ADD COLUMN max_attempts INT NOT NULL DEFAULT 0;

-- Serves the reclaim: the running tasks by lease expiry.
CREATE INDEX taskagent_tasks_lease ON taskagent_tasks (status, lease_expires_at, id);
