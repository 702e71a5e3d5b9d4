package dev.taskagent.testkit.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.taskagent.event.EventFeed;
import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.FeedListener;
import dev.taskagent.event.FeedSubscription;
import dev.taskagent.queue.Backoff;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.queue.TaskWorker;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of {@link TaskWorker}, written once and run on every store with real threads and the real
 * clock (leases expire in real time): subclass it in a store's tests and return a fresh, empty store from
 * {@link #createStore(Clock)}. Every wait has a deadline.
 */
public abstract class TaskWorkerSuite {
    private static final String AGENT = "worker";
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private TaskStore store;

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected TaskWorkerSuite() {}

    /**
     * Creates the store under test. Each call must return a new, empty store; the suite closes it.
     *
     * @param clock the clock the store must take its timestamps from (the system clock here)
     * @return the store
     */
    protected abstract TaskStore createStore(Clock clock);

    @BeforeEach
    void createStore() {
        store = createStore(Clock.systemUTC());
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void everyTaskIsHandledOnceAndCompletedByFourThreads() {
        TaskQueue queue = TaskQueue.builder(store).build();
        for (int number = 1; number <= 40; number++) {
            queue.create(queue.newTask("Send invoice " + number).assignee(AGENT).build());
        }
        Map<Long, Integer> handled = new ConcurrentHashMap<>();

        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .concurrency(4)
                .handler(task -> handled.merge(task.id(), 1, Integer::sum))
                .start()) {
            awaitTrue("40 tasks handled", () -> worker.handledCount() == 40);
        }

        assertThat(queue.listQueue(AGENT)).extracting(Task::status).containsOnly(TaskStatus.SUCCESS);
        assertThat(handled).hasSize(40);
        assertThat(handled.values()).containsOnly(1);
        assertThat(queue.listQueue(AGENT))
                .allSatisfy(task -> assertThat(task.attempt()).isEqualTo(1));
    }

    @Test
    void aClaimLostWhileOthersSucceedLeavesTheirSuccessWritten() {
        TaskQueue queue = TaskQueue.builder(store).build();
        long lost = 0;
        for (int number = 1; number <= 6; number++) {
            long id = queue.create(queue.newTask("Render page " + number)
                            .assignee(AGENT)
                            .build())
                    .id();
            lost = number == 3 ? id : lost;
        }
        long lostId = lost;
        CountDownLatch allStarted = new CountDownLatch(6);

        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .concurrency(6)
                .handler(task -> {
                    if (task.id() == lostId) {
                        // Someone takes the task back while the handler runs: its claim is lost.
                        queue.update(TaskUpdate.of(lostId)
                                .status(TaskStatus.PENDING)
                                .assignee("someone-else")
                                .build());
                    }
                    allStarted.countDown();
                    await(allStarted);
                })
                .start()) {
            awaitTrue("6 tasks handled", () -> worker.handledCount() == 6);
        }

        assertThat(queue.listQueue(AGENT))
                .as("the five tasks whose claims held")
                .hasSize(5)
                .allSatisfy(task -> assertThat(task.status()).isEqualTo(TaskStatus.SUCCESS));
        Task taken = queue.get(lostId).orElseThrow();
        assertThat(taken.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(taken.assignee()).isEqualTo("someone-else");
    }

    @Test
    void aThrowingHandlerRetriesAfterTheBackoffUntilItsLastAttemptThenFailsIt() {
        Duration backoff = Duration.ofMillis(700);
        TaskQueue queue = TaskQueue.builder(store)
                .maxAttempts(2)
                .backoff(Backoff.fixed(backoff))
                .build();
        long id = queue.create(queue.newTask("Print the labels").assignee(AGENT).build())
                .id();
        List<Long> starts = new CopyOnWriteArrayList<>();

        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                // Never polls within the test: the second attempt must come from the wake-up at its time.
                .pollInterval(Duration.ofHours(1))
                .handler(task -> {
                    starts.add(System.nanoTime());
                    throw new IllegalStateException("printer on fire");
                })
                .start()) {
            awaitTrue("two attempts handled", () -> worker.handledCount() == 2);
        }

        Duration between = Duration.ofNanos(starts.get(1) - starts.get(0));
        assertThat(between)
                .as("the second attempt waits for the backoff, and starts soon after it without a poll")
                .isBetween(backoff, backoff.plusSeconds(5));
        Task failed = queue.get(id).orElseThrow();
        assertThat(failed.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(failed.attempt()).isEqualTo(2);
        assertThat(failed.comments())
                .extracting(Comment::author, Comment::text)
                .containsExactly(
                        tuple(
                                AGENT,
                                "Attempt 1 failed: IllegalStateException: printer on fire. The task goes back to the"
                                        + " queue and waits 700 ms."),
                        tuple(
                                AGENT,
                                "Attempt 2 failed: IllegalStateException: printer on fire. That was the last of 2"
                                        + " attempts."));
    }

    @Test
    void anIdleWorkerClaimsATaskScheduledForLaterWhenItsTimeComes() {
        TaskQueue queue = TaskQueue.builder(store).build();
        Instant notBefore = Instant.now().plusMillis(800);
        long id = queue.create(queue.newTask("Open the shop")
                        .assignee(AGENT)
                        .notBefore(notBefore)
                        .build())
                .id();
        AtomicReference<Instant> started = new AtomicReference<>();

        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .pollInterval(Duration.ofHours(1))
                .handler(task -> started.set(Instant.now()))
                .start()) {
            awaitTrue("the scheduled task handled", () -> worker.handledCount() == 1);
        }

        assertThat(started.get())
                .as("not before its time (the store's clock is this JVM's here), and without waiting for a poll")
                .isBetween(notBefore, notBefore.plusSeconds(5));
        assertThat(queue.get(id).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
    }

    @Test
    void anIdleWorkerIsWokenByTheEventFeedWithoutWaitingForItsPoll() {
        TaskQueue queue = TaskQueue.builder(store).build();
        CountDownLatch done = new CountDownLatch(1);

        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .pollInterval(Duration.ofHours(1))
                .handler(task -> done.countDown())
                .start()) {
            queue.create(queue.newTask("Arrives later").assignee(AGENT).build());

            assertThat(await(done))
                    .as("handled within %s although the worker polls hourly", DEADLINE)
                    .isTrue();
            awaitTrue("the outcome recorded", () -> worker.handledCount() == 1);
        }
    }

    /**
     * A busy worker (its claims come back full) does not follow the feed, whose events it would not use;
     * once its queue runs dry it follows it again, and is woken by it.
     */
    @Test
    void aWorkerFollowsTheEventFeedOnlyWhileItsQueueCanRunDry() throws InterruptedException {
        SubscriptionCounting counting = new SubscriptionCounting(store);
        TaskQueue queue = TaskQueue.builder(counting).build();
        for (int number = 1; number <= 20; number++) {
            queue.create(queue.newTask("Backlog " + number).assignee(AGENT).build());
        }
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch late = new CountDownLatch(1);

        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .concurrency(2)
                .pollInterval(Duration.ofHours(1))
                .handler(task -> {
                    if (task.description().equals("Late")) {
                        late.countDown();
                    } else {
                        go.await();
                    }
                })
                .start()) {
            awaitTrue("the worker holds a full batch", () -> store.countTasks().running() == 4);
            assertThat(counting.open())
                    .as("subscriptions while the claims come back full")
                    .isZero();

            go.countDown();
            awaitTrue("the backlog handled", () -> worker.handledCount() == 20);
            awaitTrue("following the feed once the queue ran dry", () -> counting.open() == 1);
            queue.create(queue.newTask("Late").assignee(AGENT).build());

            assertThat(late.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
                    .as("woken by the feed although the worker polls hourly")
                    .isTrue();
        }
        assertThat(counting.open()).as("subscriptions after close").isZero();
    }

    /** The store under test, counting the subscriptions to its feed that are open. */
    private static final class SubscriptionCounting implements TaskStore {
        private final TaskStore delegate;
        private final AtomicInteger open = new AtomicInteger();

        SubscriptionCounting(TaskStore delegate) {
            this.delegate = delegate;
        }

        int open() {
            return open.get();
        }

        @Override
        public <R> R inTransaction(TransactionWork<R> work) {
            return delegate.inTransaction(work);
        }

        @Override
        public EventFeed eventFeed() {
            EventFeed feed = delegate.eventFeed();
            return new EventFeed() {
                @Override
                public List<FeedEvent> read(long afterPosition, int limit) {
                    return feed.read(afterPosition, limit);
                }

                @Override
                public FeedSubscription subscribe(long afterPosition, FeedListener listener) {
                    FeedSubscription subscription = feed.subscribe(afterPosition, listener);
                    open.incrementAndGet();
                    AtomicBoolean closed = new AtomicBoolean();
                    return new FeedSubscription() {
                        @Override
                        public long lastDeliveredPosition() {
                            return subscription.lastDeliveredPosition();
                        }

                        @Override
                        public Optional<RuntimeException> failure() {
                            return subscription.failure();
                        }

                        @Override
                        public void close() {
                            if (closed.compareAndSet(false, true)) {
                                open.decrementAndGet();
                            }
                            subscription.close();
                        }
                    };
                }

                @Override
                public long lastPosition() {
                    return feed.lastPosition();
                }

                @Override
                public long prune(Duration olderThan) {
                    return feed.prune(olderThan);
                }
            };
        }
    }

    @Test
    void theWorkerRenewsTheLeaseWhileItsHandlerRuns() {
        TaskQueue queue =
                TaskQueue.builder(store).leaseDuration(Duration.ofSeconds(2)).build();
        long id = queue.create(queue.newTask("A long job").assignee(AGENT).build())
                .id();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);

        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .handler(task -> {
                    started.countDown();
                    finish.await();
                })
                .start()) {
            assertThat(await(started)).isTrue();
            Instant until = Instant.now().plusSeconds(5); // two and a half leases
            while (Instant.now().isBefore(until)) {
                assertThat(queue.reclaimExpired())
                        .as("nothing expires while the worker renews it")
                        .isEmpty();
                LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
            }
            finish.countDown();
            awaitTrue("the job handled", () -> worker.handledCount() == 1);
        }

        assertThat(queue.get(id).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(queue.get(id).orElseThrow().attempt()).isEqualTo(1);
    }

    @Test
    void closeReleasesTheClaimOfAHandlerThatOutlivesTheDrainAndInterruptsIt() {
        TaskQueue queue = TaskQueue.builder(store).build();
        long id = queue.create(queue.newTask("Never ends").assignee(AGENT).build())
                .id();
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(1);

        TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .drainTimeout(Duration.ofMillis(100))
                .handler(task -> {
                    started.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                    } finally {
                        ended.countDown();
                    }
                })
                .start();
        assertThat(await(started)).isTrue();
        worker.close();

        assertThat(await(ended)).isTrue();
        assertThat(interrupted).isTrue();
        Task released = queue.get(id).orElseThrow();
        assertThat(released.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(released.comments())
                .extracting(Comment::text)
                .containsExactly("The worker stopped before this attempt finished.");
    }

    @Test
    void aTaskCancelledWhileItsHandlerRunsInterruptsTheHandlerAndStaysCancelled() {
        TaskQueue queue =
                TaskQueue.builder(store).leaseDuration(Duration.ofMillis(600)).build();
        long id = queue.create(
                        queue.newTask("Reindex the catalogue").assignee(AGENT).build())
                .id();
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();

        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .handler(task -> {
                    started.countDown();
                    try {
                        new CountDownLatch(1).await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                    }
                })
                .start()) {
            assertThat(await(started)).isTrue();
            queue.cancel(id, "operator", "the catalogue is frozen");
            awaitTrue("the handler interrupted at the next lease renewal", interrupted::get);
            awaitTrue("the handler returned", () -> worker.handledCount() == 1);
        }

        Task task = queue.get(id).orElseThrow();
        assertThat(task.status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(task.comments()).extracting(Comment::text).containsExactly("Cancelled: the catalogue is frozen");
    }

    @Test
    void closeReleasesATaskClaimedAheadAtOnceAndWaitsForTheRunningHandler() {
        TaskQueue queue = TaskQueue.builder(store).build();
        long first = queue.create(queue.newTask("Resize images")
                        .assignee(AGENT)
                        .priority(1)
                        .build())
                .id();
        long ahead = queue.create(queue.newTask("Upload images").assignee(AGENT).build())
                .id();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .concurrency(1)
                .handler(task -> {
                    started.countDown();
                    await(finish);
                })
                .start();
        assertThat(await(started)).isTrue();
        awaitTrue(
                "the second task claimed ahead of the one thread",
                () -> queue.get(ahead).orElseThrow().status().equals(TaskStatus.RUNNING));

        Thread closing = new Thread(worker::close, "closing-worker");
        closing.start();
        awaitTrue(
                "the task claimed ahead released while the first handler still runs",
                () -> queue.get(ahead).orElseThrow().status().equals(TaskStatus.PENDING));
        assertThat(queue.get(first).orElseThrow().status()).isEqualTo(TaskStatus.RUNNING);
        finish.countDown();
        awaitTrue("close() returned", () -> !closing.isAlive());

        assertThat(queue.get(first).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(queue.get(ahead).orElseThrow().comments())
                .extracting(Comment::text)
                .containsExactly("The worker stopped before this attempt finished.");
        assertThat(worker.handledCount()).isEqualTo(1);
    }

    @Test
    void aWorkerNeedsAnAgentAndAHandler() {
        TaskQueue queue = TaskQueue.builder(store).build();

        assertThatThrownBy(() -> TaskWorker.builder(queue).handler(task -> {}).start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("A TaskWorker needs an agent: call agent(name) before start()");
        assertThatThrownBy(() -> TaskWorker.builder(queue).agent(AGENT).start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("A TaskWorker needs a handler: call handler(task -> …) before start()");
        assertThatThrownBy(() -> TaskWorker.builder(queue).concurrency(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("concurrency must be between 1 and 1024, was 0");
        assertThatThrownBy(() -> TaskWorker.builder(queue).pollInterval(Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pollInterval must be between PT0.01S and PT1H, was PT0.001S");
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void awaitTrue(String what, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as("waiting for: %s", what).isBefore(deadline);
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }
}
