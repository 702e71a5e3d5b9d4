package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.store.TaskCounts;
import dev.taskagent.store.TaskStore;
import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports whether the task store answers, with its pending and running tasks and the running ones whose lease
 * expired ({@code expiredLeases}: workers gone or late, and no reaper took them back yet). Down when the store
 * fails. Thread-safe.
 */
public final class TaskStoreHealthIndicator extends AbstractHealthIndicator {
    private final TaskStore store;

    /**
     * Creates the indicator.
     *
     * @param store the store to ask
     */
    public TaskStoreHealthIndicator(TaskStore store) {
        super("The task store could not be reached");
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("store", store.toString());
        TaskCounts counts;
        try {
            counts = store.countTasks();
        } catch (UnsupportedOperationException e) {
            store.findTask(Long.MAX_VALUE); // the store cannot count; that it answers is all this can tell
            builder.up();
            return;
        }
        builder.up()
                .withDetail("pending", counts.pending())
                .withDetail("running", counts.running())
                .withDetail("expiredLeases", counts.expiredLeases());
    }
}
