-- Version 4: a claim token. Every claim writes a random token into the row it claims, so that when the
-- connection dies before the commit's reply the store can tell whether this claim committed, and not take
-- another worker's later claim of the same task under the same agent name for it.
-- MySQL has no IF NOT EXISTS for columns: a migration interrupted half-way must be finished by hand.

ALTER TABLE taskagent_tasks ADD COLUMN claim_token VARCHAR(36) NULL;
