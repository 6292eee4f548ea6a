-- The message a challenge was posted as, so that its buttons go when it closes without one of
-- them being pressed (it expired, or was answered by `/accept` or `/decline`).
--
-- Portable SQL (SQLite and PostgreSQL): ADD COLUMN with NULL or a constant default, and a
-- partial index, which both databases have.

-- The Discord message id of the challenge (its buttons); NULL: not known (posted before this
-- migration, or Discord's answer was lost).
ALTER TABLE challenges ADD COLUMN message_id BIGINT;
-- The message no longer shows the challenge as open (0 or 1): a press on it replaced it, or the
-- leader's sweep edited it once the challenge closed.
ALTER TABLE challenges ADD COLUMN message_closed BIGINT NOT NULL DEFAULT 0
    CHECK (message_closed IN (0, 1));

-- The sweep's work: messages still showing their buttons.
CREATE INDEX challenges_message_to_close ON challenges (expires_at)
    WHERE message_id IS NOT NULL AND message_closed = 0;
