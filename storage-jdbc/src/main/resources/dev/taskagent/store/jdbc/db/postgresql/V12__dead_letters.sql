-- Version 12: an index of the dead-letter candidates. The dead letters' page (failed, non-archived tasks whose
-- attempt reached their limit, by id) counts what follows its first task; without this index that count read
-- every task of the id range. Partial, so it holds failed tasks only: a claim or a completion that succeeds never
-- writes to it, and a task leaves it when archived or set pending again.

CREATE INDEX IF NOT EXISTS taskagent_tasks_dead_letters
    ON taskagent_tasks (id) WHERE status = 'failed' AND archived = FALSE;
