package dev.taskagent.task;

import java.util.Objects;

/**
 * A task was not created because one with the same idempotency key exists: a retried create after a lost
 * reply, or the same request sent twice. Nothing was written; {@link #existing()} is the task the first create
 * made, as it is now.
 *
 * <p>Its message is {@code Task 7 already exists with idempotency key 'order-4711'; nothing was written}.
 */
public final class TaskExistsException extends TaskRefusedException {
    private static final long serialVersionUID = 1L;

    /** The task that holds the key. */
    private final transient Task existing;

    /** The key. */
    private final String idempotencyKey;

    /**
     * Creates the exception.
     *
     * @param existing the task that holds the key
     * @param idempotencyKey the key
     */
    public TaskExistsException(Task existing, String idempotencyKey) {
        super(
                existing.id(),
                "Task " + existing.id() + " already exists with idempotency key '" + idempotencyKey
                        + "'; nothing was written");
        this.existing = existing;
        this.idempotencyKey = Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    }

    /**
     * Returns the task that holds the key, as it was when the create was refused.
     *
     * @return the task; null only after the exception was deserialized
     */
    public Task existing() {
        return existing;
    }

    /**
     * Returns the key the create named.
     *
     * @return the key
     */
    public String idempotencyKey() {
        return idempotencyKey;
    }
}
