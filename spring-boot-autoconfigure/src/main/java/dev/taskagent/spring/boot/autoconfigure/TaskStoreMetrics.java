package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.store.TaskCounts;
import dev.taskagent.store.TaskStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges of each task store: {@value #TASKS} tagged {@code status} ({@code pending}, {@code running}) and
 * {@value #EXPIRED_LEASES}, each tagged {@code store} with the store's bean name. The counts are asked of the
 * store at most once per refresh interval, however often the gauges are read. Thread-safe.
 */
public final class TaskStoreMetrics implements MeterBinder {
    /** The gauge of pending and running tasks. */
    public static final String TASKS = "taskagent.tasks";
    /** The gauge of running tasks whose lease expired. */
    public static final String EXPIRED_LEASES = "taskagent.tasks.leases.expired";

    private static final Logger LOG = LoggerFactory.getLogger(TaskStoreMetrics.class);

    private final Supplier<Map<String, TaskStore>> stores;
    private final Duration refresh;
    private final Clock clock;

    /**
     * Creates the binder.
     *
     * @param stores the stores by bean name, read when the binder is bound
     * @param refresh how long counts are reused
     * @param clock the clock of the refresh
     */
    public TaskStoreMetrics(Supplier<Map<String, TaskStore>> stores, Duration refresh, Clock clock) {
        this.stores = Objects.requireNonNull(stores, "stores");
        this.refresh = Objects.requireNonNull(refresh, "refresh");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        stores.get().forEach((name, store) -> {
            CachedCounts counts = new CachedCounts(store);
            gauge(registry, TASKS, name, "pending", counts, TaskCounts::pending);
            gauge(registry, TASKS, name, "running", counts, TaskCounts::running);
            Gauge.builder(EXPIRED_LEASES, counts, cached -> cached.value(TaskCounts::expiredLeases))
                    .description("Running tasks whose lease expired and that no reclaim took back yet")
                    .tag("store", name)
                    .strongReference(true) // nothing else holds the counts: a weak reference would read NaN
                    .register(registry);
        });
    }

    private static void gauge(
            MeterRegistry registry,
            String meter,
            String store,
            String status,
            CachedCounts counts,
            ToLongFunction<TaskCounts> count) {
        Gauge.builder(meter, counts, cached -> cached.value(count))
                .description("Non-archived tasks by status")
                .tag("store", store)
                .tag("status", status)
                .strongReference(true)
                .register(registry);
    }

    /** The latest counts of one store, asked again once they are older than the refresh interval. */
    private final class CachedCounts {
        private final TaskStore store;
        private TaskCounts counts;
        private Instant readAt;
        private boolean unsupported;

        CachedCounts(TaskStore store) {
            this.store = store;
        }

        synchronized double value(ToLongFunction<TaskCounts> count) {
            Instant now = clock.instant();
            if (!unsupported && (readAt == null || !now.isBefore(readAt.plus(refresh)))) {
                readAt = now;
                try {
                    counts = store.countTasks();
                } catch (UnsupportedOperationException e) {
                    unsupported = true;
                    counts = null;
                    LOG.info("{} cannot count its tasks: its gauges stay empty", store);
                } catch (RuntimeException e) {
                    counts = null;
                    LOG.warn("Counting the tasks of {} for its gauges failed: {}", store, e.toString());
                    LOG.debug("Counting the tasks of {} failed", store, e);
                }
            }
            return counts == null ? Double.NaN : count.applyAsLong(counts);
        }
    }
}
