package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.taskagent.event.EventFeed;
import dev.taskagent.event.EventsPrunedException;
import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.FeedListener;
import dev.taskagent.event.FeedSubscription;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.testkit.MutableClock;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDBC event feed beyond the kit: the late commit forced on every dialect, {@code NOTIFY} waking a
 * subscription on PostgreSQL, polling only, retention, a blocked listener, a store without a feed and the
 * builder's refusals.
 */
class JdbcEventFeedTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    static Stream<TestDatabase> databases() {
        return TestDatabase.configured();
    }

    /**
     * The trap: a unit of work appends its event first and commits last. A reader that numbered rows in the
     * order they were inserted would hand the early commit a position after a hole and skip the late one
     * for good. Here the late event must come next, with the next position.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anEventThatCommitsAfterALaterOneWasReadComesNextWithTheNextPosition(TestDatabase database) throws Exception {
        try (JdbcTaskStore store = database.newStore(Clock.systemUTC())) {
            EventFeed feed = store.eventFeed();
            CountDownLatch inserted = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ExecutorService slow = Executors.newSingleThreadExecutor();
            Future<Task> late = slow.submit(() -> store.inTransaction(tx -> {
                Task task = tx.appendTask(NewTask.of("late", "inserted first, commits last"));
                inserted.countDown();
                awaitLatch(release);
                return task;
            }));
            try {
                assertThat(inserted.await(DEADLINE.toSeconds(), TimeUnit.SECONDS))
                        .isTrue();
                ExecutorService fast = Executors.newSingleThreadExecutor();
                Task early;
                try {
                    early = fast.submit(() -> store.inTransaction(
                                    tx -> tx.appendTask(NewTask.of("early", "inserted last, commits first"))))
                            .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError("The early unit of work waited for the open one: the case was not forced");
                } finally {
                    fast.shutdown();
                }

                List<FeedEvent> first = feed.read(0, 100);
                assertThat(first).extracting(FeedEvent::taskId).containsExactly(early.id());
                assertThat(first).extracting(FeedEvent::position).containsExactly(1L);

                release.countDown();
                Task committedLate = late.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                assertThat(committedLate.id())
                        .as("the late unit of work inserted its rows first")
                        .isLessThan(early.id());
                List<FeedEvent> next = feed.read(1, 100);
                assertThat(next).extracting(FeedEvent::taskId).containsExactly(committedLate.id());
                assertThat(next).extracting(FeedEvent::position).containsExactly(2L);
            } finally {
                release.countDown();
                slow.shutdown();
            }
        }
    }

    /**
     * The feed numbers a run of consecutive ids in one statement: a hole in the ids (here an event row whose
     * insert was rolled back) must end a run, so that the positions stay gap-free and in id order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void eventsAroundAHoleInTheIdsGetConsecutivePositionsInIdOrder(TestDatabase database) throws Exception {
        DataSource dataSource = database.newDataSource();
        try (JdbcTaskStore store =
                JdbcTaskStore.builder(dataSource).clock(Clock.systemUTC()).build()) {
            List<Task> before = store.inTransaction(tx -> List.of(
                    tx.appendTask(NewTask.of("holes", "one")),
                    tx.appendTask(NewTask.of("holes", "two")),
                    tx.appendTask(NewTask.of("holes", "three"))));
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(false);
                try (Statement statement = connection.createStatement()) {
                    statement.executeUpdate("INSERT INTO taskagent_events (task_id, session_id, kind, payload,"
                            + " created_at) VALUES (" + before.get(0).id() + ", 'holes', 'updated', '{}',"
                            + " CURRENT_TIMESTAMP)");
                }
                connection.rollback();
            }
            List<Task> after = store.inTransaction(tx ->
                    List.of(tx.appendTask(NewTask.of("holes", "four")), tx.appendTask(NewTask.of("holes", "five"))));

            List<FeedEvent> events = store.eventFeed().read(0, 100);

            assertThat(events).extracting(FeedEvent::position).containsExactly(1L, 2L, 3L, 4L, 5L);
            assertThat(events)
                    .extracting(FeedEvent::taskId)
                    .containsExactly(
                            before.get(0).id(),
                            before.get(1).id(),
                            before.get(2).id(),
                            after.get(0).id(),
                            after.get(1).id());
            assertThat(store.eventFeed().lastPosition()).isEqualTo(5);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aListenerThatBlocksHoldsUpItsOwnSubscriptionOnlyNeverTheWriters(TestDatabase database) throws Exception {
        try (JdbcTaskStore store = database.newStore(Clock.systemUTC())) {
            CountDownLatch unblock = new CountDownLatch(1);
            List<FeedEvent> delivered = new CopyOnWriteArrayList<>();
            try (FeedSubscription subscription = store.eventFeed().subscribe(0, event -> {
                delivered.add(event);
                awaitLatch(unblock);
            })) {
                store.inTransaction(tx -> tx.appendTask(NewTask.of("blocked", "first")));
                await(() -> delivered.size() == 1, "the first event reaches the listener");
                for (int index = 0; index < 100; index++) {
                    String description = "written while the listener blocks " + index;
                    store.inTransaction(tx -> tx.appendTask(NewTask.of("blocked", description)));
                }
                assertThat(delivered).hasSize(1);
                unblock.countDown();
                await(() -> delivered.size() == 101, "the rest reach the listener once it returns");
                assertThat(subscription.lastDeliveredPosition()).isEqualTo(101);
            }
            assertThat(delivered)
                    .extracting(FeedEvent::position)
                    .containsExactlyElementsOf(
                            LongStream.rangeClosed(1, 101).boxed().toList());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void eventsOlderThanTheRetentionArePrunedInBatchesAndTheirPositionsRefused(TestDatabase database) {
        MutableClock clock = MutableClock.standard();
        try (JdbcTaskStore store = JdbcTaskStore.builder(database.newDataSource())
                .clock(clock)
                .eventRetention(Duration.ofHours(1))
                .build()) {
            EventFeed feed = store.eventFeed();
            store.inTransaction(tx -> {
                for (int index = 0; index < 2_500; index++) {
                    tx.appendTask(NewTask.of("old", "task " + index));
                }
                return null;
            });
            assertThat(feed.read(0, 10)).hasSize(10); // numbered, and nothing old enough to prune yet
            clock.advance(Duration.ofHours(2));
            store.inTransaction(tx -> tx.appendTask(NewTask.of("new", "task")));

            assertThat(feed.prune(Duration.ofHours(1))).isEqualTo(2_500);

            assertThat(feed.lastPosition()).isEqualTo(2_501);
            assertThatThrownBy(() -> feed.read(0, 10))
                    .isInstanceOfSatisfying(EventsPrunedException.class, e -> {
                        assertThat(e.requestedPosition()).isZero();
                        assertThat(e.firstAvailablePosition()).isEqualTo(2_501);
                    })
                    .hasMessageContaining("2501");
            assertThatThrownBy(() -> feed.subscribe(2_499, event -> {})).isInstanceOf(EventsPrunedException.class);
            assertThat(feed.read(2_500, 10)).singleElement().satisfies(event -> assertThat(event.sessionId())
                    .isEqualTo("new"));
            assertThat(feed.prune(Duration.ofHours(1))).isZero();
        }
    }

    @Test
    void onPostgresqlANotificationWakesASubscriptionLongBeforeItsNextPoll() throws Exception {
        assumeTrue(TestDatabase.POSTGRES.isConfigured(), "PostgreSQL is not configured");
        String name = "feed-notify-" + UUID.randomUUID().toString().substring(0, 8);
        String url = TestDatabase.POSTGRES.newUrl() + "&ApplicationName=" + name;
        // The writer is another store, as in another process: only a notification through the database
        // can wake the subscription before its poll a minute away.
        try (JdbcTaskStore store = JdbcTaskStore.builder(url)
                        .eventPollInterval(Duration.ofMinutes(1))
                        .build();
                JdbcTaskStore writer = JdbcTaskStore.open(url)) {
            List<FeedEvent> delivered = new CopyOnWriteArrayList<>();
            try (FeedSubscription subscription = store.eventFeed().subscribe(0, delivered::add)) {
                await(() -> listeningBackends(name) == 1, "the store listens on a connection of its own");
                // The second round cannot ride on the wake-up the listener gives when it connects.
                for (int round = 1; round <= 2; round++) {
                    Instant committed = Instant.now();
                    writer.inTransaction(tx -> tx.appendTask(NewTask.of("notified", "task")));
                    int expected = round;
                    await(() -> delivered.size() == expected, "event " + round + " arrives");
                    assertThat(Duration.between(committed, Instant.now()))
                            .as("woken by the notification, not by the poll a minute away")
                            .isLessThan(Duration.ofSeconds(30));
                }
                assertThat(subscription.failure()).isEmpty();
            }
        }
    }

    @Test
    void onPostgresqlANotificationThatComesWhileTheSubscriptionIsBusyIsNotLost() throws Exception {
        assumeTrue(TestDatabase.POSTGRES.isConfigured(), "PostgreSQL is not configured");
        String name = "feed-busy-" + UUID.randomUUID().toString().substring(0, 8);
        String url = TestDatabase.POSTGRES.newUrl() + "&ApplicationName=" + name;
        try (JdbcTaskStore store = JdbcTaskStore.builder(url)
                        .eventPollInterval(Duration.ofMinutes(1))
                        .build();
                JdbcTaskStore writer = JdbcTaskStore.open(url)) {
            List<FeedEvent> delivered = new CopyOnWriteArrayList<>();
            AtomicReference<Instant> secondCommitted = new AtomicReference<>();
            FeedListener listener = event -> {
                delivered.add(event);
                if (delivered.size() == 1) {
                    // The second change commits, and its notification arrives, while this subscription is
                    // busy delivering the first: not waiting, so a wake-up given now must be kept.
                    writer.inTransaction(tx -> tx.appendTask(NewTask.of("busy", "second")));
                    secondCommitted.set(Instant.now());
                    sleep(Duration.ofSeconds(1));
                }
            };
            try (FeedSubscription subscription = store.eventFeed().subscribe(0, listener)) {
                await(() -> listeningBackends(name) == 1, "the store listens on a connection of its own");
                writer.inTransaction(tx -> tx.appendTask(NewTask.of("busy", "first")));
                await(() -> delivered.size() == 2, "the second event arrives");
                assertThat(Duration.between(secondCommitted.get(), Instant.now()))
                        .as("woken by the notification that came while it was busy, not by the poll a minute away")
                        .isLessThan(Duration.ofSeconds(30));
                assertThat(subscription.failure()).isEmpty();
            }
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void onPostgresqlPollingOnlyNeverListens() throws Exception {
        assumeTrue(TestDatabase.POSTGRES.isConfigured(), "PostgreSQL is not configured");
        String name = "feed-polling-" + UUID.randomUUID().toString().substring(0, 8);
        String url = TestDatabase.POSTGRES.newUrl() + "&ApplicationName=" + name;
        try (JdbcTaskStore store = JdbcTaskStore.builder(url)
                .pollingOnly()
                .eventPollInterval(Duration.ofMillis(50))
                .build()) {
            List<FeedEvent> delivered = new CopyOnWriteArrayList<>();
            try (FeedSubscription subscription = store.eventFeed().subscribe(0, delivered::add)) {
                store.inTransaction(tx -> tx.appendTask(NewTask.of("polled", "task")));
                await(() -> delivered.size() == 1, "the event arrives by polling");
                assertThat(listeningBackends(name)).isZero();
                assertThat(store.eventFeed().toString()).contains("polling");
                assertThat(subscription.lastDeliveredPosition()).isEqualTo(1);
            }
        }
    }

    @Test
    void aStoreWithoutAFeedAppendsNoEventsAndSaysSo() {
        String url = TestDatabase.H2.newUrl();
        try (JdbcTaskStore store = JdbcTaskStore.builder(url).withoutEventFeed().build()) {
            store.inTransaction(tx -> tx.appendTask(NewTask.of("quiet", "task")));
            assertThatThrownBy(store::eventFeed)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("withoutEventFeed()");
            try (JdbcTaskStore withFeed = JdbcTaskStore.open(url)) {
                assertThat(withFeed.eventFeed().lastPosition()).isZero();
                assertThat(withFeed.findTask(1)).isPresent();
            }
        }
    }

    @Test
    void theBuilderRefusesFeedSettingsOutOfBounds() {
        JdbcTaskStore.Builder builder = JdbcTaskStore.builder(TestDatabase.H2.newUrl());
        assertThatThrownBy(() -> builder.eventRetention(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("eventRetention must be positive");
        assertThatThrownBy(() -> builder.eventPollInterval(Duration.ofMillis(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 10 ms and 1 minute");
        assertThatThrownBy(() -> builder.eventPollInterval(Duration.ofMinutes(2)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.notificationUrl("jdbc:mariadb://localhost/db?password=secret"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PostgreSQL URL")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> builder.eventRetention(null)).isInstanceOf(NullPointerException.class);
    }

    private static int listeningBackends(String applicationName) {
        try (Connection connection = DriverManager.getConnection(TestDatabase.POSTGRES.url());
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE"
                        + " application_name = '" + applicationName + "' AND query LIKE 'LISTEN%'")) {
            rows.next();
            return rows.getInt(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            if (!latch.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("Not released within " + DEADLINE);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Instant end = Instant.now().plus(DEADLINE);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(end)) {
                throw new AssertionError("Timed out after " + DEADLINE + " waiting until " + what);
            }
            Thread.sleep(10);
        }
    }
}
