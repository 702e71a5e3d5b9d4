-- Version 2: leases. A claim counts its attempt (the fencing token) and holds the task until its lease
-- expires; tasks from before (attempt 0, no lease) stay claimable. Idempotent, like every migration.

ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS attempt INT NOT NULL DEFAULT 0;

-- When the current claim's lease runs out, on the database's clock (UTC); NULL when no claim holds it.
ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS lease_expires_at TIMESTAMP(6);

-- How many claims the task may use before an expired lease fails it; 0 for the reclaimer's default.
ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS max_attempts INT NOT NULL DEFAULT 0;

-- Serves the reclaim: the running tasks by lease expiry, and only those.
CREATE INDEX IF NOT EXISTS taskagent_tasks_lease ON taskagent_tasks (lease_expires_at, id) WHERE status = 'running';
