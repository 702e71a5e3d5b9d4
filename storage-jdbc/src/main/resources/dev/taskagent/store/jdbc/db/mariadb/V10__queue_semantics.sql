-- Version 10: not-before times and idempotency keys. A task may wait for a time (created for later, or backing
-- off after a failed attempt): no claim hands it out before not_before, compared with the database's clock.
-- NULL (every task from before) means no wait. The claim checks the time on the rows of the claim index it reads; an idle worker's
-- question "when is my next waiting task due?" reads the agent's range of the claim index (no index of its own,
-- which every claim would have to update: InnoDB has no partial indexes).

ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS not_before DATETIME(6) NULL;

-- Idempotency keys: a create that names a key a task holds returns that task and writes nothing. Unique across
-- the store (NULLs do not collide); no write but a create touches the index.
ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS idempotency_key VARCHAR(255) NULL;

CREATE UNIQUE INDEX IF NOT EXISTS taskagent_tasks_idempotency ON taskagent_tasks (idempotency_key);
