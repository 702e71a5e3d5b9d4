package dev.taskagent.task;

import java.time.Instant;
import java.util.Objects;

/**
 * A comment on a task, such as the note left when a task is handed from one agent to another.
 *
 * <p>Immutable and thread-safe.
 *
 * @param author who wrote it; not blank
 * @param text the comment, stored verbatim; not blank
 * @param createdAt when the store recorded it
 */
public record Comment(String author, String text, Instant createdAt) {
    /**
     * Checks the invariants.
     *
     * @param author who wrote it; not blank
     * @param text the comment, stored verbatim; not blank
     * @param createdAt when the store recorded it; not null
     */
    public Comment {
        Checks.notBlank(author, "author");
        Checks.notBlank(text, "text");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
