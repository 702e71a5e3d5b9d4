-- Version 10: not-before times and idempotency keys. A task may wait for a time (created for later, or backing
-- off after a failed attempt): no claim hands it out before not_before, compared with the database's clock.
-- NULL (every task from before) means no wait. The claim checks the time on the rows of the claim index it reads.
-- The partial index serves an idle worker's question "when is my next waiting task due?": it holds only pending
-- tasks with a time, so that claims of tasks without one never write to it.

ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS not_before TIMESTAMP(6);

CREATE INDEX IF NOT EXISTS taskagent_tasks_scheduled
    ON taskagent_tasks (assignee, not_before) WHERE status = 'pending' AND not_before IS NOT NULL;

-- Idempotency keys: a create that names a key a task holds returns that task and writes nothing. Unique across
-- the store; partial, so tasks without a key (most) have no entry.
ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS idempotency_key VARCHAR(255);

CREATE UNIQUE INDEX IF NOT EXISTS taskagent_tasks_idempotency
    ON taskagent_tasks (idempotency_key) WHERE idempotency_key IS NOT NULL;
