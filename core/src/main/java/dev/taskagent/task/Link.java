package dev.taskagent.task;

import java.time.Instant;
import java.util.Objects;

/**
 * A link attached to a task: a URL with a description, such as a pull request or a document.
 *
 * <p>Immutable and thread-safe.
 *
 * @param url the address, stored verbatim; not blank
 * @param description what the link is; may be empty, never null
 * @param author who added it; not blank
 * @param createdAt when the store recorded it
 */
public record Link(String url, String description, String author, Instant createdAt) {
    /**
     * Checks the invariants.
     *
     * @param url the address, stored verbatim; not blank
     * @param description what the link is; may be empty, not null
     * @param author who added it; not blank
     * @param createdAt when the store recorded it; not null
     */
    public Link {
        Checks.notBlank(url, "url");
        Objects.requireNonNull(description, "description");
        Checks.notBlank(author, "author");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
