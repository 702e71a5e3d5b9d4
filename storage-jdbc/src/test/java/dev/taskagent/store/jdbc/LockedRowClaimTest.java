package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.task.Task;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A claim never answers "no idle task" because a claimable task is locked by a unit of work that is not a
 * claim (rule TS-7.6). With {@code SKIP LOCKED}, PostgreSQL and MariaDB stepped over a task a comment's
 * transaction held: 77 of 100 claims came back empty while one thread commented in a loop.
 */
class LockedRowClaimTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    static Stream<TestDatabase> databases() {
        return TestDatabase.configured();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void everyClaimFindsTheTaskThatAnotherThreadKeepsCommentingOn(TestDatabase database) throws Exception {
        try (JdbcTaskStore store = database.newStore(java.time.Clock.systemUTC())) {
            TaskQueue queue = TaskQueue.builder(store).build();
            AtomicLong current = new AtomicLong();
            AtomicBoolean claiming = new AtomicBoolean(true);
            ExecutorService commenter = Executors.newSingleThreadExecutor();
            try {
                Future<Integer> comments = commenter.submit(() -> {
                    int written = 0;
                    while (claiming.get()) {
                        long id = current.get();
                        if (id > 0) {
                            queue.comment(id, "reviewer", "still pending?");
                            written++;
                        }
                    }
                    return written;
                });

                List<Long> empty = new ArrayList<>();
                for (int round = 0; round < 100; round++) {
                    // One claimable task at a time, which the other thread keeps locking with its comments.
                    Task task = queue.create(
                            queue.newTask("task " + round).assignee("claimer").build());
                    current.set(task.id());
                    Optional<Task> claimed = queue.claimNext("claimer");
                    if (claimed.isEmpty()) {
                        empty.add(task.id());
                    } else {
                        assertThat(claimed.get().id()).isEqualTo(task.id());
                    }
                }
                claiming.set(false);

                assertThat(empty).as("tasks whose claim came back empty").isEmpty();
                assertThat(comments.get(DEADLINE.toSeconds(), TimeUnit.SECONDS))
                        .as("comments written meanwhile")
                        .isPositive();
            } finally {
                claiming.set(false);
                commenter.shutdownNow();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aClaimWaitsForTheOnlyTaskWhileAnotherUnitOfWorkHoldsItForSeconds(TestDatabase database) throws Exception {
        try (JdbcTaskStore store = database.newStore(java.time.Clock.systemUTC())) {
            TaskQueue queue = TaskQueue.builder(store).build();
            Task task = queue.create(
                    queue.newTask("the only one").assignee("claimer").build());
            long feedStart = store.eventFeed().lastPosition();
            CountDownLatch locked = new CountDownLatch(1);
            CountDownLatch claimReturned = new CountDownLatch(1);
            ExecutorService holder = Executors.newSingleThreadExecutor();
            try {
                Future<?> holding = holder.submit(() -> store.inTransaction(tx -> {
                    tx.addComment(task.id(), "reviewer", "reading it slowly");
                    locked.countDown();
                    try {
                        // Holds the task's row lock for two seconds, or until the claim returned.
                        claimReturned.await(2, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return null;
                }));
                assertThat(locked.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
                Instant start = Instant.now();

                Optional<Task> claimed = queue.claimNext("claimer");
                claimReturned.countDown();
                holding.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

                assertThat(claimed).map(Task::id).contains(task.id());
                assertThat(claimed.orElseThrow().comments()).hasSize(1);
                // The claim that waited appended its event once, though the queue recorded it as well.
                assertThat(store.eventFeed().read(feedStart, 100))
                        .filteredOn(event -> event.kind().equals("claimed"))
                        .singleElement()
                        .extracting(FeedEvent::payload)
                        .isEqualTo(FeedEncoding.encode(new TaskEvent.Claimed(claimed.orElseThrow(), "claimer"))
                                .payload());
                assertThat(Duration.between(start, Instant.now()))
                        .as("the claim waited for the unit of work that held the task")
                        .isGreaterThanOrEqualTo(Duration.ofMillis(1500));
            } finally {
                holder.shutdownNow();
            }
        }
    }
}
