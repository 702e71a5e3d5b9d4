-- Version 4: a claim token. Every claim writes a random token into the row it claims, so that when the
-- connection dies before the commit's reply the store can tell whether this claim committed, and not take
-- another worker's later claim of the same task under the same agent name for it.

ALTER TABLE taskagent_tasks ADD COLUMN IF NOT EXISTS claim_token VARCHAR(36);
