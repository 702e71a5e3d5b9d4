package dev.taskagent.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.taskagent.event.EventFeed;
import dev.taskagent.event.EventsPrunedException;
import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.FeedSubscription;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.store.AppendResult;
import dev.taskagent.store.PageCursorException;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.SearchCursorException;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskCounts;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.store.spi.DeadLetterPaging;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskCompleteException;
import dev.taskagent.task.TaskExistsException;
import dev.taskagent.task.TaskGraphException;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The conformance kit of the {@link TaskStore} SPI: one JUnit 5 test (or several) per numbered rule of
 * the contract in {@link TaskStore}'s javadoc, named after the rule it checks ({@code
 * ts31_insertAtShiftsLaterOrders} checks TS-3.1). A store that passes the kit can back every feature of
 * taskagent: the extraction agent, step execution and the shared work queue.
 *
 * <h2>How to run it</h2>
 *
 * <p>Add {@code dev.taskagent:taskagent-testkit} and {@code org.junit.jupiter:junit-jupiter} as test
 * dependencies and write a three-line subclass in your test sources:
 *
 * <pre>{@code
 * class MyTaskStoreConformanceTest extends TaskStoreConformanceTest {
 *     @Override
 *     protected TaskStore createStore(Clock clock) {
 *         return new MyTaskStore(myDataSource, clock);
 *     }
 * }
 * }</pre>
 *
 * <p>Run it like any test ({@code ./mvnw test}); each failing test names the rule that the store
 * breaks. The kit calls {@link #createStore(Clock)} before each test, before the subclass's own
 * {@code @BeforeEach} methods, with a {@link MutableClock} that it controls (see {@link #clock()}), and
 * closes the store after each test. The store must take every timestamp from that clock. The kit's
 * clock moves in whole seconds, so a store may keep timestamps at millisecond or microsecond
 * precision.
 *
 * <p>Every test works in sessions and with assignee names of its own (unique per test and per run), so
 * {@code createStore} may hand out stores that share one database between tests, and between runs; it
 * does not have to empty it.
 *
 * <h2>What it checks, and how</h2>
 *
 * <ul>
 *   <li>Rules TS-1.1 to TS-13.6 (TS-12, the work graph, TS-13, search, and TS-5.5 to TS-5.7, request ids on
 *       appends, only when the store has them; TS-1.8, durability,
 *       is checked by {@link DurabilityConformanceTest}), through the {@link TaskTransaction} API and the store's event feed. TS-1.7 (a store may re-run
 *       a unit of work after a transient conflict) is permissive: every unit of work of the kit is
 *       re-runnable, it counts nothing inside a unit of work and records results after commit.
 *   <li>Concurrency with real threads, released together by a barrier, asserting the invariant (each
 *       task claimed exactly once, no append lost, orders contiguous, exactly one of two conflicting
 *       updates wins), never timing. Every wait has a deadline of 60 s, after
 *       which the test fails instead of hanging: a deadlocked store fails, it does not stall the build.
 *   <li>Bad input (TS-8.1): the documented exception, and nothing written.
 *   <li>Verbatim text (TS-5.4): quotes, SQL metacharacters, backslashes, new lines, emoji, a 100 KB
 *       description and texts of exactly {@link Task#MAX_TEXT_LENGTH} characters. Ids and names are
 *       compared exactly: sessions {@code "Alpha"}, {@code "alpha"} and {@code "alpha "} are three
 *       sessions (on MySQL/MariaDB this needs a binary, no-pad collation).
 *   <li>Storage failures (TS-1.6) when the subclass can inject one: override {@link
 *       #storageFault(TaskStore)}; without it that one test is skipped.
 * </ul>
 *
 * <p>The concurrency tests dominate the run time (16 threads claim 3 × 1000 tasks, for one): on a
 * 2-core machine the kit takes about two seconds on the in-memory store. The kit's own tests run it
 * against deliberately broken stores and check that each fails the tests of the rules it breaks.
 *
 * <p>Not thread-safe; JUnit creates one instance per test.
 */
@TestMethodOrder(MethodOrderer.MethodName.class)
public abstract class TaskStoreConformanceTest {

    /** How long any wait of the kit lasts at most, in seconds. */
    private static final int DEADLINE_SECONDS = 60;

    private static final Duration DEADLINE = Duration.ofSeconds(DEADLINE_SECONDS);

    /** The lease of the claims of the rules that are not about leases. */
    private static final Duration LEASE = Duration.ofMinutes(15);

    /** How long a unit of work holds a task locked while another one claims it (TS-7.6). */
    private static final Duration LOCK_HOLD = Duration.ofMillis(300);

    /** The lease of claims that a test lets expire. */
    private static final Duration SHORT_LEASE = Duration.ofMillis(200);

    /**
     * How far the kit lets the clocks of a store on the database's clock and of the test JVM differ, and
     * how exact lease arithmetic must be: 2 seconds.
     */
    private static final Duration CLOCK_SLACK = Duration.ofSeconds(2);

    /**
     * How long a hand-shake waits for the other thread to be seen blocked before it goes on regardless;
     * going on early only weakens that one run of the test, it never fails it.
     */
    private static final Duration HANDSHAKE = Duration.ofSeconds(5);

    /** The order in which claims pick tasks (TS-7.1). */
    private static final Comparator<Task> CLAIM_ORDER = Comparator.comparingInt(Task::priority)
            .reversed()
            .thenComparing(Task::createdAt)
            .thenComparingLong(Task::id);

    /** An id no store hands out: far beyond any sequence a test can reach. */
    private static final long UNKNOWN_ID = Long.MAX_VALUE;

    /** Texts that break stores which do not store strings verbatim. */
    private static final List<String> AWKWARD_TEXTS = List.of(
            "He said \"it's fine\" and left",
            "'; DROP TABLE tasks; --",
            "Robert'); DELETE FROM tasks WHERE ('1'='1",
            "C:\\Users\\me\\new folder\\ and \\\\server\\share \\' \\\" \\n \\",
            "first line\nsecond line\r\nthird line\ttabbed\n",
            "  padded with spaces  ",
            "100% of _wildcards_ [like] this*? and %s %n {0} ${name} {{template}}",
            "Grüße aus Köln, ½ €, 日本語のテキスト, עברית, русский",
            "emoji 🧪🚀, a family 👩‍👩‍👧‍👦 and a flag 🇩🇪",
            "<b>html</b> &amp; <script>alert('x')</script>",
            "NULL",
            "null");

    /** Ids that differ only in case, accents, trailing space or emoji: all distinct. */
    private static final List<String> NEARLY_EQUAL_IDS =
            List.of("Alpha", "alpha", "ALPHA", "alpha ", "alphá", "alpha 🧪", "alpha 🚀");

    private static final String RUN_ID = UUID.randomUUID().toString().substring(0, 8);
    private static final AtomicLong NAME_SEQUENCE = new AtomicLong();

    private MutableClock clock;
    private TaskStore store;

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected TaskStoreConformanceTest() {}

    /**
     * Creates the store under test, empty or not; called before each test.
     *
     * @param clock the clock the store must take every timestamp from; a {@link MutableClock} that the
     *     kit moves
     * @return a new store (or a new handle on a shared one); the kit closes it after the test
     */
    protected abstract TaskStore createStore(Clock clock);

    /**
     * Returns a switch that makes the store's storage fail, to check TS-1.6: for a JDBC store, for
     * example, a {@code DataSource} wrapper whose connections throw {@code SQLException} while the fault
     * is on. The default returns empty, and the TS-1.6 test is skipped.
     *
     * @param store the store under test, as {@link #createStore(Clock)} returned it
     * @return the switch, or empty when the subclass cannot inject storage failures
     */
    protected Optional<StorageFault> storageFault(TaskStore store) {
        return Optional.empty();
    }

    /**
     * Returns the clock the store under test was given; tests move it.
     *
     * @return the clock
     */
    protected final MutableClock clock() {
        return clock;
    }

    /**
     * Returns the store under test, for subclasses that add tests of their own.
     *
     * @return the store
     */
    protected final TaskStore store() {
        return store;
    }

    /** Turns a storage failure on and off (TS-1.6). Implementations are thread-safe. */
    public interface StorageFault {
        /** Makes every following use of the storage fail, until {@link #clear()}. */
        void inject();

        /** Makes the storage work again. */
        void clear();
    }

    @BeforeEach
    final void createStoreUnderTest() {
        clock = MutableClock.standard();
        store = Objects.requireNonNull(createStore(clock), "createStore(Clock) returned null");
    }

    @AfterEach
    final void closeStoreUnderTest() {
        if (store != null) {
            store.close();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // TS-1 Transactions
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts11_committedUnitOfWorkKeepsEveryWriteAndReturnsItsResult() {
        String session = session("commit");
        String result = store.inTransaction(tx -> {
            Task first = tx.appendTask(NewTask.of(session, "first"));
            tx.appendTask(NewTask.of(session, "second"));
            tx.appendProgress(first.id(), "started");
            tx.linkMessagesToPlanningSection(session, List.of("plan-1"));
            return "the unit's result";
        });

        assertThat(result).isEqualTo("the unit's result");
        List<Task> tasks = store.listTasks(session);
        assertThat(descriptions(tasks)).containsExactly("first", "second");
        assertThat(tasks.get(0).progresses()).containsExactly("started");
        assertThat(planning(session)).containsExactly("plan-1");
        Object nothing = store.inTransaction(tx -> null);
        assertThat(nothing).isNull();
    }

    @Test
    void ts12_exceptionRollsBackInserts() {
        String session = session("rollback-insert");
        String otherSession = session("rollback-insert-other");
        Task kept = append(session, "kept");
        List<Long> rolledBackIds = new ArrayList<>();
        KitFailure failure = new KitFailure("the unit of work fails after inserting");

        Throwable thrown = catchThrowable(() -> store.inTransaction(tx -> {
            rolledBackIds.clear();
            rolledBackIds.add(tx.insertTask(NewTask.of(session, "inserted at the start"), 0)
                    .id());
            rolledBackIds.add(tx.appendTask(NewTask.of(session, "appended")).id());
            rolledBackIds.add(tx.appendTask(NewTask.of(otherSession, "in another session"))
                    .id());
            throw failure;
        }));

        assertThat(thrown)
                .as("TS-1.2: the exception reaches the caller unchanged")
                .isSameAs(failure);
        assertThat(store.listTasks(session)).containsExactly(kept);
        assertThat(store.listTasks(otherSession)).isEmpty();
        for (long id : rolledBackIds) {
            assertThat(store.findTask(id)).as("rolled-back task %d", id).isEmpty();
        }
    }

    @Test
    void ts12_exceptionRollsBackUpdates() {
        String session = session("rollback-update");
        String agent = agent("rollback-update");
        Task before = append(NewTask.builder(session, "unchanged")
                .assignee(agent)
                .priority(1)
                .steps("- [ ] one")
                .build());
        clock.advance(Duration.ofSeconds(1));
        KitFailure failure = new KitFailure("the unit of work fails after updating");

        Throwable thrown = catchThrowable(() -> store.inTransaction(tx -> {
            tx.updateTask(TaskUpdate.of(before.id())
                    .description("changed")
                    .status(TaskStatus.SUCCESS)
                    .priority(9)
                    .assignee(agent("someone-else"))
                    .userPreference("changed preference")
                    .steps(null)
                    .currentStep(1)
                    .build());
            tx.updateTask(TaskUpdate.of(before.id()).archived(true).build());
            throw failure;
        }));

        assertThat(thrown).isSameAs(failure);
        assertThat(find(before.id())).isEqualTo(before);
        assertThat(store.claimNext(agent, LEASE))
                .as("the rolled-back reassignment and archiving leave the task in its queue")
                .map(Task::id)
                .contains(before.id());
    }

    @Test
    void ts12_exceptionRollsBackAppends() {
        Task before = append(session("rollback-append"), "task");
        clock.advance(Duration.ofSeconds(1));
        KitFailure failure = new KitFailure("the unit of work fails after appending");

        Throwable thrown = catchThrowable(() -> store.inTransaction(tx -> {
            tx.appendProgress(before.id(), "progress");
            tx.addComment(before.id(), "author", "comment");
            tx.addLink(before.id(), "https://example.org", "link", "author");
            throw failure;
        }));

        assertThat(thrown).isSameAs(failure);
        assertThat(find(before.id())).isEqualTo(before);
    }

    @Test
    void ts12_exceptionRollsBackMessageLinks() {
        String session = session("rollback-links");
        Task holder = append(session, "holds m1");
        Task other = append(session, "holds nothing");
        store.inTransaction(tx -> {
            tx.linkMessages(holder.id(), List.of("m1"));
            tx.linkMessagesToPlanningSection(session, List.of("p1"));
            return null;
        });
        Task holderBefore = find(holder.id());
        Task otherBefore = find(other.id());
        KitFailure failure = new KitFailure("the unit of work fails after linking");

        Throwable thrown = catchThrowable(() -> store.inTransaction(tx -> {
            tx.linkMessages(other.id(), List.of("m1", "p1", "m2"));
            tx.linkMessagesToPlanningSection(session, List.of("m3"));
            tx.linkMessages(holder.id(), List.of("m3"));
            throw failure;
        }));

        assertThat(thrown).isSameAs(failure);
        assertThat(find(holder.id())).isEqualTo(holderBefore);
        assertThat(find(other.id())).isEqualTo(otherBefore);
        assertThat(planning(session)).containsExactly("p1");
    }

    @Test
    void ts12_exceptionRollsBackClaims() {
        String session = session("rollback-claim");
        String agent = agent("rollback-claim");
        Task first = append(
                NewTask.builder(session, "first").assignee(agent).priority(2).build());
        Task second = append(
                NewTask.builder(session, "second").assignee(agent).priority(1).build());
        KitFailure failure = new KitFailure("the unit of work fails after claiming");

        Throwable thrown = catchThrowable(() -> store.inTransaction(tx -> {
            tx.claimNext(agent, LEASE);
            tx.claimNext(agent, LEASE);
            throw failure;
        }));

        assertThat(thrown).isSameAs(failure);
        assertThat(find(first.id())).isEqualTo(first);
        assertThat(find(second.id())).isEqualTo(second);
        assertThat(store.claimNext(agent, LEASE)).map(Task::id).contains(first.id());
    }

    @Test
    void ts12_errorIsRethrownAsIsAndRollsBack() {
        String session = session("rollback-error");
        KitError error = new KitError("an Error thrown by the unit of work");

        Throwable thrown = catchThrowable(() -> store.inTransaction(tx -> {
            tx.appendTask(NewTask.of(session, "rolled back"));
            throw error;
        }));

        assertThat(thrown).isSameAs(error);
        assertThat(store.listTasks(session)).isEmpty();
    }

    @Test
    void ts12_checkedExceptionThrownSneakilyIsRethrownAsIsAndRollsBack() {
        String session = session("rollback-checked");
        java.io.IOException checked = new java.io.IOException("a checked exception thrown without declaring it");

        Throwable thrown = catchThrowable(() -> store.inTransaction(tx -> {
            tx.appendTask(NewTask.of(session, "rolled back"));
            // Kotlin, Groovy and Lombok's @SneakyThrows throw checked exceptions the compiler never saw.
            return TaskStoreConformanceTest.<RuntimeException>sneakyThrow(checked);
        }));

        assertThat(thrown)
                .as("TS-1.2: the exception reaches the caller unchanged")
                .isSameAs(checked);
        assertThat(store.listTasks(session))
                .as("TS-1.2: nothing of the unit of work is kept")
                .isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> Task sneakyThrow(Throwable throwable) throws E {
        throw (E) throwable;
    }

    @Test
    void ts12_exceptionThrownByTheStoreRollsBackTheUnitOfWorkItLeaves() {
        String session = session("rollback-store-exception");
        Task target = append(session, "target");

        Throwable notFound = catchThrowable(() -> store.inTransaction(tx -> {
            tx.appendTask(NewTask.of(session, "rolled back by the not-found"));
            tx.appendProgress(target.id(), "rolled back by the not-found");
            return tx.appendProgress(UNKNOWN_ID, "to nowhere");
        }));
        Throwable badArgument = catchThrowable(() -> store.inTransaction(tx -> {
            tx.appendTask(NewTask.of(session, "rolled back by the bad argument"));
            tx.appendProgress(target.id(), "rolled back by the bad argument");
            return tx.appendProgress(target.id(), null);
        }));

        assertThat(notFound).isInstanceOf(TaskNotFoundException.class);
        assertThat(badArgument).isInstanceOf(NullPointerException.class);
        assertThat(store.listTasks(session)).containsExactly(target);
    }

    @Test
    void ts13_otherTransactionsNeverSeeUncommittedWrites() throws InterruptedException {
        String session = session("uncommitted");
        Task committed = append(session, "committed before the writer started");
        CountDownLatch written = new CountDownLatch(1);
        AtomicBoolean reading = new AtomicBoolean();
        AtomicReference<ReadSnapshot> seen = new AtomicReference<>();
        AtomicReference<Throwable> readerFailure = new AtomicReference<>();
        Thread reader = new Thread(
                () -> {
                    try {
                        if (!written.await(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
                            throw new AssertionError("the writer did not write within the deadline");
                        }
                        reading.set(true);
                        seen.set(store.inTransaction(tx -> new ReadSnapshot(
                                tx.listTasks(session),
                                tx.findTask(committed.id()).orElseThrow(),
                                tx.planningMessageIds(session))));
                    } catch (Throwable e) {
                        readerFailure.set(e);
                    }
                },
                "taskstore-kit-reader");
        reader.setDaemon(true);
        reader.start();
        KitFailure rollback = new KitFailure("the writer rolls back");

        Throwable thrown = catchThrowable(() -> store.inTransaction(tx -> {
            tx.appendTask(NewTask.of(session, "uncommitted task"));
            tx.appendProgress(committed.id(), "uncommitted progress");
            tx.linkMessagesToPlanningSection(session, List.of("uncommitted message"));
            written.countDown();
            // The reader reads now, while this unit of work is open; a store that locks makes it wait.
            KitThreads.awaitQuietly(() -> reading.get() && KitThreads.finishedOrWaiting(reader), HANDSHAKE);
            throw rollback;
        }));
        reader.join(DEADLINE.toMillis());

        assertThat(thrown).isSameAs(rollback);
        assertThat(reader.isAlive()).as("the reader finished").isFalse();
        assertThat(readerFailure.get()).as("the reader's failure").isNull();
        ReadSnapshot snapshot = seen.get();
        assertThat(snapshot.tasks()).as("tasks seen by the reader").containsExactly(committed);
        assertThat(snapshot.task().progresses())
                .as("progress seen by the reader")
                .isEmpty();
        assertThat(snapshot.planning())
                .as("planning section seen by the reader")
                .isEmpty();
        assertThat(store.listTasks(session)).containsExactly(committed);
    }

    @Test
    void ts13_otherTransactionsNeverSeePartOfAUnitOfWork() {
        String session = session("atomic-visibility");
        int units = 30;
        int tasksPerUnit = 3;
        AtomicBoolean writerDone = new AtomicBoolean();

        List<List<Integer>> sizesSeen = KitThreads.runTogether(3, "atomic-visibility", DEADLINE, worker -> {
            if (worker == 0) {
                try {
                    for (int unit = 0; unit < units; unit++) {
                        int unitNumber = unit;
                        store.inTransaction(tx -> {
                            for (int index = 0; index < tasksPerUnit; index++) {
                                tx.appendTask(NewTask.of(session, "unit " + unitNumber + " task " + index));
                                Thread.yield();
                            }
                            return null;
                        });
                    }
                } finally {
                    writerDone.set(true);
                }
                return List.of();
            }
            List<Integer> sizes = new ArrayList<>();
            while (!writerDone.get() && sizes.size() < 20_000) {
                List<Task> tasks = store.listTasks(session);
                assertOrdersContiguous(tasks);
                sizes.add(tasks.size());
                Thread.yield(); // leave the writer room on stores that serialise units of work
            }
            return sizes;
        });

        List<Integer> torn = sizesSeen.stream()
                .flatMap(List::stream)
                .filter(size -> size % tasksPerUnit != 0)
                .toList();
        assertThat(torn)
                .as("task counts seen by readers that are not a multiple of %d (part of a unit of work)", tasksPerUnit)
                .isEmpty();
        assertThat(store.listTasks(session)).hasSize(units * tasksPerUnit);
    }

    @Test
    void ts14_transactionIsUnusableAfterItsUnitOfWorkReturned() {
        String session = session("leaked-transaction");
        AtomicReference<TaskTransaction> leaked = new AtomicReference<>();
        Task task = store.inTransaction(tx -> {
            leaked.set(tx);
            return tx.appendTask(NewTask.of(session, "task"));
        });
        AtomicReference<TaskTransaction> leakedFromRollback = new AtomicReference<>();
        catchThrowable(() -> store.inTransaction(tx -> {
            leakedFromRollback.set(tx);
            throw new KitFailure("rolled back");
        }));

        for (TaskTransaction tx : List.of(leaked.get(), leakedFromRollback.get())) {
            assertThatThrownBy(() -> tx.findTask(task.id())).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> tx.listTasks(session)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> tx.appendProgress(task.id(), "late")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> tx.appendTask(NewTask.of(session, "late")))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> tx.claimNext("anyone", LEASE)).isInstanceOf(IllegalStateException.class);
        }
        assertThat(store.listTasks(session)).containsExactly(task);
    }

    @Test
    void ts14_transactionIsUnusableFromAnotherThread() {
        Task task = append(session("foreign-thread"), "task");

        Throwable fromOtherThread = store.inTransaction(tx -> KitThreads.callOnOtherThread(
                "foreign-thread", DEADLINE, () -> catchThrowable(() -> tx.appendProgress(task.id(), "foreign"))));

        assertThat(fromOtherThread).isInstanceOf(IllegalStateException.class);
        assertThat(find(task.id())).isEqualTo(task);
    }

    @Test
    void ts15_nestedInTransactionIsRefusedAndTheOuterUnitStaysUsable() {
        String session = session("nested");
        record Nested(Throwable write, Throwable read) {}

        Nested nested = KitThreads.callOnOtherThread(
                "nested",
                DEADLINE,
                () -> store.inTransaction(tx -> {
                    Task first = tx.appendTask(NewTask.of(session, "outer, before"));
                    Throwable write = catchThrowable(
                            () -> store.inTransaction(inner -> inner.appendTask(NewTask.of(session, "nested"))));
                    Throwable read = catchThrowable(() -> store.findTask(first.id()));
                    tx.appendTask(NewTask.of(session, "outer, after"));
                    return new Nested(write, read);
                }));

        assertThat(nested.write()).isInstanceOf(IllegalStateException.class);
        assertThat(nested.read()).isInstanceOf(IllegalStateException.class);
        assertThat(descriptions(store.listTasks(session))).containsExactly("outer, before", "outer, after");
    }

    @Test
    void ts16_storageFailureSurfacesAsTaskStoreExceptionAndRollsBack() {
        Optional<StorageFault> maybeFault = storageFault(store);
        assumeTrue(
                maybeFault.isPresent(),
                "override storageFault(TaskStore) to check TS-1.6 against a real storage failure");
        StorageFault fault = maybeFault.get();
        String session = session("storage-fault");
        Task before = append(session, "written before the fault");
        Throwable duringUnit;
        Throwable afterFault;
        try {
            duringUnit = catchThrowable(() -> store.inTransaction(tx -> {
                tx.appendTask(NewTask.of(session, "written before the storage failed"));
                fault.inject();
                return tx.appendProgress(before.id(), "written while the storage fails");
            }));
            afterFault = catchThrowable(() -> store.listTasks(session));
        } finally {
            fault.clear();
        }

        assertThat(duringUnit).isInstanceOf(TaskStoreException.class);
        assertThat(afterFault).isInstanceOf(TaskStoreException.class);
        assertThat(store.listTasks(session)).containsExactly(before);
        assertThat(append(session, "written after the repair").order()).isEqualTo(2);
    }

    // ---------------------------------------------------------------------------------------------
    // TS-2 Reads
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts21_findTaskReturnsEveryField() {
        String session = session("every-field");
        String first = agent("first");
        String second = agent("second");
        String creator = agent("creator");
        Task created = insert(
                NewTask.builder(session, "Plan the offsite")
                        .priority(7)
                        .assignee(first)
                        .createdBy(creator)
                        .steps("- [ ] book the venue\n- [ ] invite everyone\n")
                        .build(),
                0);
        Instant createdAt = clock.instant();
        clock.advance(Duration.ofSeconds(5));
        Instant changedAt = clock.instant();
        long id = created.id();

        Task last = store.inTransaction(tx -> {
            tx.updateTask(TaskUpdate.of(id)
                    .status(TaskStatus.RUNNING)
                    .userPreference("vegetarian food")
                    .currentStep(1)
                    .assignee(second)
                    .previousAssignee(first)
                    .archived(true)
                    .build());
            tx.appendProgress(id, "booked the venue");
            tx.addComment(id, first, "handing over to you");
            tx.addLink(id, "https://example.org/venue", "the venue", second);
            return tx.linkMessages(id, List.of("msg-1", "msg-2"));
        });

        assertThat(store.findTask(id)).contains(last);
        assertThat(store.<Optional<Task>>inTransaction(tx -> tx.findTask(id))).contains(last);
        assertThat(last.id()).isEqualTo(id);
        assertThat(last.sessionId()).isEqualTo(session);
        assertThat(last.order()).isEqualTo(1);
        assertThat(last.description()).isEqualTo("Plan the offsite");
        assertThat(last.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(last.progresses()).containsExactly("booked the venue");
        assertThat(last.userPreferences()).containsExactly("vegetarian food");
        assertThat(last.steps()).isEqualTo("- [ ] book the venue\n- [ ] invite everyone\n");
        assertThat(last.currentStep()).isEqualTo(1);
        assertThat(last.priority()).isEqualTo(7);
        assertThat(last.assignee()).isEqualTo(second);
        assertThat(last.previousAssignee()).isEqualTo(first);
        assertThat(last.createdBy()).isEqualTo(creator);
        assertThat(last.archived()).isTrue();
        assertThat(last.comments()).containsExactly(new Comment(first, "handing over to you", changedAt));
        assertThat(last.links()).containsExactly(new Link("https://example.org/venue", "the venue", second, changedAt));
        assertThat(last.messageIds()).containsExactly("msg-1", "msg-2");
        assertThat(last.createdAt()).isEqualTo(createdAt);
        assertThat(last.updatedAt()).isEqualTo(changedAt);
        assertThat(last.version()).isEqualTo(6);
    }

    @Test
    void ts21_unknownTaskIdFindsNothing() {
        append(session("unknown-id"), "some task");

        assertThat(store.findTask(UNKNOWN_ID)).isEmpty();
        assertThat(store.<Optional<Task>>inTransaction(tx -> tx.findTask(UNKNOWN_ID)))
                .isEmpty();
    }

    @Test
    void ts22_listTasksReturnsTheSessionsTasksInOrder() {
        String session = session("list");
        String otherSession = session("list-other");
        append(session, "b");
        append(otherSession, "other session");
        insert(NewTask.of(session, "a"), 0);
        append(session, "d");
        insert(NewTask.of(session, "c"), 2);
        store.inTransaction(tx -> {
            tx.linkMessagesToPlanningSection(session, List.of("planning message"));
            return null;
        });

        List<Task> tasks = store.listTasks(session);

        assertThat(descriptions(tasks)).containsExactly("a", "b", "c", "d");
        assertOrdersContiguous(tasks);
        assertThat(tasks).allSatisfy(task -> assertThat(task.sessionId()).isEqualTo(session));
        assertThat(store.<List<Task>>inTransaction(tx -> tx.listTasks(session))).isEqualTo(tasks);
        assertThat(descriptions(store.listTasks(otherSession))).containsExactly("other session");
    }

    @Test
    void ts22_unknownSessionListsNoTasks() {
        append(session("known"), "task");

        assertThat(store.listTasks(session("unknown"))).isEmpty();
    }

    @Test
    void ts22_sessionIdsAreComparedExactly() {
        String prefix = session("exact-");
        for (String variant : NEARLY_EQUAL_IDS) {
            append(prefix + variant, "task of '" + variant + "'");
        }

        for (String variant : NEARLY_EQUAL_IDS) {
            assertThat(descriptions(store.listTasks(prefix + variant)))
                    .as("tasks of session '%s'", prefix + variant)
                    .containsExactly("task of '" + variant + "'");
        }
    }

    @Test
    void ts23_findTaskByOrderReturnsTheTaskAtThatPosition() {
        String session = session("by-order");
        Task first = append(session, "first");
        Task second = append(session, "second");
        Task third = append(session, "third");

        Map<Integer, Optional<Task>> found = store.inTransaction(tx -> {
            Map<Integer, Optional<Task>> result = new LinkedHashMap<>();
            for (int order = 0; order <= 4; order++) {
                result.put(order, tx.findTaskByOrder(session, order));
            }
            return result;
        });

        assertThat(found.get(1)).contains(first);
        assertThat(found.get(2)).contains(second);
        assertThat(found.get(3)).contains(third);
        assertThat(found.get(0)).isEmpty();
        assertThat(found.get(4)).isEmpty();
        assertThat(store.<Optional<Task>>inTransaction(tx -> tx.findTaskByOrder(session("by-order-unknown"), 1)))
                .isEmpty();
    }

    @Test
    void ts24_unitOfWorkReadsItsOwnWrites() {
        String session = session("own-writes");
        String agent = agent("own-writes");

        Task claimed = store.inTransaction(tx -> {
            Task a = tx.appendTask(NewTask.builder(session, "a").assignee(agent).build());
            assertThat(tx.findTask(a.id())).contains(a);
            tx.insertTask(NewTask.of(session, "b"), 0);
            assertThat(descriptions(tx.listTasks(session))).containsExactly("b", "a");
            assertThat(tx.findTaskByOrder(session, 2)).map(Task::id).contains(a.id());
            Task progressed = tx.appendProgress(a.id(), "progress");
            assertThat(tx.findTask(a.id())).contains(progressed);
            Task updated = tx.updateTask(TaskUpdate.of(a.id()).priority(3).build());
            assertThat(tx.findTask(a.id())).contains(updated);
            assertThat(tx.listQueue(agent)).containsExactly(updated);
            Task running = tx.claimNext(agent, LEASE).orElseThrow();
            assertThat(tx.findTask(a.id())).contains(running);
            assertThat(tx.claimNext(agent, LEASE)).isEmpty();
            tx.linkMessagesToPlanningSection(session, List.of("p1"));
            assertThat(tx.planningMessageIds(session)).containsExactly("p1");
            Task linked = tx.linkMessages(a.id(), List.of("p1"));
            assertThat(tx.planningMessageIds(session)).isEmpty();
            assertThat(tx.findTask(a.id())).contains(linked);
            return running;
        });

        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.priority()).isEqualTo(3);
        assertThat(claimed.progresses()).containsExactly("progress");
    }

    @Test
    void ts25_listQueueOrdersByPriorityThenCreatedAtThenId() {
        String session = session("queue-order");
        String agent = agent("queue-order");
        insertFor(session, agent, "low, old", 1, 0);
        insertFor(session, agent, "high, old, lower id", 5, 0);
        insertFor(session, agent, "high, old, higher id", 5, Integer.MAX_VALUE);
        clock.advance(Duration.ofSeconds(1));
        insertFor(session, agent, "high, new", 5, 0);
        insertFor(session, agent, "middle", 3, 1);
        insertFor(session, agent, "negative", -2, 0);
        Task lowOld = store.listTasks(session).stream()
                .filter(task -> task.description().equals("low, old"))
                .findFirst()
                .orElseThrow();
        clock.advance(Duration.ofSeconds(1));
        // A later update changes updatedAt, never the place in the queue.
        store.inTransaction(tx -> tx.appendProgress(lowOld.id(), "touched last"));

        List<Task> queue = queue(agent);

        assertThat(descriptions(queue))
                .containsExactly(
                        "high, old, lower id", "high, old, higher id", "high, new", "middle", "low, old", "negative");
        assertThat(queue).isSortedAccordingTo(CLAIM_ORDER);
    }

    @Test
    void ts25_listQueueHoldsEveryStatusButNoArchivedOrForeignTask() {
        String session = session("queue-filter");
        String agent = agent("queue-filter");
        Task pending = insertFor(session, agent, "pending", 0, Integer.MAX_VALUE);
        Task running = insertFor(session, agent, "running", 0, Integer.MAX_VALUE);
        Task success = insertFor(session, agent, "success", 0, Integer.MAX_VALUE);
        Task failed = insertFor(session, agent, "failed", 0, Integer.MAX_VALUE);
        Task archived = insertFor(session, agent, "archived", 9, Integer.MAX_VALUE);
        insertFor(session, agent("someone-else"), "someone else's", 9, Integer.MAX_VALUE);
        append(session, "nobody's");
        store.inTransaction(tx -> {
            tx.updateTask(TaskUpdate.of(running.id()).status(TaskStatus.RUNNING).build());
            tx.updateTask(TaskUpdate.of(success.id()).status(TaskStatus.SUCCESS).build());
            tx.updateTask(TaskUpdate.of(failed.id()).status(TaskStatus.FAILED).build());
            tx.updateTask(TaskUpdate.of(archived.id()).archived(true).build());
            return null;
        });

        List<Task> queue = queue(agent);

        assertThat(ids(queue)).containsExactly(pending.id(), running.id(), success.id(), failed.id());
        assertThat(queue)
                .map(Task::status)
                .containsExactly(TaskStatus.PENDING, TaskStatus.RUNNING, TaskStatus.SUCCESS, TaskStatus.FAILED);
        assertThat(queue(agent("nobody"))).isEmpty();
    }

    @Test
    void ts26_queuePagesKeepClaimOrderAndTheFiltersAndCountWhatRemains() {
        assumeQueuePaging();
        String session = session("queue-pages");
        String agent = agent("queue-pages");
        for (int i = 0; i < 9; i++) {
            insert(
                    NewTask.builder(session, "task " + i)
                            .assignee(agent)
                            .priority(i % 3)
                            .tags(i % 2 == 0 ? List.of("even") : List.of())
                            .build(),
                    Integer.MAX_VALUE);
            if (i % 4 == 0) {
                clock.advance(Duration.ofSeconds(1));
            }
        }
        List<Task> before = queue(agent);
        store.inTransaction(tx -> {
            tx.updateTask(
                    TaskUpdate.of(before.get(0).id()).status(TaskStatus.RUNNING).build());
            tx.updateTask(
                    TaskUpdate.of(before.get(3).id()).status(TaskStatus.SUCCESS).build());
            tx.updateTask(TaskUpdate.of(before.get(5).id()).archived(true).build());
            return null;
        });
        insertFor(session, agent("someone-else"), "someone else's", 9, Integer.MAX_VALUE);
        List<Task> whole = queue(agent);

        for (QueueQuery query : List.of(
                QueueQuery.of(agent),
                QueueQuery.of(agent).ready(),
                QueueQuery.of(agent).withTag("even"))) {
            List<Task> expected = whole.stream().filter(query::keeps).toList();
            List<Task> paged = new ArrayList<>();
            TaskPage page = store.listQueuePage(query.withLimit(2));
            long expectedRemaining = expected.size();
            while (true) {
                assertThat(page.tasks()).as("page of %s", query).hasSizeLessThanOrEqualTo(2);
                expectedRemaining -= page.tasks().size();
                assertThat(page.remaining())
                        .as("remaining after a page of %s", query)
                        .isEqualTo(expectedRemaining);
                assertThat(page.nextCursor().isPresent()).isEqualTo(expectedRemaining > 0);
                paged.addAll(page.tasks());
                if (!page.hasMore()) {
                    break;
                }
                page = store.listQueuePage(query.withLimit(2).withCursor(page.cursor()));
            }
            assertThat(ids(paged)).as("the pages of %s", query).containsExactlyElementsOf(ids(expected));
            assertThat(paged).allSatisfy(task -> assertThat(task).isEqualTo(find(task.id())));
        }
        assertThat(ids(store.listQueuePage(QueueQuery.of(agent).ready().withLimit(QueueQuery.MAX_LIMIT))
                        .tasks()))
                .doesNotContain(
                        before.get(0).id(), before.get(3).id(), before.get(5).id());
        assertThat(store.listQueuePage(QueueQuery.of(agent("nobody")))).isEqualTo(TaskPage.empty());
    }

    @Test
    void ts27_queuePagingReturnsEveryTaskOnceWhileTasksOfAnyPriorityAreCreatedBetweenPages() {
        assumeQueuePaging();
        String session = session("queue-stable");
        String agent = agent("queue-stable");
        Set<Long> before = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            before.add(insertFor(session, agent, "old " + i, i % 4, i % 3 == 0 ? 0 : Integer.MAX_VALUE)
                    .id());
        }
        QueueQuery query = QueueQuery.of(agent).withLimit(3);
        List<Long> seen = new ArrayList<>();
        TaskPage page = store.listQueuePage(query);
        long total = page.tasks().size() + page.remaining();
        int created = 0;
        while (true) {
            seen.addAll(ids(page.tasks()));
            assertThat(page.tasks().size() + page.remaining()).isLessThanOrEqualTo(total);
            total = page.remaining();
            if (!page.hasMore()) {
                break;
            }
            // Before, at and after the page's place in claim order: none may shift a task onto a page read.
            for (int priority : new int[] {9, 2, 1, -5}) {
                insertFor(session, agent, "new " + created++, priority, 0);
            }
            page = store.listQueuePage(query.withCursor(page.cursor()));
        }

        assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(before);
        assertThat(queue(agent)).hasSize(8 + created);
    }

    @Test
    void ts27_queueCursorsOfAnotherQueryChangedOrCutAreRefusedAndWriteNothing() {
        assumeQueuePaging();
        String session = session("queue-cursors");
        String agent = agent("queue-cursors");
        for (int i = 0; i < 3; i++) {
            insertFor(session, agent, "task " + i, 0, Integer.MAX_VALUE);
        }
        Task task = find(append(session, "unrelated").id());
        QueueQuery query = QueueQuery.of(agent).withLimit(1);
        String cursor = store.listQueuePage(query).cursor();
        assertThat(cursor).isNotNull();
        char last = cursor.charAt(cursor.length() - 1);
        String changed = cursor.substring(0, cursor.length() - 1) + (last == 'A' ? 'B' : 'A');
        String middleChanged = cursor.substring(0, 5) + (cursor.charAt(5) == 'x' ? 'y' : 'x') + cursor.substring(6);

        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put(
                "other agent",
                tx -> tx.listQueuePage(QueueQuery.of(agent("other")).withCursor(cursor)));
        calls.put("other filter", tx -> tx.listQueuePage(query.ready().withCursor(cursor)));
        calls.put("tag", tx -> tx.listQueuePage(query.withTag("x").withCursor(cursor)));
        calls.put("last character changed", tx -> tx.listQueuePage(query.withCursor(changed)));
        calls.put("a character changed", tx -> tx.listQueuePage(query.withCursor(middleChanged)));
        calls.put("cut", tx -> tx.listQueuePage(query.withCursor(cursor.substring(0, cursor.length() / 2))));
        calls.put("one character longer", tx -> tx.listQueuePage(query.withCursor(cursor + "A")));
        calls.put("not base64", tx -> tx.listQueuePage(query.withCursor("!!not a cursor!!")));
        calls.put(
                "a search's cursor",
                tx -> tx.listQueuePage(query.withCursor("AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")));
        assertRefusedWithoutWriting(calls, PageCursorException.class, session, task);
        assertThat(store.listQueuePage(query.withLimit(3).withCursor(cursor)).tasks())
                .hasSize(2);
    }

    @Test
    void ts28_deadLettersAreTheFailedTasksPastTheirLastAttemptByIdAndCounted() {
        assumeDeadLetters();
        String session = session("dead-letters");
        String agent = agent("dead-letters");
        Task ownLimit = failedOnce(NewTask.builder(session, "own limit of one")
                .assignee(agent)
                .maxAttempts(1)
                .build());
        Task attemptsLeft = failedOnce(NewTask.builder(session, "failed at attempt 1 of 3")
                .assignee(agent)
                .maxAttempts(3)
                .build());
        Task defaultLimit = failedOnce(
                NewTask.builder(session, "the default limit").assignee(agent).build());
        Task archived = failedOnce(NewTask.builder(session, "archived dead letter")
                .assignee(agent)
                .maxAttempts(1)
                .build());
        store.inTransaction(
                tx -> tx.updateTask(TaskUpdate.of(archived.id()).archived(true).build()));
        Task succeeded =
                append(NewTask.builder(session, "succeeded").assignee(agent).build());
        Task claimed = store.claimNext(agent, LEASE).orElseThrow();
        store.inTransaction(tx -> tx.complete(claimed.id(), agent, claimed.attempt(), TaskStatus.SUCCESS));
        Task pending =
                append(NewTask.builder(session, "pending").assignee(agent).build());
        Task last = failedOnce(NewTask.builder(session, "another dead letter")
                .maxAttempts(1)
                .assignee(agent("dead-letters-other"))
                .build());

        List<Task> listed = walkDeadLetters(1, 2);

        assertThat(ids(listed))
                .as("dead letters with a default of one attempt")
                .doesNotHaveDuplicates()
                .isSorted()
                .containsSubsequence(ownLimit.id(), defaultLimit.id(), last.id())
                .doesNotContain(attemptsLeft.id(), archived.id(), succeeded.id(), pending.id());
        assertThat(listed).allSatisfy(task -> assertThat(DeadLetterPaging.isDeadLetter(task, 1))
                .as("task %s is a dead letter", task.id())
                .isTrue());
        assertThat(listed.stream().filter(task -> task.sessionId().equals(session)))
                .allSatisfy(task -> assertThat(task).isEqualTo(find(task.id())));
        assertThat(ids(walkDeadLetters(2, 100)))
                .as("dead letters with a default of two attempts")
                .contains(ownLimit.id(), last.id())
                .doesNotContain(defaultLimit.id(), attemptsLeft.id());
    }

    @Test
    void ts28_deadLetterPagesListWhatFailedBeforeTheFirstOnceAndRefuseOtherCursors() {
        assumeDeadLetters();
        String session = session("dead-letter-pages");
        String agent = agent("dead-letter-pages");
        Set<Long> before = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            before.add(failedOnce(NewTask.builder(session, "dead " + i)
                            .assignee(agent)
                            .maxAttempts(1)
                            .build())
                    .id());
        }
        List<Long> seen = new ArrayList<>();
        Set<Long> later = new HashSet<>();
        TaskPage page = store.inTransaction(tx -> tx.listDeadLetters(1, 2, null));
        String firstCursor = page.cursor();
        assertThat(firstCursor).isNotNull();
        while (true) {
            seen.addAll(ids(page.tasks()));
            if (!page.hasMore()) {
                break;
            }
            later.add(failedOnce(NewTask.builder(session, "failed between the pages")
                            .assignee(agent)
                            .maxAttempts(1)
                            .build())
                    .id());
            String cursor = page.cursor();
            page = store.inTransaction(tx -> tx.listDeadLetters(1, 2, cursor));
        }
        assertThat(seen).doesNotHaveDuplicates().containsAll(before).doesNotContainAnyElementsOf(later);

        Task task = find(append(session, "unrelated").id());
        char lastCharacter = firstCursor.charAt(firstCursor.length() - 1);
        String changed = firstCursor.substring(0, firstCursor.length() - 1) + (lastCharacter == 'A' ? 'B' : 'A');
        String queueCursor =
                store.listQueuePage(QueueQuery.of(agent).withLimit(1)).cursor();
        Map<String, Call> cursors = new LinkedHashMap<>();
        cursors.put("another default", tx -> tx.listDeadLetters(2, 2, firstCursor));
        cursors.put("last character changed", tx -> tx.listDeadLetters(1, 2, changed));
        cursors.put("cut", tx -> tx.listDeadLetters(1, 2, firstCursor.substring(0, firstCursor.length() / 2)));
        cursors.put("not base64", tx -> tx.listDeadLetters(1, 2, "!!not a cursor!!"));
        if (queueCursor != null) {
            cursors.put("a queue's cursor", tx -> tx.listDeadLetters(1, 2, queueCursor));
        }
        assertRefusedWithoutWriting(cursors, PageCursorException.class, session, task);
        Map<String, Call> arguments = new LinkedHashMap<>();
        arguments.put("limit 0", tx -> tx.listDeadLetters(1, 0, null));
        arguments.put("limit 101", tx -> tx.listDeadLetters(1, 101, null));
        arguments.put("default 0", tx -> tx.listDeadLetters(0, 2, null));
        assertRefusedWithoutWriting(arguments, IllegalArgumentException.class, session, task);
    }

    // ---------------------------------------------------------------------------------------------
    // TS-3 Inserting
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts31_insertAtShiftsLaterOrders() {
        String session = session("insert-shift");
        Task a = append(session, "a");
        Task b = append(session, "b");
        Task c = append(session, "c");

        Task x = insert(NewTask.of(session, "x"), 1);

        assertThat(x.order()).isEqualTo(2);
        List<Task> tasks = store.listTasks(session);
        assertThat(descriptions(tasks)).containsExactly("a", "x", "b", "c");
        assertOrdersContiguous(tasks);
        assertThat(find(a.id()).order()).isEqualTo(1);
        assertThat(find(x.id()).order()).isEqualTo(2);
        assertThat(find(b.id()).order()).isEqualTo(3);
        assertThat(find(c.id()).order()).isEqualTo(4);
    }

    @Test
    void ts31_insertAfterZeroPutsTheTaskFirst() {
        String session = session("insert-first");
        append(session, "was first");
        append(session, "was second");

        Task inserted = insert(NewTask.of(session, "now first"), 0);

        assertThat(inserted.order()).isEqualTo(1);
        assertThat(store.listTasks(session))
                .extracting(Task::description, Task::order)
                .containsExactly(
                        Tuple.tuple("now first", 1), Tuple.tuple("was first", 2), Tuple.tuple("was second", 3));
    }

    @Test
    void ts31_insertLeavesOtherSessionsAlone() {
        String session = session("insert-here");
        String otherSession = session("insert-not-there");
        append(session, "here");
        List<Task> otherBefore = List.of(append(otherSession, "there 1"), append(otherSession, "there 2"));

        insert(NewTask.of(session, "inserted here"), 0);

        assertThat(store.listTasks(otherSession)).isEqualTo(otherBefore);
    }

    @Test
    void ts32_insertAtOrPastTheEndAppends() {
        String session = session("append");

        Task first = insert(NewTask.of(session, "into an empty session, k = 5"), 5);
        Task second = insert(NewTask.of(session, "k = N"), 1);
        Task third = insert(NewTask.of(session, "k = N + 7"), 9);
        Task fourth = insert(NewTask.of(session, "k = Integer.MAX_VALUE"), Integer.MAX_VALUE);
        Task fifth = store.inTransaction(tx -> tx.appendTask(NewTask.of(session, "appendTask")));

        assertThat(List.of(first, second, third, fourth, fifth))
                .extracting(Task::order)
                .containsExactly(1, 2, 3, 4, 5);
        assertThat(ids(store.listTasks(session)))
                .containsExactly(first.id(), second.id(), third.id(), fourth.id(), fifth.id());
    }

    @Test
    void ts33_negativePositionIsRefusedAndWritesNothing() {
        String session = session("negative-position");
        List<Task> before = List.of(append(session, "a"), append(session, "b"));

        for (int position : new int[] {-1, Integer.MIN_VALUE}) {
            Throwable insideUnit = store.inTransaction(
                    tx -> catchThrowable(() -> tx.insertTask(NewTask.of(session, "refused"), position)));
            Throwable propagated = catchThrowable(
                    () -> store.inTransaction(tx -> tx.insertTask(NewTask.of(session, "refused"), position)));
            assertThat(insideUnit).as("insert after %d", position).isInstanceOf(IllegalArgumentException.class);
            assertThat(propagated).as("insert after %d", position).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(store.listTasks(session)).isEqualTo(before);
    }

    @Test
    void ts34_newTaskStartsPendingAtVersionOneWithItsSpec() {
        String session = session("new-task");
        String agent = agent("new-task");
        String creator = agent("creator");
        clock.advance(Duration.ofMinutes(3));
        Instant now = clock.instant();

        Task task = insert(
                NewTask.builder(session, "Write the report")
                        .priority(4)
                        .assignee(agent)
                        .createdBy(creator)
                        .steps("- [ ] draft\n- [ ] review\n")
                        .build(),
                0);

        assertThat(task.id()).isPositive();
        assertThat(task.sessionId()).isEqualTo(session);
        assertThat(task.order()).isEqualTo(1);
        assertThat(task.description()).isEqualTo("Write the report");
        assertThat(task.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(task.archived()).isFalse();
        assertThat(task.version()).isEqualTo(1);
        assertThat(task.createdAt()).isEqualTo(now);
        assertThat(task.updatedAt()).isEqualTo(now);
        assertThat(task.progresses()).isEmpty();
        assertThat(task.userPreferences()).isEmpty();
        assertThat(task.comments()).isEmpty();
        assertThat(task.links()).isEmpty();
        assertThat(task.messageIds()).isEmpty();
        assertThat(task.currentStep()).isZero();
        assertThat(task.priority()).isEqualTo(4);
        assertThat(task.assignee()).isEqualTo(agent);
        assertThat(task.previousAssignee()).isNull();
        assertThat(task.createdBy()).isEqualTo(creator);
        assertThat(task.steps()).isEqualTo("- [ ] draft\n- [ ] review\n");
        assertThat(find(task.id())).isEqualTo(task);
    }

    @Test
    void ts34_newTaskWithoutOptionalsHasNoAssigneeCreatorOrSteps() {
        Task task = append(session("plain-task"), "Just a description");

        assertThat(find(task.id())).isEqualTo(task);
        assertThat(task.priority()).isZero();
        assertThat(task.assignee()).isNull();
        assertThat(task.createdBy()).isNull();
        assertThat(task.steps()).isNull();
        assertThat(task.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(task.version()).isEqualTo(1);
        assertThat(task.createdAt()).isEqualTo(clock.instant()).isEqualTo(task.updatedAt());
    }

    @Test
    void ts35_idsArePositiveAndUniqueAcrossSessions() {
        List<String> sessions = List.of(session("ids-1"), session("ids-2"), session("ids-3"));
        List<Task> tasks = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            for (String session : sessions) {
                tasks.add(append(session, "round " + round));
            }
        }
        tasks.addAll(store.inTransaction(tx -> sessions.stream()
                .map(session -> tx.insertTask(NewTask.of(session, "in one unit"), 0))
                .toList()));

        assertThat(ids(tasks)).allSatisfy(id -> assertThat(id).isPositive()).doesNotHaveDuplicates();
        for (Task task : tasks) {
            assertThat(find(task.id()).description()).isEqualTo(task.description());
        }
    }

    @Test
    void ts35_ordersStayContiguousAfterAnySequenceOfInserts() {
        String session = session("insert-sequence");
        int[] positions = {0, 0, 1, 5, 2, 0, 100, 3, 7, 1, 4, 0, 9, 6, 2, 13, 0, 11, 8, 1};
        List<String> expected = new ArrayList<>();

        for (int start = 0; start < positions.length; start += 4) {
            int from = start;
            store.inTransaction(tx -> {
                for (int index = from; index < from + 4; index++) {
                    tx.insertTask(NewTask.of(session, "task " + index), positions[index]);
                }
                return null;
            });
            for (int index = from; index < from + 4; index++) {
                expected.add(Math.min(positions[index], expected.size()), "task " + index);
            }
            List<Task> tasks = store.listTasks(session);
            assertOrdersContiguous(tasks);
            assertThat(descriptions(tasks)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void ts35_concurrentInsertsIntoOneSessionKeepOrdersContiguous() {
        String session = session("concurrent-inserts");
        append(session, "seed 1");
        append(session, "seed 2");
        int workers = 8;
        int insertsPerWorker = 10;

        List<List<String>> inserted = KitThreads.runTogether(workers, "inserts", DEADLINE, worker -> {
            List<String> mine = new ArrayList<>();
            for (int index = 0; index < insertsPerWorker; index++) {
                String description = "worker " + worker + ": insert " + index;
                int afterOrder =
                        switch (index % 3) {
                            case 0 -> 0;
                            case 1 -> 1;
                            default -> Integer.MAX_VALUE;
                        };
                store.inTransaction(tx -> tx.insertTask(NewTask.of(session, description), afterOrder));
                mine.add(description);
            }
            return mine;
        });

        List<Task> tasks = store.listTasks(session);
        assertOrdersContiguous(tasks);
        assertThat(tasks).hasSize(2 + workers * insertsPerWorker);
        assertThat(ids(tasks)).doesNotHaveDuplicates();
        List<String> expected = new ArrayList<>(List.of("seed 1", "seed 2"));
        inserted.forEach(expected::addAll);
        assertThat(descriptions(tasks)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void ts36_aCreateWithAKeyATaskHoldsIsRefusedWithThatTaskAndWritesNothing() {
        String session = session("idempotent");
        String otherSession = session("idempotent-other");
        String key = "order-" + RUN_ID + "-" + NAME_SEQUENCE.incrementAndGet();
        Task first = append(
                NewTask.builder(session, "Ship order").idempotencyKey(key).build());

        for (String target : List.of(session, otherSession)) {
            Throwable refused = catchThrowable(
                    () -> store.inTransaction(tx -> tx.appendTask(NewTask.builder(target, "Ship order again")
                            .idempotencyKey(key)
                            .build())));
            assertThat(refused)
                    .as("a second create with the key, in session %s", target)
                    .isInstanceOf(TaskExistsException.class)
                    .hasMessage("Task " + first.id() + " already exists with idempotency key '" + key
                            + "'; nothing was written");
            assertThat(((TaskExistsException) refused).existing()).isEqualTo(find(first.id()));
        }
        assertThat(descriptions(store.listTasks(session))).containsExactly("Ship order");
        assertThat(store.listTasks(otherSession)).isEmpty();

        // The unit of work goes on after the refusal; keys compare exactly.
        Task upperCase = store.inTransaction(tx -> {
            assertThatThrownBy(() -> tx.appendTask(NewTask.builder(session, "again")
                            .idempotencyKey(key)
                            .build()))
                    .isInstanceOf(TaskExistsException.class);
            return tx.appendTask(NewTask.builder(session, "Ship another order")
                    .idempotencyKey(key.toUpperCase(Locale.ROOT))
                    .build());
        });
        assertThat(upperCase.id()).isNotEqualTo(first.id());
        assertThat(descriptions(store.listTasks(session))).containsExactly("Ship order", "Ship another order");
        assertThatThrownBy(() -> NewTask.builder(session, "x").idempotencyKey(" "))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NewTask.builder(session, "x").idempotencyKey("k".repeat(Task.MAX_ID_LENGTH + 1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ts36_concurrentCreatesWithOneKeyCreateExactlyOneTask() {
        for (int round = 1; round <= 3; round++) {
            String key = "request-" + RUN_ID + "-" + NAME_SEQUENCE.incrementAndGet();
            // Half of the creators in one session (serialised by its order numbers), half in sessions of their own.
            String shared = session("idempotent-race");
            List<Object> outcomes = KitThreads.runTogether(6, "idempotent-create", DEADLINE, worker -> {
                String target = worker % 2 == 0 ? shared : session("idempotent-race-" + worker);
                try {
                    return store.inTransaction(tx -> tx.appendTask(NewTask.builder(target, "create " + worker)
                            .idempotencyKey(key)
                            .build()));
                } catch (TaskExistsException e) {
                    return e;
                }
            });
            List<Task> created = outcomes.stream()
                    .filter(Task.class::isInstance)
                    .map(Task.class::cast)
                    .toList();
            assertThat(created)
                    .as("round %d: tasks created with one key", round)
                    .hasSize(1);
            assertThat(outcomes.stream()
                            .filter(TaskExistsException.class::isInstance)
                            .map(outcome ->
                                    ((TaskExistsException) outcome).existing().id()))
                    .as("round %d: every other create names the one task", round)
                    .hasSize(5)
                    .containsOnly(created.get(0).id());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // TS-4 Updating
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts41_updateChangesExactlyTheFieldsItSets() {
        Task before = richTask(session("update-exact"));
        clock.advance(Duration.ofSeconds(1));

        Task described = store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(before.id()).description("new description").build()));

        Task expected = TaskBuilder.from(before)
                .description("new description")
                .version(before.version() + 1)
                .updatedAt(clock.instant())
                .build();
        assertThat(described).isEqualTo(expected);
        assertThat(find(before.id())).isEqualTo(expected);

        clock.advance(Duration.ofSeconds(1));
        Task prioritised = store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(before.id())
                .status(TaskStatus.FAILED)
                .priority(-3)
                .build()));

        Task expectedNext = TaskBuilder.from(expected)
                .status(TaskStatus.FAILED)
                .priority(-3)
                .version(expected.version() + 1)
                .updatedAt(clock.instant())
                .build();
        assertThat(prioritised).isEqualTo(expectedNext);
        assertThat(find(before.id())).isEqualTo(expectedNext);
    }

    @Test
    void ts41_updateCanSetEveryField() {
        Task before = richTask(session("update-all"));
        String newAssignee = agent("new-assignee");
        String previous = agent("previous");
        clock.advance(Duration.ofSeconds(1));

        Task updated = store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(before.id())
                .description("every field changed")
                .status(TaskStatus.SUCCESS)
                .priority(42)
                .assignee(newAssignee)
                .previousAssignee(previous)
                .userPreference("a new, complete preference")
                .steps("- [x] all done\n")
                .currentStep(1)
                .archived(true)
                .build()));

        Task expected = TaskBuilder.from(before)
                .description("every field changed")
                .status(TaskStatus.SUCCESS)
                .priority(42)
                .assignee(newAssignee)
                .previousAssignee(previous)
                .userPreferences(List.of("a new, complete preference"))
                .steps("- [x] all done\n")
                .currentStep(1)
                .archived(true)
                .version(before.version() + 1)
                .updatedAt(clock.instant())
                .build();
        assertThat(updated).isEqualTo(expected);
        assertThat(find(before.id())).isEqualTo(expected);
    }

    @Test
    void ts41_updateCanClearOptionalFields() {
        Task before = richTask(session("update-clear"));
        store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(before.id())
                .previousAssignee(agent("previous"))
                .currentStep(2)
                .archived(true)
                .build()));

        Task cleared = store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(before.id())
                .assignee(null)
                .previousAssignee(null)
                .steps(null)
                .userPreferences(List.of())
                .currentStep(0)
                .archived(false)
                .build()));

        assertThat(cleared.assignee()).isNull();
        assertThat(cleared.previousAssignee()).isNull();
        assertThat(cleared.steps()).isNull();
        assertThat(cleared.userPreferences()).isEmpty();
        assertThat(cleared.currentStep()).isZero();
        assertThat(cleared.archived()).isFalse();
        assertThat(cleared.description()).isEqualTo(before.description());
        assertThat(find(before.id())).isEqualTo(cleared);
    }

    @Test
    void ts42_updatesAndAppendsIncrementTheVersionAndStampUpdatedAt() {
        Task task = append(session("versions"), "task");
        long id = task.id();
        Instant createdAt = task.createdAt();
        List<Function<TaskTransaction, Task>> writes = List.of(
                tx -> tx.updateTask(TaskUpdate.of(id).description("updated").build()),
                tx -> tx.appendProgress(id, "progress"),
                tx -> tx.addComment(id, "author", "comment"),
                tx -> tx.addLink(id, "https://example.org", "", "author"));

        long version = task.version();
        for (Function<TaskTransaction, Task> write : writes) {
            clock.advance(Duration.ofSeconds(1));
            Task written = store.inTransaction(write::apply);
            version++;
            assertThat(written.version()).isEqualTo(version);
            assertThat(written.updatedAt()).isEqualTo(clock.instant());
            assertThat(written.createdAt()).isEqualTo(createdAt);
            assertThat(find(id)).isEqualTo(written);
        }

        clock.advance(Duration.ofSeconds(1));
        Task twice = store.inTransaction(tx -> {
            tx.appendProgress(id, "one");
            return tx.appendProgress(id, "two");
        });
        assertThat(twice.version()).as("two writes in one unit of work").isEqualTo(version + 2);
        assertThat(twice.updatedAt()).isEqualTo(clock.instant());
    }

    @Test
    void ts42_messageLinksAndClaimsIncrementTheVersionAndStampUpdatedAt() {
        String agent = agent("versions");
        Task task = append(NewTask.builder(session("versions-claim"), "task")
                .assignee(agent)
                .build());

        clock.advance(Duration.ofSeconds(1));
        Task linked = store.inTransaction(tx -> tx.linkMessages(task.id(), List.of("m1", "m2")));
        assertThat(linked.version()).isEqualTo(2);
        assertThat(linked.updatedAt()).isEqualTo(clock.instant());

        clock.advance(Duration.ofSeconds(1));
        Task claimed = store.claimNext(agent, LEASE).orElseThrow();
        assertThat(claimed.version()).isEqualTo(3);
        assertThat(claimed.updatedAt()).isEqualTo(clock.instant());
        assertThat(claimed.createdAt()).isEqualTo(task.createdAt());
        assertThat(find(task.id())).isEqualTo(claimed);
    }

    @Test
    void ts43_updateExpectingAnOldVersionIsRefusedAndWritesNothing() {
        Task task = append(session("stale"), "original");
        Task current = store.inTransaction(tx -> tx.appendProgress(task.id(), "moves it to version 2"));
        TaskUpdate stale =
                TaskUpdate.of(task.id()).expectVersion(1).description("stale").build();

        Throwable insideUnit = store.inTransaction(tx -> catchThrowable(() -> tx.updateTask(stale)));
        Throwable propagated = catchThrowable(() -> store.inTransaction(tx -> tx.updateTask(stale)));

        assertStale(insideUnit, task.id(), "caught inside the unit of work");
        assertStale(propagated, task.id(), "propagated from the unit of work");
        assertThat(find(task.id())).isEqualTo(current);

        Task fresh = store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(task.id()).expectVersion(2).description("fresh").build()));
        assertThat(fresh.description()).isEqualTo("fresh");
        assertThat(fresh.version()).isEqualTo(3);
    }

    @Test
    void ts43_ofTwoConcurrentUpdatesExpectingTheSameVersionExactlyOneWins() {
        String session = session("version-race");
        int rounds = 20;
        List<Task> tasks = store.inTransaction(tx -> {
            List<Task> created = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                created.add(tx.appendTask(NewTask.of(session, "race " + round)));
            }
            return created;
        });
        CyclicBarrier roundStart = new CyclicBarrier(2);

        List<List<Boolean>> wins = KitThreads.runTogether(2, "version-race", DEADLINE, worker -> {
            List<Boolean> mine = new ArrayList<>();
            for (Task task : tasks) {
                roundStart.await(DEADLINE_SECONDS, TimeUnit.SECONDS);
                TaskUpdate update = TaskUpdate.of(task.id())
                        .expectVersion(task.version())
                        .description("written by worker " + worker)
                        .build();
                try {
                    store.inTransaction(tx -> {
                        tx.findTask(task.id());
                        return tx.updateTask(update);
                    });
                    mine.add(true);
                } catch (StaleTaskException e) {
                    mine.add(false);
                }
            }
            return mine;
        });

        for (int round = 0; round < rounds; round++) {
            boolean first = wins.get(0).get(round);
            boolean second = wins.get(1).get(round);
            assertThat(first ^ second)
                    .as("round %d: exactly one update wins (worker 0 won: %s, worker 1 won: %s)", round, first, second)
                    .isTrue();
            Task after = find(tasks.get(round).id());
            assertThat(after.description()).isEqualTo("written by worker " + (first ? 0 : 1));
            assertThat(after.version()).isEqualTo(tasks.get(round).version() + 1);
        }
    }

    @Test
    void ts44_writesToAnUnknownTaskThrowTaskNotFoundAndWriteNothing() {
        String session = session("not-found");
        Task known = append(session, "known");
        store.inTransaction(tx -> {
            tx.linkMessages(known.id(), List.of("m1"));
            tx.linkMessagesToPlanningSection(session, List.of("p1"));
            return null;
        });
        Task knownBefore = find(known.id());
        List<Function<TaskTransaction, Task>> writes = List.of(
                tx -> tx.updateTask(TaskUpdate.of(UNKNOWN_ID).description("x").build()),
                tx -> tx.appendProgress(UNKNOWN_ID, "x"),
                tx -> tx.addComment(UNKNOWN_ID, "author", "x"),
                tx -> tx.addLink(UNKNOWN_ID, "https://example.org", "x", "author"),
                tx -> tx.linkMessages(UNKNOWN_ID, List.of("m1", "p1", "m2")));

        for (Function<TaskTransaction, Task> write : writes) {
            Throwable insideUnit = store.inTransaction(tx -> catchThrowable(() -> write.apply(tx)));
            Throwable propagated = catchThrowable(() -> store.inTransaction(write::apply));
            for (Throwable thrown : Arrays.asList(insideUnit, propagated)) {
                assertThat(thrown).isInstanceOf(TaskNotFoundException.class);
                assertThat(((TaskNotFoundException) thrown).taskId()).isEqualTo(UNKNOWN_ID);
            }
        }
        assertThat(store.listTasks(session)).containsExactly(knownBefore);
        assertThat(knownBefore.messageIds()).containsExactly("m1");
        assertThat(planning(session)).containsExactly("p1");
    }

    // ---------------------------------------------------------------------------------------------
    // TS-5 Appending
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts51_appendProgressAddsOneEntryAtTheEndAndKeepsStatusAndPreferences() {
        Task task = append(session("progress"), "task");
        store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(task.id())
                .status(TaskStatus.RUNNING)
                .userPreference("short answers")
                .build()));

        Task first = store.inTransaction(tx -> tx.appendProgress(task.id(), "step one done"));
        Task second = store.inTransaction(tx -> tx.appendProgress(task.id(), "step two done"));

        assertThat(first.progresses()).containsExactly("step one done");
        assertThat(second.progresses()).containsExactly("step one done", "step two done");
        assertThat(second.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(second.userPreferences()).containsExactly("short answers");
        assertThat(find(task.id())).isEqualTo(second);
    }

    @Test
    void ts52_addCommentAppendsTheCommentWithItsAuthorAndTheClockTime() {
        Task task = append(session("comments"), "task");
        String first = agent("first");
        String second = agent("second");

        clock.advance(Duration.ofSeconds(10));
        Instant firstTime = clock.instant();
        store.inTransaction(tx -> tx.addComment(task.id(), first, "over to you"));
        clock.advance(Duration.ofSeconds(10));
        Instant secondTime = clock.instant();
        Task commented = store.inTransaction(tx -> tx.addComment(task.id(), second, "thanks, on it"));

        assertThat(commented.comments())
                .containsExactly(
                        new Comment(first, "over to you", firstTime), new Comment(second, "thanks, on it", secondTime));
        assertThat(find(task.id()).comments()).isEqualTo(commented.comments());
    }

    @Test
    void ts52_addLinkAppendsTheLinkWithItsAuthorAndTheClockTime() {
        Task task = append(session("links"), "task");
        String author = agent("author");

        clock.advance(Duration.ofSeconds(10));
        Instant firstTime = clock.instant();
        store.inTransaction(tx -> tx.addLink(task.id(), "https://example.org/pr/1", "the pull request", author));
        clock.advance(Duration.ofSeconds(10));
        Instant secondTime = clock.instant();
        Task linked = store.inTransaction(tx -> tx.addLink(task.id(), "https://example.org/doc", "", author));

        assertThat(linked.links())
                .containsExactly(
                        new Link("https://example.org/pr/1", "the pull request", author, firstTime),
                        new Link("https://example.org/doc", "", author, secondTime));
        assertThat(find(task.id()).links()).isEqualTo(linked.links());
    }

    @Test
    void ts53_concurrentProgressAppendsAreNeverLost() {
        Task task = append(session("concurrent-progress"), "shared task");
        int workers = 8;
        int appendsPerWorker = 50;

        List<List<String>> written = KitThreads.runTogether(workers, "progress", DEADLINE, worker -> {
            List<String> mine = new ArrayList<>();
            for (int index = 0; index < appendsPerWorker; index++) {
                String entry = "worker " + worker + ": entry " + index;
                store.inTransaction(tx -> tx.appendProgress(task.id(), entry));
                mine.add(entry);
            }
            return mine;
        });

        Task after = find(task.id());
        List<String> all = written.stream().flatMap(List::stream).toList();
        assertThat(after.progresses()).hasSize(workers * appendsPerWorker).containsExactlyInAnyOrderElementsOf(all);
        for (int worker = 0; worker < workers; worker++) {
            String prefix = "worker " + worker + ":";
            assertThat(after.progresses().stream().filter(entry -> entry.startsWith(prefix)))
                    .as("worker %d's entries keep their order", worker)
                    .containsExactlyElementsOf(written.get(worker));
        }
        assertThat(after.version()).isEqualTo(1 + workers * appendsPerWorker);
    }

    @Test
    void ts53_concurrentCommentsAndLinksAreNeverLost() {
        Task task = append(session("concurrent-comments"), "shared task");
        int workers = 8;
        int appendsPerWorker = 25;

        KitThreads.runTogether(workers, "comments", DEADLINE, worker -> {
            for (int index = 0; index < appendsPerWorker; index++) {
                String text = "worker " + worker + ": " + index;
                String url = "https://example.org/" + index;
                if (worker % 2 == 0) {
                    store.inTransaction(tx -> tx.addComment(task.id(), "agent-" + worker, text));
                } else {
                    store.inTransaction(tx -> tx.addLink(task.id(), url, text, "agent-" + worker));
                }
            }
            return null;
        });

        Task after = find(task.id());
        int perKind = workers / 2 * appendsPerWorker;
        assertThat(after.comments()).hasSize(perKind);
        assertThat(after.links()).hasSize(perKind);
        assertThat(after.comments()).map(Comment::text).doesNotHaveDuplicates();
        assertThat(after.links()).map(Link::description).doesNotHaveDuplicates();
        assertThat(after.version()).isEqualTo(1 + workers * appendsPerWorker);
    }

    @Test
    void ts54_textsAreStoredVerbatim() {
        String session = session("verbatim-text");
        String author = agent("author");
        for (String text : AWKWARD_TEXTS) {
            Task task = append(NewTask.builder(session, text).steps(text).build());
            Task written = store.inTransaction(tx -> {
                tx.appendProgress(task.id(), text);
                tx.addComment(task.id(), author, text);
                tx.addLink(task.id(), text, text, author);
                return tx.updateTask(
                        TaskUpdate.of(task.id()).userPreference(text).build());
            });

            Task read = find(task.id());
            assertThat(read).as("read back: %s", text).isEqualTo(written);
            assertThat(read.description()).isEqualTo(text);
            assertThat(read.steps()).isEqualTo(text);
            assertThat(read.progresses()).containsExactly(text);
            assertThat(read.comments()).map(Comment::text).containsExactly(text);
            assertThat(read.links()).map(Link::url).containsExactly(text);
            assertThat(read.links()).map(Link::description).containsExactly(text);
            assertThat(read.userPreferences()).containsExactly(text);
        }
        assertThat(descriptions(store.listTasks(session))).containsExactlyElementsOf(AWKWARD_TEXTS);
    }

    @Test
    void ts54_idsAndNamesAreStoredVerbatim() {
        String prefix = session("verbatim-ids-");
        for (String text : AWKWARD_TEXTS) {
            String session = prefix + text;
            String name = text.replaceAll("\\p{Cc}", " "); // agent names hold no control character (TS-8.3)
            String agent = prefix + "agent " + name;
            Task task = append(NewTask.builder(session, "task")
                    .assignee(agent)
                    .createdBy(name)
                    .build());
            store.inTransaction(tx -> {
                tx.linkMessages(task.id(), List.of("message " + text, text));
                tx.addComment(task.id(), name, "comment");
                tx.linkMessagesToPlanningSection(session, List.of("planning " + text));
                return null;
            });

            assertThat(store.listTasks(session)).as("session %s", session).hasSize(1);
            Task claimed = store.claimNext(agent, LEASE).orElseThrow(() -> new AssertionError("no task for " + agent));
            assertThat(claimed.id()).isEqualTo(task.id());
            assertThat(claimed.sessionId()).isEqualTo(session);
            assertThat(claimed.assignee()).isEqualTo(agent);
            assertThat(claimed.createdBy()).isEqualTo(name);
            assertThat(claimed.messageIds()).containsExactly("message " + text, text);
            assertThat(claimed.comments()).map(Comment::author).containsExactly(name);
            assertThat(planning(session)).containsExactly("planning " + text);
        }
    }

    @Test
    void ts54_hundredKilobyteTextsComeBackUnchanged() {
        StringBuilder builder = new StringBuilder();
        for (int index = 0; builder.length() < 100 * 1024; index++) {
            builder.append(index).append(": ").append(AWKWARD_TEXTS.get(index % AWKWARD_TEXTS.size()));
        }
        String large = builder.toString();
        Task task = append(session("large-text"), large);

        Task written = store.inTransaction(tx -> {
            tx.appendProgress(task.id(), large);
            return tx.addComment(task.id(), "author", large);
        });

        Task read = find(task.id());
        assertThat(read).isEqualTo(written);
        assertThat(read.description()).isEqualTo(large);
        assertThat(read.progresses()).containsExactly(large);
        assertThat(read.comments()).map(Comment::text).containsExactly(large);
    }

    @Test
    void ts54_textsOfTheMaximumLengthComeBackUnchanged() {
        String longest = "y".repeat(Task.MAX_TEXT_LENGTH - 2) + "🧪";
        assertThat(longest).hasSize(Task.MAX_TEXT_LENGTH);
        Task task = append(session("longest-text"), longest);

        store.inTransaction(tx -> tx.appendProgress(task.id(), longest));

        Task read = find(task.id());
        assertThat(read.description()).isEqualTo(longest);
        assertThat(read.progresses()).containsExactly(longest);
    }

    @Test
    void ts55_anAppendWithARequestIdTheTaskHoldsWritesNothingAndAnswersTheTask() {
        assumeRequestIds();
        String session = session("request-ids");
        String author = agent("author");
        Task task = append(session, "task");
        Task other = append(session, "other task");
        String requestId = requestId("comment");

        AppendResult first = store.inTransaction(tx -> tx.addComment(task.id(), author, "first", requestId));

        assertThat(first.replayed()).as("the first append with the id").isFalse();
        assertThat(first.task().comments()).extracting(Comment::text).containsExactly("first");
        assertThat(first.task()).isEqualTo(find(task.id()));

        Task before = find(task.id());
        long eventsBefore = store.eventFeed().lastPosition();
        Map<String, TransactionWork<AppendResult>> retries = new LinkedHashMap<>();
        retries.put("the same comment", tx -> tx.addComment(task.id(), author, "first", requestId));
        retries.put("another text", tx -> tx.addComment(task.id(), author, "second", requestId));
        retries.put("another author", tx -> tx.addComment(task.id(), agent("other"), "first", requestId));
        retries.put("a progress entry", tx -> tx.appendProgress(task.id(), "progress", requestId));
        retries.put("a link", tx -> tx.addLink(task.id(), "https://example.org/a", "a link", author, requestId));
        retries.forEach((how, retry) -> {
            AppendResult replay = store.inTransaction(retry);
            assertThat(replay.replayed()).as("a retry with %s", how).isTrue();
            assertThat(replay.task())
                    .as("the task a retry with %s answers", how)
                    .isEqualTo(before);
        });
        assertThat(find(task.id())).as("the task after the retries").isEqualTo(before);
        assertThat(store.eventFeed().lastPosition()).as("events of the retries").isEqualTo(eventsBefore);

        // The unit of work goes on after a replay.
        Task afterReplay = store.inTransaction(tx -> {
            assertThat(tx.addComment(task.id(), author, "again", requestId).replayed())
                    .isTrue();
            return tx.addComment(task.id(), author, "after the replay");
        });
        assertThat(afterReplay.comments()).extracting(Comment::text).containsExactly("first", "after the replay");

        // Ids compare exactly, per task, and each append takes a new one.
        Map<String, TransactionWork<AppendResult>> newRequests = new LinkedHashMap<>();
        newRequests.put(
                "the id in upper case",
                tx -> tx.addComment(task.id(), author, "upper case", requestId.toUpperCase(Locale.ROOT)));
        newRequests.put("the id and a space", tx -> tx.addComment(task.id(), author, "padded", requestId + " "));
        newRequests.put("the id on another task", tx -> tx.appendProgress(other.id(), "other's", requestId));
        newRequests.put("a new id, progress", tx -> tx.appendProgress(task.id(), "progress", requestId("p")));
        newRequests.put(
                "a new id, link", tx -> tx.addLink(task.id(), "https://example.org/b", "", author, requestId("l")));
        newRequests.forEach((how, append) -> {
            AppendResult written = store.inTransaction(append);
            assertThat(written.replayed()).as("an append with %s", how).isFalse();
            assertThat(written.task())
                    .as("the task an append with %s answers", how)
                    .isEqualTo(find(written.task().id()));
        });
        Task after = find(task.id());
        assertThat(after.comments())
                .extracting(Comment::text)
                .containsExactly("first", "after the replay", "upper case", "padded");
        assertThat(after.progresses()).containsExactly("progress");
        assertThat(after.links()).extracting(Link::url).containsExactly("https://example.org/b");
        assertThat(find(other.id()).progresses()).containsExactly("other's");
    }

    @Test
    void ts55_aBadRequestIdIsRefusedNamingItAndWritesNothing() {
        assumeRequestIds();
        String session = session("bad-request-ids");
        String author = agent("author");
        Task task = append(session, "task");
        for (String bad : List.of(
                "", " ", "k".repeat(Task.MAX_ID_LENGTH + 1), "nul\u0000", "half \ud83e", "line\nbreak", "tab\there")) {
            Map<String, Call> calls = new LinkedHashMap<>();
            calls.put("progress", tx -> tx.appendProgress(task.id(), "progress", bad));
            calls.put("comment", tx -> tx.addComment(task.id(), author, "comment", bad));
            calls.put("link", tx -> tx.addLink(task.id(), "https://example.org", "", author, bad));
            assertRefusedWithoutWriting(calls, IllegalArgumentException.class, session, task);
            calls.forEach((append, call) -> assertThat(catchThrowable(() -> store.inTransaction(call)))
                    .as("%s with a request id of %s characters", append, bad.length())
                    .hasMessageStartingWith("requestId"));
        }
        Map<String, Call> nulls = new LinkedHashMap<>();
        nulls.put("progress", tx -> tx.appendProgress(task.id(), "progress", null));
        nulls.put("comment", tx -> tx.addComment(task.id(), author, "comment", null));
        nulls.put("link", tx -> tx.addLink(task.id(), "https://example.org", "", author, null));
        assertRefusedWithoutWriting(nulls, NullPointerException.class, session, task);

        // A refused append leaves its request id free: the corrected call writes.
        String requestId = requestId("corrected");
        Map<String, Call> badContent = new LinkedHashMap<>();
        badContent.put("blank progress", tx -> tx.appendProgress(task.id(), " ", requestId));
        badContent.put("blank comment", tx -> tx.addComment(task.id(), author, "", requestId));
        badContent.put("author on two lines", tx -> tx.addComment(task.id(), "a\nb", "comment", requestId));
        badContent.put("blank url", tx -> tx.addLink(task.id(), " ", "", author, requestId));
        assertRefusedWithoutWriting(badContent, IllegalArgumentException.class, session, task);
        assertThatThrownBy(() -> store.inTransaction(tx -> tx.addComment(UNKNOWN_ID, author, "comment", requestId)))
                .isInstanceOf(TaskNotFoundException.class);
        AppendResult corrected = store.inTransaction(tx -> tx.addComment(task.id(), author, "comment", requestId));
        assertThat(corrected.replayed()).as("the corrected call").isFalse();
        assertThat(corrected.task().comments()).extracting(Comment::text).containsExactly("comment");
    }

    @Test
    void ts56_aTaskHoldsTheRequestIdsOfItsLastAppendsAndForgetsOlderOnes() {
        assumeRequestIds();
        Task task = append(session("request-window"), "task");
        String prefix = requestId("window") + "-";
        int window = TaskStore.REQUEST_ID_WINDOW;
        for (int index = 0; index <= window; index++) {
            int number = index;
            assertThat(progressOnce(task.id(), "entry " + number, prefix + number)
                            .replayed())
                    .as("append %d", number)
                    .isFalse();
        }

        // Ids 1 to 32 are held; a replay of the oldest does not make it new again.
        assertThat(progressOnce(task.id(), "retry", prefix + 1).replayed())
                .as("a retry of id 1")
                .isTrue();
        assertThat(progressOnce(task.id(), "retry", prefix + window).replayed())
                .as("a retry of id %d", window)
                .isTrue();
        assertThat(progressOnce(task.id(), "late retry", prefix + 0).replayed())
                .as("a retry of id 0, forgotten")
                .isFalse();
        assertThat(progressOnce(task.id(), "later retry", prefix + 1).replayed())
                .as("a retry of id 1, forgotten by the append before")
                .isFalse();
        assertThat(progressOnce(task.id(), "retry", prefix + 3).replayed())
                .as("a retry of id 3")
                .isTrue();
        assertThat(progressOnce(task.id(), "retry", prefix + 2).replayed())
                .as("a retry of id 2, forgotten by the append before")
                .isFalse();

        Task after = find(task.id());
        assertThat(after.progresses()).hasSize(window + 4);
        assertThat(after.progresses().subList(window + 1, window + 4))
                .containsExactly("late retry", "later retry", "retry");
    }

    @Test
    void ts56_anAppendThatRolledBackLeavesItsRequestIdFree() {
        assumeRequestIds();
        Task task = append(session("request-rollback"), "task");
        String author = agent("author");
        String requestId = requestId("rolled-back");

        Throwable thrown = catchThrowable(() -> store.inTransaction(tx -> {
            tx.addComment(task.id(), author, "rolled back", requestId);
            throw new IllegalStateException("the caller gives up");
        }));
        AppendResult again = store.inTransaction(tx -> tx.addComment(task.id(), author, "kept", requestId));

        assertThat(thrown).isInstanceOf(IllegalStateException.class);
        assertThat(again.replayed()).as("the append after the rolled back one").isFalse();
        assertThat(find(task.id()).comments()).extracting(Comment::text).containsExactly("kept");
    }

    @Test
    void ts57_ofConcurrentAppendsWithOneRequestIdExactlyOneWrites() {
        assumeRequestIds();
        String session = session("request-race");
        for (int round = 1; round <= 5; round++) {
            Task task = append(session, "task of round " + round);
            String requestId = requestId("race");
            List<AppendResult> results = KitThreads.runTogether(
                    8,
                    "request-id",
                    DEADLINE,
                    worker -> store.inTransaction(tx -> worker % 2 == 0
                            ? tx.addComment(task.id(), "agent-" + worker, "retry " + worker, requestId)
                            : tx.appendProgress(task.id(), "retry " + worker, requestId)));

            Task after = find(task.id());
            assertThat(results.stream().filter(result -> !result.replayed()))
                    .as("round %d: appends that wrote", round)
                    .hasSize(1);
            assertThat(after.comments().size() + after.progresses().size())
                    .as("round %d: entries written", round)
                    .isEqualTo(1);
            assertThat(results.stream().filter(AppendResult::replayed).map(AppendResult::task))
                    .as("round %d: what the replays answered", round)
                    .hasSize(7)
                    .containsOnly(after);
        }
    }

    /** Skips the test when the store does not take request ids on appends (TS-5.5 to TS-5.7 are optional). */
    private void assumeRequestIds() {
        try {
            store.inTransaction(tx -> tx.addComment(UNKNOWN_ID, "probe", "probe", "probe"));
        } catch (UnsupportedOperationException e) {
            assumeTrue(false, "the store does not take request ids (TS-5.5 to TS-5.7 are optional): " + e.getMessage());
        } catch (TaskNotFoundException expected) {
            // the store takes request ids
        }
    }

    private String requestId(String label) {
        return "request-" + RUN_ID + "-" + NAME_SEQUENCE.incrementAndGet() + "-" + label;
    }

    private AppendResult progressOnce(long taskId, String progress, String requestId) {
        return store.inTransaction(tx -> tx.appendProgress(taskId, progress, requestId));
    }

    // ---------------------------------------------------------------------------------------------
    // TS-6 Messages and the planning section
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts61_linkMessagesAppendsInOrderSkippingHeldAndRepeatedIds() {
        Task task = append(session("link"), "task");

        store.inTransaction(tx -> tx.linkMessages(task.id(), List.of("m1", "m2")));
        Task linked = store.inTransaction(tx -> tx.linkMessages(task.id(), List.of("m2", "m3", "m3", "m1", "m4")));

        assertThat(linked.messageIds()).containsExactly("m1", "m2", "m3", "m4");
        assertThat(find(task.id()).messageIds()).containsExactly("m1", "m2", "m3", "m4");
    }

    @Test
    void ts62_linkingAMessageToAnotherTaskMovesIt() {
        String session = session("move");
        Task first = append(session, "first");
        Task second = append(session, "second");
        store.inTransaction(tx -> tx.linkMessages(first.id(), List.of("m1", "m2", "m3")));

        store.inTransaction(tx -> tx.linkMessages(second.id(), List.of("m2")));

        assertThat(find(first.id()).messageIds()).containsExactly("m1", "m3");
        assertThat(find(second.id()).messageIds()).containsExactly("m2");
    }

    @Test
    void ts62_linkingMovesMessagesBetweenTasksAndThePlanningSection() {
        String session = session("move-planning");
        Task task = append(session, "task");
        store.inTransaction(tx -> {
            tx.linkMessagesToPlanningSection(session, List.of("p1", "p2"));
            return tx.linkMessages(task.id(), List.of("m1", "m2"));
        });

        store.inTransaction(tx -> tx.linkMessages(task.id(), List.of("p1")));
        assertThat(planning(session)).containsExactly("p2");
        assertThat(find(task.id()).messageIds()).containsExactly("m1", "m2", "p1");

        store.inTransaction(tx -> {
            tx.linkMessagesToPlanningSection(session, List.of("m1"));
            return null;
        });
        assertThat(planning(session)).containsExactly("p2", "m1");
        assertThat(find(task.id()).messageIds()).containsExactly("m2", "p1");
    }

    @Test
    void ts62_messagesOfOtherSessionsAreNotMoved() {
        String session = session("messages-here");
        String otherSession = session("messages-there");
        Task here = append(session, "here");
        Task there = append(otherSession, "there");
        store.inTransaction(tx -> {
            tx.linkMessages(there.id(), List.of("shared id"));
            tx.linkMessagesToPlanningSection(otherSession, List.of("planning id"));
            return null;
        });

        store.inTransaction(tx -> tx.linkMessages(here.id(), List.of("shared id", "planning id")));

        assertThat(find(here.id()).messageIds()).containsExactly("shared id", "planning id");
        assertThat(find(there.id()).messageIds()).containsExactly("shared id");
        assertThat(planning(otherSession)).containsExactly("planning id");
    }

    @Test
    void ts62_messageIdsAreComparedExactly() {
        String session = session("message-ids");
        Map<String, Task> holders = new LinkedHashMap<>();
        for (String variant : NEARLY_EQUAL_IDS) {
            Task task = append(session, "holds '" + variant + "'");
            store.inTransaction(tx -> tx.linkMessages(task.id(), List.of(variant)));
            holders.put(variant, task);
        }

        for (Map.Entry<String, Task> holder : holders.entrySet()) {
            assertThat(find(holder.getValue().id()).messageIds())
                    .as("messages of the task that holds '%s'", holder.getKey())
                    .containsExactly(holder.getKey());
        }
    }

    @Test
    void ts63_planningSectionIsCreatedOnFirstUseAndKeepsLinkOrder() {
        String session = session("planning");
        assertThat(planning(session)).isEmpty();

        store.inTransaction(tx -> {
            tx.linkMessagesToPlanningSection(session, List.of("p2", "p1"));
            return null;
        });
        store.inTransaction(tx -> {
            tx.linkMessagesToPlanningSection(session, List.of("p3", "p1", "p4", "p4"));
            return null;
        });

        assertThat(planning(session)).containsExactly("p2", "p1", "p3", "p4");
        assertThat(planning(session("planning-unknown"))).isEmpty();
    }

    @Test
    void ts64_planningSectionTakesNoOrderAndIsNeverATask() {
        String session = session("planning-no-order");
        store.inTransaction(tx -> {
            tx.linkMessagesToPlanningSection(session, List.of("p1"));
            return null;
        });
        assertThat(store.listTasks(session)).isEmpty();
        assertThat(store.<Optional<Task>>inTransaction(tx -> tx.findTaskByOrder(session, 1)))
                .isEmpty();

        Task first = insert(NewTask.of(session, "first task"), 0);
        Task second = append(session, "second task");

        assertThat(first.order()).isEqualTo(1);
        assertThat(second.order()).isEqualTo(2);
        assertThat(ids(store.listTasks(session))).containsExactly(first.id(), second.id());
        assertThat(planning(session)).containsExactly("p1");
    }

    // ---------------------------------------------------------------------------------------------
    // TS-7 Claiming
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts71_claimPicksHighestPriorityThenOldestThenLowestId() {
        String session = session("claim-order");
        String agent = agent("claim-order");
        Task lowOld = insertFor(session, agent, "low, old", 1, 0);
        Task highOldA = insertFor(session, agent, "high, old, lower id", 5, Integer.MAX_VALUE);
        Task highOldB = insertFor(session, agent, "high, old, higher id", 5, 0);
        clock.advance(Duration.ofSeconds(1));
        Task highNew = insertFor(session, agent, "high, new", 5, 0);
        Task negative = insertFor(session, agent, "negative", -1, 1);

        List<Long> claimed = claimUntilEmpty(agent, 6).stream().map(Task::id).toList();

        assertThat(claimed).containsExactly(highOldA.id(), highOldB.id(), highNew.id(), lowOld.id(), negative.id());
    }

    @Test
    void ts71_claimSetsTheTaskRunningAndReturnsItWithCommentsAndLinks() {
        String agent = agent("claim-result");
        Task task = append(
                NewTask.builder(session("claim-result"), "task").assignee(agent).build());
        store.inTransaction(tx -> {
            tx.addComment(task.id(), "lead", "please take this");
            tx.addLink(task.id(), "https://example.org/spec", "the spec", "lead");
            return tx.appendProgress(task.id(), "prepared");
        });
        clock.advance(Duration.ofSeconds(1));

        Task claimed = store.claimNext(agent, LEASE).orElseThrow();

        assertThat(claimed.id()).isEqualTo(task.id());
        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.assignee()).isEqualTo(agent);
        assertThat(claimed.comments()).map(Comment::text).containsExactly("please take this");
        assertThat(claimed.links()).map(Link::url).containsExactly("https://example.org/spec");
        assertThat(claimed.progresses()).containsExactly("prepared");
        assertThat(claimed.updatedAt()).isEqualTo(clock.instant());
        assertThat(find(task.id())).isEqualTo(claimed);
    }

    @Test
    void ts71_claimOrderFollowsChangesOfPriority() {
        String session = session("claim-reprioritised");
        String agent = agent("claim-reprioritised");
        Task first = insertFor(session, agent, "first", 0, Integer.MAX_VALUE);
        Task second = insertFor(session, agent, "second", 0, Integer.MAX_VALUE);
        Task third = insertFor(session, agent, "third", 0, Integer.MAX_VALUE);

        store.inTransaction(tx -> {
            tx.updateTask(TaskUpdate.of(third.id()).priority(10).build());
            return tx.updateTask(TaskUpdate.of(first.id()).priority(-10).build());
        });

        assertThat(ids(claimUntilEmpty(agent, 4))).containsExactly(third.id(), second.id(), first.id());
    }

    @Test
    void ts72_claimedTaskIsNeverReturnedByAnotherClaim() {
        String session = session("claim-once");
        String agent = agent("claim-once");
        List<Task> tasks = List.of(
                insertFor(session, agent, "one", 0, Integer.MAX_VALUE),
                insertFor(session, agent, "two", 0, Integer.MAX_VALUE),
                insertFor(session, agent, "three", 0, Integer.MAX_VALUE));

        List<Task> claimed = claimUntilEmpty(agent, 4);

        assertThat(ids(claimed)).containsExactlyElementsOf(ids(tasks));
        assertThat(store.claimNext(agent, LEASE)).isEmpty();
        Task first = tasks.get(0);
        store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(first.id()).status(TaskStatus.PENDING).build()));
        assertThat(store.claimNext(agent, LEASE))
                .as("a task that is pending again is claimable again")
                .map(Task::id)
                .contains(first.id());
        assertThat(store.claimNext(agent, LEASE)).isEmpty();
    }

    @Test
    void ts72_concurrentClaimersOnOneAssigneeClaimEachTaskExactlyOnce() {
        int workers = 16;
        int taskCount = 1000;
        for (int round = 1; round <= 3; round++) {
            String session = session("claim-race-" + round);
            String agent = agent("claim-race-" + round);
            Set<Long> created = createQueue(session, agent, taskCount);

            List<List<Task>> claims = KitThreads.runTogether(
                    workers, "claim-race", DEADLINE, worker -> claimUntilEmpty(agent, taskCount + 1));

            List<Long> claimedIds =
                    claims.stream().flatMap(List::stream).map(Task::id).toList();
            Map<Long, Long> claimCounts =
                    claimedIds.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
            Map<Long, Long> doubleClaims = claimCounts.entrySet().stream()
                    .filter(entry -> entry.getValue() > 1)
                    .limit(10)
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            assertThat(doubleClaims)
                    .as("round %d: tasks handed to more than one claimer (id = times; first 10 shown)", round)
                    .isEmpty();
            Set<Long> missed = new HashSet<>(created);
            missed.removeAll(claimCounts.keySet());
            assertThat(missed)
                    .as("round %d: tasks never claimed although every claimer ran until it came back empty", round)
                    .isEmpty();
            assertThat(claimCounts.keySet())
                    .as("round %d: claimed tasks", round)
                    .isEqualTo(created);
            assertThat(claims.stream().flatMap(List::stream)).allSatisfy(task -> {
                assertThat(task.status()).isEqualTo(TaskStatus.RUNNING);
                assertThat(task.assignee()).isEqualTo(agent);
            });
            assertThat(queue(agent)).hasSize(taskCount).allSatisfy(task -> assertThat(task.status())
                    .isEqualTo(TaskStatus.RUNNING));
        }
    }

    @Test
    void ts73_claimWithNothingClaimableReturnsEmptyAndWritesNothing() {
        String session = session("nothing-claimable");
        String agent = agent("nothing-claimable");
        Task running = insertFor(session, agent, "running", 0, Integer.MAX_VALUE);
        Task done = insertFor(session, agent, "done", 0, Integer.MAX_VALUE);
        Task archived = insertFor(session, agent, "archived", 0, Integer.MAX_VALUE);
        store.inTransaction(tx -> {
            tx.updateTask(TaskUpdate.of(running.id()).status(TaskStatus.RUNNING).build());
            tx.updateTask(TaskUpdate.of(done.id()).status(TaskStatus.SUCCESS).build());
            return tx.updateTask(TaskUpdate.of(archived.id()).archived(true).build());
        });
        List<Task> before = store.listTasks(session);
        clock.advance(Duration.ofSeconds(1));

        assertThat(store.claimNext(agent, LEASE)).isEmpty();
        assertThat(store.<Optional<Task>>inTransaction(tx -> tx.claimNext(agent, LEASE)))
                .isEmpty();
        assertThat(store.claimNext(agent("without-tasks"), LEASE)).isEmpty();

        assertThat(store.listTasks(session)).isEqualTo(before);
    }

    @Test
    void ts74_claimNeverReturnsAnotherAssigneesArchivedOrStartedTask() {
        String session = session("claim-filter");
        String agent = agent("claim-filter");
        String other = agent("claim-filter-other");
        insertFor(session, other, "someone else's", 100, 0);
        Task archived = insertFor(session, agent, "archived", 90, 0);
        Task running = insertFor(session, agent, "running", 80, 0);
        Task failed = insertFor(session, agent, "failed", 70, 0);
        Task success = insertFor(session, agent, "success", 60, 0);
        append(NewTask.builder(session, "nobody's").priority(50).build());
        Task mine = insertFor(session, agent, "mine", 0, 0);
        store.inTransaction(tx -> {
            tx.updateTask(TaskUpdate.of(archived.id()).archived(true).build());
            tx.updateTask(TaskUpdate.of(running.id()).status(TaskStatus.RUNNING).build());
            tx.updateTask(TaskUpdate.of(failed.id()).status(TaskStatus.FAILED).build());
            return tx.updateTask(
                    TaskUpdate.of(success.id()).status(TaskStatus.SUCCESS).build());
        });

        assertThat(ids(claimUntilEmpty(agent, 7))).containsExactly(mine.id());
    }

    @Test
    void ts74_claimFollowsReassignmentAndArchiving() {
        String session = session("claim-moves");
        String alice = agent("alice");
        String bob = agent("bob");
        Task handedOver = insertFor(session, alice, "handed to bob", 5, Integer.MAX_VALUE);
        Task archivedThenRestored = insertFor(session, alice, "archived, then restored", 4, Integer.MAX_VALUE);
        Task archived = insertFor(session, alice, "archived", 3, Integer.MAX_VALUE);
        Task unassigned = insertFor(session, alice, "unassigned", 2, Integer.MAX_VALUE);
        Task kept = insertFor(session, alice, "kept", 1, Integer.MAX_VALUE);
        store.inTransaction(tx -> {
            tx.updateTask(TaskUpdate.of(handedOver.id())
                    .assignee(bob)
                    .previousAssignee(alice)
                    .build());
            tx.updateTask(
                    TaskUpdate.of(archivedThenRestored.id()).archived(true).build());
            tx.updateTask(TaskUpdate.of(archived.id()).archived(true).build());
            tx.updateTask(TaskUpdate.of(unassigned.id()).assignee(null).build());
            return tx.updateTask(
                    TaskUpdate.of(archivedThenRestored.id()).archived(false).build());
        });

        assertThat(ids(claimUntilEmpty(alice, 6))).containsExactly(archivedThenRestored.id(), kept.id());
        assertThat(ids(claimUntilEmpty(bob, 6))).containsExactly(handedOver.id());
    }

    @Test
    void ts74_assigneesAreComparedExactly() {
        String session = session("assignee-case");
        String prefix = agent("exact-");
        Map<String, Task> byAgent = new LinkedHashMap<>();
        for (String variant : NEARLY_EQUAL_IDS) {
            byAgent.put(prefix + variant, insertFor(session, prefix + variant, "for '" + variant + "'", 0, 0));
        }

        for (Map.Entry<String, Task> entry : byAgent.entrySet()) {
            assertThat(ids(claimUntilEmpty(entry.getKey(), 3)))
                    .as("claims of '%s'", entry.getKey())
                    .containsExactly(entry.getValue().id());
        }
    }

    @Test
    void ts74_concurrentAssigneesClaimOnlyTheirOwnTasksInClaimOrder() {
        int assignees = 16;
        int batches = 4;
        int perBatch = 5;
        String session = session("many-assignees");
        List<String> agents = IntStream.range(0, assignees)
                .mapToObj(index -> agent("many-" + index))
                .toList();
        Map<String, List<Task>> created = new LinkedHashMap<>();
        agents.forEach(agent -> created.put(agent, new ArrayList<>()));
        for (int batch = 0; batch < batches; batch++) {
            int batchNumber = batch;
            List<Task> inserted = store.inTransaction(tx -> {
                List<Task> result = new ArrayList<>();
                for (int index = 0; index < perBatch; index++) {
                    for (int agentIndex = 0; agentIndex < assignees; agentIndex++) {
                        int priority = (index * 7 + agentIndex + batchNumber) % 4;
                        result.add(tx.appendTask(NewTask.builder(session, "batch " + batchNumber + " #" + index)
                                .assignee(agents.get(agentIndex))
                                .priority(priority)
                                .build()));
                    }
                }
                return result;
            });
            inserted.forEach(task -> created.get(task.assignee()).add(task));
            clock.advance(Duration.ofSeconds(1));
        }

        List<List<Task>> claims = KitThreads.runTogether(
                assignees,
                "many-assignees",
                DEADLINE,
                worker -> claimUntilEmpty(agents.get(worker), batches * perBatch + 1));

        for (int worker = 0; worker < assignees; worker++) {
            String agent = agents.get(worker);
            List<Long> expected = created.get(agent).stream()
                    .sorted(CLAIM_ORDER)
                    .map(Task::id)
                    .toList();
            assertThat(ids(claims.get(worker)))
                    .as("claims of %s: only its own tasks, in claim order", agent)
                    .containsExactlyElementsOf(expected);
        }
    }

    @Test
    void ts75_concurrentClaimersNeverComeBackEmptyWhileTasksRemain() {
        int workers = 16;
        for (int round = 1; round <= 5; round++) {
            String session = session("claim-one-each-" + round);
            String agent = agent("claim-one-each-" + round);
            Set<Long> created = createQueue(session, agent, workers);

            // As many tasks as claimers, one claim each: a claimer that comes back empty leaves a task behind.
            List<Optional<Task>> claims = KitThreads.runTogether(
                    workers, "claim-one-each", DEADLINE, worker -> store.claimNext(agent, LEASE));

            assertThat(claims.stream().filter(Optional::isEmpty).count())
                    .as(
                            "round %d: claimers that came back empty while %d tasks for %d claimers were pending",
                            round, workers, workers)
                    .isZero();
            assertThat(claims.stream().map(claim -> claim.orElseThrow().id()))
                    .as("round %d: claimed tasks", round)
                    .containsExactlyInAnyOrderElementsOf(created);
        }
    }

    @Test
    void ts76_claimWaitsForATaskLockedByAUnitOfWorkThatIsNotAClaim() throws Exception {
        for (int round = 1; round <= 2; round++) {
            String agent = agent("locked-by-comment-" + round);
            Task task = append(NewTask.builder(session("locked-by-comment"), "task")
                    .assignee(agent)
                    .build());
            CountDownLatch commented = new CountDownLatch(1);
            CountDownLatch claimReturned = new CountDownLatch(1);
            Thread commenter = new Thread(() -> store.inTransaction(tx -> {
                tx.addComment(task.id(), "reviewer", "looking at it");
                commented.countDown();
                // Holds the task's lock until the claim returns, or for a while: a claim that waits for
                // it cannot return before, one that steps over the task returns at once, empty.
                await(claimReturned, LOCK_HOLD);
                return null;
            }));
            commenter.start();
            assertThat(commented.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();

            Optional<Task> claimed;
            try {
                claimed = store.claimNext(agent, LEASE);
            } finally {
                claimReturned.countDown();
                commenter.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
            }

            assertThat(claimed)
                    .as("round %d: the claim of a task locked by a comment's unit of work", round)
                    .map(Task::id)
                    .contains(task.id());
            assertThat(find(task.id()).comments()).map(Comment::text).containsExactly("looking at it");
        }
    }

    @Test
    void ts78_aBatchClaimTakesUpToItsLimitInClaimOrder() {
        String session = session("batch-claim");
        String agent = agent("batch-claim");
        EventFeed feed = store.eventFeed();
        List<Task> tasks = new ArrayList<>();
        for (int index = 0; index < 5; index++) {
            tasks.add(insertFor(session, agent, "task " + index, index % 3, Integer.MAX_VALUE));
            clock.advance(Duration.ofSeconds(1));
        }
        List<Long> expectedOrder = ids(tasks.stream().sorted(CLAIM_ORDER).toList());
        long start = feed.lastPosition();

        List<Task> first = store.claimUpTo(agent, LEASE, 3);
        List<Task> rest = store.inTransaction(tx -> tx.claimUpTo(agent, LEASE, 10));

        assertThat(ids(first)).containsExactlyElementsOf(expectedOrder.subList(0, 3));
        assertThat(ids(rest)).containsExactlyElementsOf(expectedOrder.subList(3, 5));
        assertThat(first).allSatisfy(task -> {
            assertThat(task.status()).isEqualTo(TaskStatus.RUNNING);
            assertThat(task.attempt()).isEqualTo(1);
            assertThat(task).isEqualTo(find(task.id()));
        });
        assertThat(store.claimUpTo(agent, LEASE, 4)).isEmpty();
        assertThat(feed.read(start, 100))
                .extracting(FeedEvent::kind)
                .containsExactly(Collections.nCopies(5, FeedEncoding.CLAIMED).toArray(String[]::new));
    }

    @Test
    void ts78_concurrentBatchClaimsClaimEachTaskExactlyOnce() {
        int workers = 4;
        int taskCount = 1000;
        String session = session("batch-claim-race");
        String agent = agent("batch-claim-race");
        Set<Long> created = createQueue(session, agent, taskCount);

        List<List<Task>> claims = KitThreads.runTogether(workers, "batch-claim-race", DEADLINE, worker -> {
            List<Task> mine = new ArrayList<>();
            for (List<Task> batch = store.claimUpTo(agent, LEASE, 7);
                    !batch.isEmpty() && mine.size() <= taskCount;
                    batch = store.claimUpTo(agent, LEASE, 7)) {
                assertThat(batch.size()).isBetween(1, 7);
                mine.addAll(batch);
            }
            return mine;
        });

        List<Long> claimedIds =
                claims.stream().flatMap(List::stream).map(Task::id).toList();
        assertThat(claimedIds).as("claimed ids, each once").doesNotHaveDuplicates();
        assertThat(new HashSet<>(claimedIds))
                .as("every task claimed although every claimer ran until it came back empty")
                .isEqualTo(created);
    }

    @Test
    void ts78_aBatchLimitOutOfBoundsIsRefusedAndWritesNothing() {
        String session = session("batch-claim-bounds");
        String agent = agent("batch-claim-bounds");
        Task task = insertFor(session, agent, "still pending", 0, Integer.MAX_VALUE);

        for (int limit : new int[] {0, -1, Leases.MAX_CLAIM_BATCH + 1}) {
            assertThatThrownBy(() -> store.claimUpTo(agent, LEASE, limit))
                    .as("limit %d", limit)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("limit");
        }

        assertThat(find(task.id())).isEqualTo(task);
        assertThat(store.claimUpTo(agent, LEASE, Leases.MAX_CLAIM_BATCH))
                .extracting(Task::id)
                .containsExactly(task.id());
    }

    // ---------------------------------------------------------------------------------------------
    /** A write the kit makes to a task before claiming it, to check that the claim returns what a read does. */
    @FunctionalInterface
    private interface WriteBeforeClaim {
        void write(Task task, String agent);
    }

    /** Every kind of write the SPI offers, each leaving the task claimable by {@code agent} (TS-7.7). */
    private Map<String, WriteBeforeClaim> writesBeforeClaim() {
        Map<String, WriteBeforeClaim> writes = new LinkedHashMap<>();
        writes.put("create", (task, agent) -> {});
        writes.put(
                "update of every field",
                (task, agent) -> store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(task.id())
                        .description("described again")
                        .priority(7)
                        .previousAssignee(agent("before"))
                        .steps("- [x] one\n- [ ] two\n")
                        .currentStep(2)
                        .build())));
        writes.put(
                "preferences replaced",
                (task, agent) -> store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(task.id())
                        .userPreferences(List.of("newer", "newest"))
                        .build())));
        writes.put(
                "preferences cleared",
                (task, agent) -> store.inTransaction(tx -> tx.updateTask(
                        TaskUpdate.of(task.id()).userPreferences(List.of()).build())));
        writes.put(
                "progress appended", (task, agent) -> store.inTransaction(tx -> tx.appendProgress(task.id(), "more")));
        writes.put(
                "comment added", (task, agent) -> store.inTransaction(tx -> tx.addComment(task.id(), agent, "later")));
        writes.put(
                "link added",
                (task, agent) ->
                        store.inTransaction(tx -> tx.addLink(task.id(), "https://example.org/later", "later", agent)));
        writes.put(
                "messages linked",
                (task, agent) -> store.inTransaction(tx -> tx.linkMessages(task.id(), List.of("m3", "m1", "m4"))));
        writes.put(
                "a message moved away",
                (task, agent) -> store.inTransaction(tx -> {
                    Task other = tx.appendTask(NewTask.of(task.sessionId(), "takes a message"));
                    return tx.linkMessages(other.id(), List.of("m1"));
                }));
        writes.put(
                "a message moved to the planning section",
                (task, agent) -> store.inTransaction(tx -> {
                    tx.linkMessagesToPlanningSection(task.sessionId(), List.of("m2"));
                    return null;
                }));
        writes.put("moved to another agent and back", (task, agent) -> {
            store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(task.id())
                    .assignee(agent("other"))
                    .previousAssignee(agent)
                    .build()));
            store.inTransaction(
                    tx -> tx.updateTask(TaskUpdate.of(task.id()).assignee(agent).build()));
        });
        writes.put("archived and restored", (task, agent) -> {
            store.inTransaction(
                    tx -> tx.updateTask(TaskUpdate.of(task.id()).archived(true).build()));
            store.inTransaction(
                    tx -> tx.updateTask(TaskUpdate.of(task.id()).archived(false).build()));
        });
        writes.put("claimed, renewed and released", (task, agent) -> {
            Task claimed = store.claimNext(agent, LEASE).orElseThrow();
            store.inTransaction(tx -> tx.heartbeat(claimed.id(), agent, claimed.attempt(), Duration.ofHours(1)));
            store.inTransaction(tx -> tx.release(claimed.id(), agent, claimed.attempt()));
        });
        writes.put("completed and reopened", (task, agent) -> {
            Task claimed = store.claimNext(agent, LEASE).orElseThrow();
            store.inTransaction(tx -> tx.complete(claimed.id(), agent, claimed.attempt(), TaskStatus.FAILED));
            store.inTransaction(tx -> tx.updateTask(
                    TaskUpdate.of(task.id()).status(TaskStatus.PENDING).build()));
        });
        writes.put("reclaimed after its lease expired", (task, agent) -> {
            store.claimNext(agent, SHORT_LEASE).orElseThrow();
            reclaimUntil(Set.of(task.id()), 3);
        });
        if (keepsGraph()) {
            writes.put("a dependency added, its blocker succeeded", (task, agent) -> {
                Task blocker = append(task.sessionId(), "a later blocker");
                dependOn(task.id(), blocker.id());
                succeed(blocker.id());
            });
            writes.put("a dependency removed", (task, agent) -> {
                Task blocker = append(task.sessionId(), "a removed blocker");
                dependOn(task.id(), blocker.id());
                store.inTransaction(tx -> tx.removeDependency(task.id(), blocker.id()));
            });
            writes.put("tags, metadata and parent replaced", (task, agent) -> {
                Task parent = append(task.sessionId(), "another parent");
                store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(task.id())
                        .tags(List.of("moved", "relabelled"))
                        .metadata("{\"moved\": true}")
                        .parent(parent.id())
                        .build()));
            });
        }
        return writes;
    }

    @Test
    void ts77_aClaimReturnsExactlyWhatAReadReturnsAfterEveryKindOfWrite() {
        Map<String, WriteBeforeClaim> writes = writesBeforeClaim();
        List<String> differences = new ArrayList<>();
        for (Map.Entry<String, WriteBeforeClaim> write : writes.entrySet()) {
            for (boolean inUnitOfWork : List.of(false, true)) {
                String session = session("claim-equals-read");
                String agent = agent("claim-equals-read");
                Task task = claimableRichTask(session, agent);
                write.getValue().write(task, agent);
                clock.advance(Duration.ofSeconds(1));

                Task claimed = inUnitOfWork
                        ? store.inTransaction(tx -> tx.claimNext(agent, LEASE)).orElseThrow()
                        : store.claimNext(agent, LEASE).orElseThrow();

                Task read = find(task.id());
                if (!claimed.equals(read)) {
                    differences.add(write.getKey() + (inUnitOfWork ? " (claimed in a unit of work)" : "")
                            + ":\n  claimed " + claimed + "\n  read    " + read);
                }
            }
        }
        assertThat(differences)
                .as("claims that differ from a read of the same task")
                .isEmpty();
    }

    /** A task with a value in every field and every kind of child, claimable by {@code agent}. */
    private Task claimableRichTask(String session, String agent) {
        NewTask.Builder spec = NewTask.builder(session, "claimed after a write")
                .priority(2)
                .assignee(agent)
                .createdBy(agent("creator"))
                .steps("- [ ] one\n- [ ] two\n")
                .maxAttempts(5);
        if (keepsGraph()) {
            Task parent = append(session, "the parent");
            Task blocker = append(session, "a finished blocker");
            succeed(blocker.id());
            spec.parent(parent.id())
                    .blockedBy(blocker.id())
                    .tags("kit", AWKWARD_TEXTS.get(8))
                    .metadata(
                            "{\"ticket\": \"KIT-1\", \"text\": " + FeedEncoding.jsonString(AWKWARD_TEXTS.get(3)) + "}");
        }
        Task task = append(spec.build());
        return store.inTransaction(tx -> {
            tx.updateTask(TaskUpdate.of(task.id())
                    .userPreferences(List.of("a preference", "another"))
                    .build());
            tx.appendProgress(task.id(), "some progress");
            tx.appendProgress(task.id(), AWKWARD_TEXTS.get(0));
            tx.addComment(task.id(), agent, "a comment");
            tx.addComment(task.id(), agent("reviewer"), AWKWARD_TEXTS.get(8));
            tx.addLink(task.id(), "https://example.org", "a link", agent);
            return tx.linkMessages(task.id(), List.of("m1", "m2"));
        });
    }

    // TS-9 Leases
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts91_claimCountsTheAttemptAndSetsALeaseOfTheLengthAsked() {
        String agent = agent("lease-length");
        Task shortOne = append(NewTask.builder(session("lease-length"), "short")
                .assignee(agent)
                .priority(2)
                .build());
        Task longOne = append(NewTask.builder(session("lease-length"), "long")
                .assignee(agent)
                .priority(1)
                .build());

        Task claimedShort = store.claimNext(agent, Duration.ofMinutes(1)).orElseThrow();
        Task claimedLong = store.claimNext(agent, Duration.ofHours(1)).orElseThrow();

        assertThat(claimedShort.id()).isEqualTo(shortOne.id());
        assertThat(claimedLong.id()).isEqualTo(longOne.id());
        assertThat(claimedShort.attempt()).isEqualTo(1);
        assertThat(claimedShort.leaseExpiresAt()).isNotNull();
        assertThat(claimedShort.isLeased()).isTrue();
        assertThat(Duration.between(claimedShort.leaseExpiresAt(), claimedLong.leaseExpiresAt()))
                .as("an hour's lease ends 59 minutes after a minute's, on whatever clock the store uses")
                .isBetween(
                        Duration.ofMinutes(59).minus(CLOCK_SLACK),
                        Duration.ofMinutes(59).plus(CLOCK_SLACK));
        assertThat(find(shortOne.id())).isEqualTo(claimedShort);
    }

    @Test
    void ts91_everyClaimOfATaskCountsOneMoreAttempt() {
        String agent = agent("attempts");
        Task task = append(
                NewTask.builder(session("attempts"), "task").assignee(agent).build());

        for (int attempt = 1; attempt <= 3; attempt++) {
            Task claimed = store.claimNext(agent, LEASE).orElseThrow();
            assertThat(claimed.attempt()).isEqualTo(attempt);
            int current = attempt;
            store.inTransaction(tx -> tx.release(task.id(), agent, current));
        }

        assertThat(find(task.id()).attempt()).isEqualTo(3);
        assertThat(find(task.id()).status()).isEqualTo(TaskStatus.PENDING);
    }

    @Test
    void ts92_heartbeatRenewsTheLeaseOfTheClaimHolder() {
        String agent = agent("heartbeat");
        Task task = append(
                NewTask.builder(session("heartbeat"), "task").assignee(agent).build());
        Task claimed = store.claimNext(agent, Duration.ofMinutes(1)).orElseThrow();

        Task renewed = store.inTransaction(tx -> tx.heartbeat(task.id(), agent, 1, Duration.ofHours(1)));

        assertThat(Duration.between(claimed.leaseExpiresAt(), renewed.leaseExpiresAt()))
                .isBetween(
                        Duration.ofMinutes(59).minus(CLOCK_SLACK),
                        Duration.ofMinutes(59).plus(CLOCK_SLACK));
        assertThat(renewed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(renewed.attempt()).isEqualTo(1);
        assertThat(renewed.version()).isEqualTo(claimed.version() + 1);
        assertThat(find(task.id())).isEqualTo(renewed);
    }

    @Test
    void ts92_writesAboutAClaimHeldByAnotherAgentOrAttemptAreRefusedAndWriteNothing() {
        String agent = agent("fenced");
        String other = agent("fenced-other");
        Task task = append(
                NewTask.builder(session("fenced"), "task").assignee(agent).build());
        Task claimed = store.claimNext(agent, LEASE).orElseThrow();
        long id = task.id();
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put("heartbeat by another agent", tx -> tx.heartbeat(id, other, 1, LEASE));
        calls.put("heartbeat of another attempt", tx -> tx.heartbeat(id, agent, 2, LEASE));
        calls.put("complete by another agent", tx -> tx.complete(id, other, 1, TaskStatus.SUCCESS));
        calls.put("complete of an earlier attempt", tx -> tx.complete(id, agent, 2, TaskStatus.FAILED));
        calls.put("release by another agent", tx -> tx.release(id, other, 1));
        calls.put("release of another attempt", tx -> tx.release(id, agent, 7));

        for (Map.Entry<String, Call> call : calls.entrySet()) {
            assertThat(catchThrowable(() -> store.inTransaction(call.getValue())))
                    .as(call.getKey())
                    .isInstanceOf(ClaimLostException.class)
                    .hasMessageStartingWith("Task " + id + " is no longer claimed by ");
        }
        assertThat(find(id)).isEqualTo(claimed);
    }

    @Test
    void ts92_writesAboutATaskThatIsNotRunningAreRefused() {
        String agent = agent("not-running");
        Task finished = append(NewTask.builder(session("not-running"), "finished")
                .assignee(agent)
                .priority(1)
                .build());
        Task neverClaimed = append(NewTask.builder(session("not-running"), "never claimed")
                .assignee(agent)
                .build());
        assertThat(store.claimNext(agent, LEASE)).map(Task::id).contains(finished.id());
        store.inTransaction(tx -> tx.complete(finished.id(), agent, 1, TaskStatus.SUCCESS));
        Task finishedBefore = find(finished.id());

        assertThat(catchThrowable(() -> store.inTransaction(tx -> tx.heartbeat(finished.id(), agent, 1, LEASE))))
                .as("heartbeat of a completed task")
                .isInstanceOf(ClaimLostException.class);
        assertThat(catchThrowable(
                        () -> store.inTransaction(tx -> tx.complete(finished.id(), agent, 1, TaskStatus.FAILED))))
                .as("a second completion")
                .isInstanceOf(ClaimLostException.class);
        assertThat(catchThrowable(() -> store.inTransaction(tx -> tx.release(neverClaimed.id(), agent, 1))))
                .as("release of a task never claimed")
                .isInstanceOf(ClaimLostException.class);
        assertThat(catchThrowable(() -> store.inTransaction(tx -> tx.heartbeat(UNKNOWN_ID, agent, 1, LEASE))))
                .isInstanceOf(TaskNotFoundException.class);
        assertThat(find(finished.id())).isEqualTo(finishedBefore);
        assertThat(find(neverClaimed.id())).isEqualTo(neverClaimed);
    }

    @Test
    void ts93_completeSetsTheOutcomeAndClearsTheLease() {
        String agent = agent("complete");
        Task first = append(NewTask.builder(session("complete"), "first")
                .assignee(agent)
                .priority(1)
                .build());
        Task second = append(
                NewTask.builder(session("complete"), "second").assignee(agent).build());
        Task claimedFirst = store.claimNext(agent, LEASE).orElseThrow();
        store.claimNext(agent, LEASE).orElseThrow();

        Task succeeded = store.inTransaction(tx -> tx.complete(first.id(), agent, 1, TaskStatus.SUCCESS));
        Task failed = store.inTransaction(tx -> tx.complete(second.id(), agent, 1, TaskStatus.FAILED));

        assertThat(succeeded.status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(failed.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(List.of(succeeded, failed)).allSatisfy(task -> {
            assertThat(task.leaseExpiresAt()).isNull();
            assertThat(task.isLeased()).isFalse();
            assertThat(task.attempt()).isEqualTo(1);
            assertThat(task.assignee()).isEqualTo(agent);
        });
        assertThat(succeeded.version()).isEqualTo(claimedFirst.version() + 1);
        assertThat(find(first.id())).isEqualTo(succeeded);
        assertThat(catchThrowable(
                        () -> store.inTransaction(tx -> tx.complete(second.id(), agent, 1, TaskStatus.RUNNING))))
                .as("an outcome that is not terminal")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ts96_aBatchCompletionEndsTheClaimsStillHeldAndLeavesTheOthersAsTheyWere() {
        String session = session("batch-complete");
        String agent = agent("batch-complete");
        List<Task> tasks = new ArrayList<>();
        for (int index = 0; index < 4; index++) {
            tasks.add(append(NewTask.builder(session, "task " + index)
                    .assignee(agent)
                    .priority(10 - index)
                    .build()));
        }
        List<Task> claimed = store.claimUpTo(agent, LEASE, 4);
        assertThat(ids(claimed)).containsExactlyElementsOf(ids(tasks));
        long held = claimed.get(0).id();
        long lost = claimed.get(1).id();
        long released = claimed.get(2).id();
        long alsoHeld = claimed.get(3).id();
        store.inTransaction(tx -> tx.release(released, agent, 1));
        Task lostBefore = find(lost);
        Task releasedBefore = find(released);
        Map<Long, Integer> attempts = new LinkedHashMap<>();
        attempts.put(alsoHeld, 1);
        attempts.put(lost, 2);
        attempts.put(released, 1);
        attempts.put(UNKNOWN_ID, 1);
        attempts.put(held, 1);

        Map<Long, Task> completed = store.inTransaction(tx -> tx.completeHeld(agent, attempts, TaskStatus.FAILED));

        assertThat(completed.keySet()).as("in the order given").containsExactly(alsoHeld, held);
        for (Task before : List.of(claimed.get(0), claimed.get(3))) {
            Task after = completed.get(before.id());
            assertThat(after.status()).isEqualTo(TaskStatus.FAILED);
            assertThat(after.leaseExpiresAt()).isNull();
            assertThat(after.attempt()).isEqualTo(1);
            assertThat(after.version()).isEqualTo(before.version() + 1);
            assertThat(find(before.id())).isEqualTo(after);
        }
        assertThat(find(lost)).as("a claim of another attempt").isEqualTo(lostBefore);
        assertThat(find(released)).as("a task no longer running").isEqualTo(releasedBefore);
        Map<Long, Task> none = store.inTransaction(tx -> tx.completeHeld(agent, Map.of(), TaskStatus.SUCCESS));
        assertThat(none).isEmpty();
    }

    @Test
    void ts96_aBatchCompletionOutOfBoundsIsRefusedAndWritesNothing() {
        String agent = agent("batch-complete-bounds");
        append(NewTask.builder(session("batch-complete-bounds"), "task")
                .assignee(agent)
                .build());
        Task claimed = store.claimNext(agent, LEASE).orElseThrow();
        Map<Long, Integer> tooMany = new LinkedHashMap<>();
        tooMany.put(claimed.id(), 1);
        for (long id = 1; tooMany.size() <= Leases.MAX_CLAIM_BATCH; id++) {
            tooMany.putIfAbsent(id, 1);
        }
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put(
                "an outcome that is not terminal",
                tx -> tx.completeHeld(agent, Map.of(claimed.id(), 1), TaskStatus.RUNNING));
        calls.put("an attempt of 0", tx -> tx.completeHeld(agent, Map.of(claimed.id(), 0), TaskStatus.SUCCESS));
        calls.put("a task id of 0", tx -> tx.completeHeld(agent, Map.of(0L, 1), TaskStatus.SUCCESS));
        calls.put("a blank agent", tx -> tx.completeHeld(" ", Map.of(claimed.id(), 1), TaskStatus.SUCCESS));
        calls.put("too many claims", tx -> tx.completeHeld(agent, tooMany, TaskStatus.SUCCESS));

        for (Map.Entry<String, Call> call : calls.entrySet()) {
            assertThat(catchThrowable(() -> store.inTransaction(call.getValue())))
                    .as(call.getKey())
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(find(claimed.id())).isEqualTo(claimed);
    }

    @Test
    void ts96_aBatchSuccessUnblocksDependantsAndLeavesAParentWithOpenSubtasksRunning() {
        assumeGraph();
        String session = session("batch-complete-graph");
        String agent = agent("batch-complete-graph");
        Task blocker = append(
                NewTask.builder(session, "build").assignee(agent).priority(2).build());
        Task parent = append(
                NewTask.builder(session, "release").assignee(agent).priority(1).build());
        Task dependant = append(
                NewTask.builder(session, "deploy").blockedBy(blocker.id()).build());
        append(NewTask.builder(session, "write the notes").parent(parent.id()).build());
        List<Task> claimed = store.claimUpTo(agent, LEASE, 2);
        assertThat(ids(claimed)).containsExactly(blocker.id(), parent.id());
        Task parentBefore = find(parent.id());
        Map<Long, Integer> attempts = new LinkedHashMap<>();
        attempts.put(parent.id(), 1);
        attempts.put(blocker.id(), 1);

        Map<Long, Task> completed = store.inTransaction(tx -> tx.completeHeld(agent, attempts, TaskStatus.SUCCESS));

        assertThat(completed.keySet()).containsExactly(blocker.id());
        assertThat(find(blocker.id()).status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(find(dependant.id()).openBlockers()).isZero();
        assertThat(find(dependant.id()).isReady()).isTrue();
        assertThat(find(parent.id())).as("a parent with an open subtask").isEqualTo(parentBefore);
        assertThatThrownBy(() -> store.inTransaction(tx -> tx.complete(parent.id(), agent, 1, TaskStatus.SUCCESS)))
                .as("complete() alone says why")
                .isInstanceOf(TaskGraphException.class);
    }

    @Test
    void ts93_releasePutsTheTaskBackInTheQueueAndKeepsItsAttempt() {
        String agent = agent("release");
        Task task = append(
                NewTask.builder(session("release"), "task").assignee(agent).build());
        store.claimNext(agent, LEASE).orElseThrow();

        Task released = store.inTransaction(tx -> tx.release(task.id(), agent, 1));

        assertThat(released.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(released.assignee()).isEqualTo(agent);
        assertThat(released.attempt()).isEqualTo(1);
        assertThat(released.leaseExpiresAt()).isNull();
        assertThat(store.claimNext(agent, LEASE)).map(Task::attempt).contains(2);
    }

    @Test
    void ts93_anUpdateThatTakesATaskOutOfRunningClearsItsLease() {
        String agent = agent("update-clears");
        Task task = append(NewTask.builder(session("update-clears"), "task")
                .assignee(agent)
                .build());
        store.claimNext(agent, LEASE).orElseThrow();

        Task moved = store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(task.id())
                .status(TaskStatus.PENDING)
                .assignee(agent("update-clears-other"))
                .build()));

        assertThat(moved.leaseExpiresAt()).isNull();
        assertThat(moved.attempt()).isEqualTo(1);
        assertThat(find(task.id()).leaseExpiresAt()).isNull();
    }

    @Test
    void ts94_reclaimTakesBackExactlyTheExpiredClaims() {
        String agent = agent("reclaim");
        String session = session("reclaim");
        Task expiring = append(
                NewTask.builder(session, "expiring").assignee(agent).priority(3).build());
        Task renewed = append(
                NewTask.builder(session, "renewed").assignee(agent).priority(2).build());
        Task completed = append(NewTask.builder(session, "completed")
                .assignee(agent)
                .priority(1)
                .build());
        Task living = append(NewTask.builder(session, "living").assignee(agent).build());
        store.claimNext(agent, SHORT_LEASE).orElseThrow();
        store.claimNext(agent, SHORT_LEASE).orElseThrow();
        store.claimNext(agent, SHORT_LEASE).orElseThrow();
        store.claimNext(agent, Duration.ofHours(1)).orElseThrow();
        store.inTransaction(tx -> tx.heartbeat(renewed.id(), agent, 1, Duration.ofHours(1)));
        store.inTransaction(tx -> tx.complete(completed.id(), agent, 1, TaskStatus.SUCCESS));
        Task completedBefore = find(completed.id());
        Task livingBefore = find(living.id());

        List<ReclaimedTask> reclaimed = reclaimUntil(Set.of(expiring.id()), 3);

        assertThat(reclaimed).singleElement().satisfies(result -> {
            assertThat(result.outcome()).isEqualTo(ReclaimedTask.Outcome.REQUEUED);
            assertThat(result.expiredAttempt()).isEqualTo(1);
            Task task = result.task();
            assertThat(task.id()).isEqualTo(expiring.id());
            assertThat(task.status()).isEqualTo(TaskStatus.PENDING);
            assertThat(task.assignee()).isEqualTo(agent);
            assertThat(task.leaseExpiresAt()).isNull();
            assertThat(task.attempt()).isEqualTo(1);
            assertThat(task.comments()).singleElement().satisfies(comment -> {
                assertThat(comment.author()).isEqualTo(Leases.REAPER);
                assertThat(comment.text())
                        .startsWith("The lease of attempt 1 of 3 expired at ")
                        .contains("the task is back in the queue");
            });
            assertThat(find(expiring.id())).isEqualTo(task);
        });
        assertThat(find(renewed.id()).status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(find(completed.id())).isEqualTo(completedBefore);
        assertThat(find(living.id())).isEqualTo(livingBefore);
        assertThat(store.claimNext(agent, LEASE)).map(Task::id).contains(expiring.id());
    }

    @Test
    void ts94_aTaskThatUsedItsLastAttemptFailsWithADeadLetterComment() {
        String agent = agent("dead-letter");
        String session = session("dead-letter");
        Task limited = append(NewTask.builder(session, "limited to two")
                .assignee(agent)
                .maxAttempts(2)
                .priority(1)
                .build());
        Task unlimited =
                append(NewTask.builder(session, "default limit").assignee(agent).build());

        store.claimNext(agent, SHORT_LEASE).orElseThrow();
        store.claimNext(agent, SHORT_LEASE).orElseThrow();
        List<ReclaimedTask> first = reclaimUntil(Set.of(limited.id(), unlimited.id()), 1);
        Task second = store.claimNext(agent, SHORT_LEASE).orElseThrow();
        List<ReclaimedTask> last = reclaimUntil(Set.of(limited.id()), 1);

        assertThat(first)
                .extracting(ReclaimedTask::outcome)
                .containsExactlyInAnyOrder(ReclaimedTask.Outcome.REQUEUED, ReclaimedTask.Outcome.DEAD_LETTERED);
        assertThat(first)
                .filteredOn(result -> result.task().id() == unlimited.id())
                .singleElement()
                .satisfies(result -> {
                    assertThat(result.outcome())
                            .as("the default of 1 applies")
                            .isEqualTo(ReclaimedTask.Outcome.DEAD_LETTERED);
                    assertThat(result.task().status()).isEqualTo(TaskStatus.FAILED);
                });
        assertThat(second.id()).isEqualTo(limited.id());
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(last).singleElement().satisfies(result -> {
            assertThat(result.outcome()).isEqualTo(ReclaimedTask.Outcome.DEAD_LETTERED);
            assertThat(result.expiredAttempt()).isEqualTo(2);
            assertThat(result.task().status()).isEqualTo(TaskStatus.FAILED);
            assertThat(result.task().leaseExpiresAt()).isNull();
            assertThat(result.task().comments()).last().satisfies(comment -> {
                assertThat(comment.author()).isEqualTo(Leases.REAPER);
                assertThat(comment.text())
                        .startsWith("The lease of attempt 2 of 2 expired at ")
                        .endsWith("no attempts are left, so the task failed (dead letter).");
            });
        });
        assertThat(store.claimNext(agent, LEASE)).isEmpty();
    }

    @Test
    void ts94_concurrentReclaimsTakeEachExpiredClaimExactlyOnce() {
        String agent = agent("reclaim-race");
        Set<Long> ids = createQueue(session("reclaim-race"), agent, 200);
        for (int claimed = 0; claimed < ids.size(); claimed++) {
            store.claimNext(agent, SHORT_LEASE).orElseThrow();
        }
        letLeasesExpire(SHORT_LEASE);

        List<List<ReclaimedTask>> rounds = KitThreads.runTogether(8, "reclaim-race", DEADLINE, worker -> {
            List<ReclaimedTask> mine = new ArrayList<>();
            for (List<ReclaimedTask> batch = store.inTransaction(tx -> tx.reclaimExpired(3, 7));
                    !batch.isEmpty();
                    batch = store.inTransaction(tx -> tx.reclaimExpired(3, 7))) {
                mine.addAll(batch);
            }
            return mine;
        });
        List<Long> reclaimedIds = new ArrayList<>();
        rounds.forEach(
                round -> round.forEach(result -> reclaimedIds.add(result.task().id())));
        Set<Long> missing = new HashSet<>(ids);
        missing.removeAll(reclaimedIds);
        reclaimUntil(missing, 3)
                .forEach(result -> reclaimedIds.add(result.task().id()));

        assertThat(reclaimedIds).as("each expired claim, taken back once").containsExactlyInAnyOrderElementsOf(ids);
        assertThat(ids).allSatisfy(id -> {
            Task task = find(id);
            assertThat(task.status()).isEqualTo(TaskStatus.PENDING);
            assertThat(task.comments()).hasSize(1);
        });
    }

    @Test
    void ts94_aReclaimAndTheWorkersCompletingTheSameTasksNeverBothWin() {
        String agent = agent("reclaim-or-complete");
        Set<Long> ids = createQueue(session("reclaim-or-complete"), agent, 100);
        for (int claimed = 0; claimed < ids.size(); claimed++) {
            store.claimNext(agent, SHORT_LEASE).orElseThrow();
        }
        letLeasesExpire(SHORT_LEASE);

        List<Set<Long>> outcomes = KitThreads.runTogether(2, "reclaim-or-complete", DEADLINE, worker -> {
            Set<Long> won = new HashSet<>();
            if (worker == 0) {
                for (List<ReclaimedTask> batch = store.inTransaction(tx -> tx.reclaimExpired(3, 5));
                        !batch.isEmpty();
                        batch = store.inTransaction(tx -> tx.reclaimExpired(3, 5))) {
                    batch.forEach(result -> won.add(result.task().id()));
                }
            } else {
                for (long id : ids) {
                    try {
                        store.inTransaction(tx -> tx.complete(id, agent, 1, TaskStatus.SUCCESS));
                        won.add(id);
                    } catch (ClaimLostException lost) {
                        // the reclaim came first: the completion is refused, as it must be
                    }
                }
            }
            return won;
        });
        Set<Long> reclaimed = outcomes.get(0);
        Set<Long> completed = outcomes.get(1);

        Set<Long> both = new HashSet<>(reclaimed);
        both.retainAll(completed);
        assertThat(both).as("tasks both reclaimed and completed").isEmpty();
        assertThat(reclaimed.size() + completed.size())
                .as("tasks reclaimed or completed, once the reclaim ran out")
                .isLessThanOrEqualTo(ids.size());
        assertThat(ids).allSatisfy(id -> {
            Task task = find(id);
            if (completed.contains(id)) {
                assertThat(task.status()).as("task %d, completed", id).isEqualTo(TaskStatus.SUCCESS);
                assertThat(task.comments()).as("task %d, completed", id).isEmpty();
            } else {
                assertThat(task.status()).as("task %d, not completed", id).isIn(TaskStatus.PENDING, TaskStatus.RUNNING);
            }
        });
    }

    @Test
    void ts111_countTasksCountsPendingAndRunningTasksAndExpiredLeasesButNotArchivedOnes() {
        TaskCounts before;
        try {
            before = store.countTasks();
        } catch (UnsupportedOperationException e) {
            assumeTrue(false, "the store does not count its tasks (TS-11 is optional): " + e.getMessage());
            return;
        }
        String agent = agent("count");
        String session = session("count");
        for (String description : List.of("first", "second", "third")) {
            append(NewTask.builder(session, description).assignee(agent).build());
        }
        Task archived =
                append(NewTask.builder(session, "archived").assignee(agent).build());
        store.inTransaction(
                tx -> tx.updateTask(TaskUpdate.of(archived.id()).archived(true).build()));
        store.claimNext(agent, SHORT_LEASE).orElseThrow();
        store.claimNext(agent, LEASE).orElseThrow();

        TaskCounts claimed = store.countTasks();
        assertThat(claimed.pending() - before.pending()).isEqualTo(1);
        assertThat(claimed.running() - before.running()).isEqualTo(2);

        clock.advance(SHORT_LEASE.plus(CLOCK_SLACK));
        Instant deadline = Instant.now().plus(DEADLINE);
        TaskCounts expired = store.countTasks();
        while (expired.expiredLeases() <= before.expiredLeases()) {
            assertThat(Instant.now())
                    .as("the short lease never counted as expired")
                    .isBefore(deadline);
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            expired = store.countTasks();
        }
        // Tasks other tests left running on a shared database may expire meanwhile too: at least ours counts.
        assertThat(expired.expiredLeases() - before.expiredLeases()).isPositive();
        assertThat(expired.running() - before.running()).isEqualTo(2);
        assertThat(expired.pending() - before.pending()).isEqualTo(1);
    }

    @Test
    void ts94_aTaskPutBackByAReclaimWithABackoffWaitsForIt() {
        String agent = agent("reclaim-backoff");
        String session = session("reclaim-backoff");
        Task again = append(NewTask.builder(session, "goes back")
                .assignee(agent)
                .priority(1)
                .build());
        Task last = append(NewTask.builder(session, "last attempt")
                .assignee(agent)
                .maxAttempts(1)
                .build());
        store.claimNext(agent, SHORT_LEASE).orElseThrow();
        store.claimNext(agent, SHORT_LEASE).orElseThrow();
        List<Integer> askedFor = new CopyOnWriteArrayList<>();

        Map<Long, ReclaimedTask> reclaimed = new HashMap<>();
        reclaimUntil(Set.of(again.id(), last.id()), 3, attempt -> {
                    askedFor.add(attempt);
                    return Duration.ofHours(1);
                })
                .forEach(result -> reclaimed.put(result.task().id(), result));
        Task reference =
                append(NewTask.builder(session, "reference").assignee(agent).build());
        Task claimedReference = store.claimNext(agent, Duration.ofHours(1)).orElseThrow();

        assertThat(claimedReference.id()).as("the task put back waits").isEqualTo(reference.id());
        Task waiting = reclaimed.get(again.id()).task();
        assertThat(waiting.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(Duration.between(claimedReference.leaseExpiresAt(), waiting.notBefore())
                        .abs())
                .as("an hour from the reclaim, on the store's clock")
                .isLessThan(CLOCK_SLACK.plus(SHORT_LEASE));
        assertThat(find(again.id())).isEqualTo(waiting);
        assertThat(askedFor)
                .as("the backoff is asked for the task put back, by its expired attempt")
                .contains(1);
        Task deadLetter = reclaimed.get(last.id()).task();
        assertThat(deadLetter.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(deadLetter.notBefore()).as("a dead letter waits for nothing").isNull();
        assertThat(store.claimNext(agent, LEASE)).isEmpty();
    }

    @Test
    void ts95_leaseArgumentsOutOfBoundsAreRefusedAndWriteNothing() {
        String session = session("bad-leases");
        String agent = agent("bad-leases");
        Task task = append(NewTask.builder(session, "task").assignee(agent).build());
        long id = task.id();
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put("claimNext(agent, 0)", tx -> tx.claimNext(agent, Duration.ZERO));
        calls.put("claimNext(agent, -1 s)", tx -> tx.claimNext(agent, Duration.ofSeconds(-1)));
        calls.put("claimNext(agent, 2 years)", tx -> tx.claimNext(agent, Duration.ofDays(730)));
        calls.put("heartbeat(id, agent, 0, lease)", tx -> tx.heartbeat(id, agent, 0, LEASE));
        calls.put("heartbeat(id, agent, 1, 0)", tx -> tx.heartbeat(id, agent, 1, Duration.ZERO));
        calls.put("complete(id, agent, -1, success)", tx -> tx.complete(id, agent, -1, TaskStatus.SUCCESS));
        calls.put("release(id, agent, 0)", tx -> tx.release(id, agent, 0));
        calls.put("reclaimExpired(0, 10)", tx -> tx.reclaimExpired(0, 10));
        calls.put("reclaimExpired(3, 0)", tx -> tx.reclaimExpired(3, 0));

        assertRefusedWithoutWriting(calls, IllegalArgumentException.class, session, task);
        assertThatThrownBy(() -> store.claimNext(agent, null)).isInstanceOf(NullPointerException.class);
        assertThat(catchThrowable(() -> NewTask.builder(session, "x").maxAttempts(0)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ts97_aTaskWaitsForItsNotBeforeTimeThenIsClaimedInOrder() {
        String agent = agent("not-before");
        String session = session("not-before");
        // Ahead of (and behind) both the kit's clock and the database's, whichever the store uses.
        Instant ahead =
                latest(clock.instant(), Instant.now()).plus(Duration.ofHours(1)).plusNanos(123_456_789);
        Instant passed = earliest(clock.instant(), Instant.now()).minus(Duration.ofHours(1));
        Task waiting = append(NewTask.builder(session, "waits an hour")
                .assignee(agent)
                .priority(3)
                .notBefore(ahead)
                .build());
        Task due = append(NewTask.builder(session, "was due an hour ago")
                .assignee(agent)
                .priority(2)
                .notBefore(passed)
                .build());
        Task plain = append(
                NewTask.builder(session, "no time").assignee(agent).priority(1).build());

        assertThat(find(waiting.id()).notBefore())
                .as("kept to the microsecond")
                .isEqualTo(ahead.truncatedTo(ChronoUnit.MICROS));
        assertThat(find(due.id()).notBefore()).isEqualTo(passed.truncatedTo(ChronoUnit.MICROS));
        assertThat(find(plain.id()).notBefore()).isNull();
        Task claimedDue = store.claimNext(agent, LEASE).orElseThrow();
        assertThat(claimedDue.id()).isEqualTo(due.id());
        assertThat(claimedDue.notBefore())
                .as("a claim clears the time it waited for")
                .isNull();
        assertThat(find(due.id())).isEqualTo(claimedDue);
        assertThat(store.claimUpTo(agent, LEASE, 5)).extracting(Task::id).containsExactly(plain.id());
        assertThat(store.claimNext(agent, LEASE)).as("the task that waits").isEmpty();
        assertThat(store.claimUpTo(agent, LEASE, 5)).isEmpty();

        store.inTransaction(tx -> tx.delay(waiting.id(), Duration.ZERO));
        assertThat(store.claimNext(agent, LEASE)).map(Task::id).contains(waiting.id());
    }

    @Test
    void ts98_delayMakesATaskWaitAndZeroMakesItClaimableAgain() {
        String agent = agent("delay");
        String session = session("delay");
        Task task = append(
                NewTask.builder(session, "delayed").assignee(agent).priority(1).build());
        Task reference =
                append(NewTask.builder(session, "reference").assignee(agent).build());

        Task delayed = store.inTransaction(tx -> tx.delay(task.id(), Duration.ofHours(1)));
        Task claimedReference = store.claimNext(agent, Duration.ofHours(1)).orElseThrow();

        assertThat(claimedReference.id())
                .as("the delayed task is not claimed although it comes first")
                .isEqualTo(reference.id());
        assertThat(Duration.between(claimedReference.leaseExpiresAt(), delayed.notBefore()))
                .as("an hour's delay ends with an hour's lease taken at the same time, on the store's clock")
                .isBetween(CLOCK_SLACK.negated(), CLOCK_SLACK);
        assertThat(delayed)
                .isEqualTo(TaskBuilder.from(task)
                        .notBefore(delayed.notBefore())
                        .version(task.version() + 1)
                        .updatedAt(delayed.updatedAt())
                        .build());
        assertThat(find(task.id())).isEqualTo(delayed);
        assertThat(store.claimNext(agent, LEASE)).isEmpty();

        Task cleared = store.inTransaction(tx -> tx.delay(task.id(), Duration.ZERO));
        assertThat(cleared.notBefore()).isNull();
        assertThat(store.claimNext(agent, LEASE)).map(Task::id).contains(task.id());

        Task shortly =
                append(NewTask.builder(session, "shortly").assignee(agent).build());
        store.inTransaction(tx -> tx.delay(shortly.id(), SHORT_LEASE));
        assertThat(store.claimNext(agent, LEASE)).as("before its time").isEmpty();
        letLeasesExpire(SHORT_LEASE);
        assertThat(store.claimNext(agent, LEASE))
                .as("after its time")
                .map(Task::id)
                .contains(shortly.id());
    }

    @Test
    void ts98_delayOfAnEndedTaskOrOutOfRangeIsRefusedAndWritesNothing() {
        String agent = agent("bad-delay");
        String session = session("bad-delay");
        Task task = append(NewTask.builder(session, "task").assignee(agent).build());
        long id = task.id();
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put("delay(id, -1 s)", tx -> tx.delay(id, Duration.ofSeconds(-1)));
        calls.put("delay(id, 11 years)", tx -> tx.delay(id, NewTask.MAX_SCHEDULE_AHEAD.plus(Duration.ofDays(366))));
        assertRefusedWithoutWriting(calls, IllegalArgumentException.class, session, task);
        assertThatThrownBy(() -> store.inTransaction(tx -> tx.delay(UNKNOWN_ID, Duration.ofSeconds(1))))
                .isInstanceOf(TaskNotFoundException.class);

        Task claimed = store.claimNext(agent, LEASE).orElseThrow();
        Task done = store.inTransaction(tx -> tx.complete(id, agent, claimed.attempt(), TaskStatus.SUCCESS));
        assertThatThrownBy(() -> store.inTransaction(tx -> tx.delay(id, Duration.ofMinutes(1))))
                .isInstanceOf(TaskCompleteException.class)
                .hasMessageContaining("Task " + id);
        assertThat(find(id)).isEqualTo(done);
        assertThatThrownBy(() -> NewTask.builder(session, "too late")
                        .notBefore(
                                Instant.now().plus(NewTask.MAX_SCHEDULE_AHEAD).plus(Duration.ofDays(2))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("notBefore");
    }

    @Test
    void ts99_untilNextScheduledTellsTheWaitOfTheSoonestWaitingTask() {
        String agent = agent("next-scheduled");
        String other = agent("next-scheduled-other");
        String session = session("next-scheduled");
        assertThat(untilNextScheduled(agent)).isEmpty();
        Task inAnHour =
                append(NewTask.builder(session, "in an hour").assignee(agent).build());
        Task inTwoHours =
                append(NewTask.builder(session, "in two hours").assignee(agent).build());
        Task archived =
                append(NewTask.builder(session, "archived").assignee(agent).build());
        Task others = append(
                NewTask.builder(session, "another agent's").assignee(other).build());
        append(NewTask.builder(session, "ready now").assignee(agent).build());
        store.inTransaction(tx -> {
            tx.delay(inAnHour.id(), Duration.ofHours(1));
            tx.delay(inTwoHours.id(), Duration.ofHours(2));
            tx.delay(archived.id(), Duration.ofMinutes(10));
            tx.updateTask(TaskUpdate.of(archived.id()).archived(true).build());
            return tx.delay(others.id(), Duration.ofMinutes(5));
        });

        assertThat(untilNextScheduled(agent)).hasValueSatisfying(wait -> assertThat(wait)
                .isBetween(Duration.ofHours(1).minus(CLOCK_SLACK), Duration.ofHours(1)));
        store.inTransaction(tx -> tx.delay(inAnHour.id(), Duration.ZERO));
        assertThat(untilNextScheduled(agent)).hasValueSatisfying(wait -> assertThat(wait)
                .isBetween(Duration.ofHours(2).minus(CLOCK_SLACK), Duration.ofHours(2)));
        assertThat(untilNextScheduled(other)).hasValueSatisfying(wait -> assertThat(wait)
                .isBetween(Duration.ofMinutes(5).minus(CLOCK_SLACK), Duration.ofMinutes(5)));
    }

    private Optional<Duration> untilNextScheduled(String agent) {
        return store.inTransaction(tx -> tx.untilNextScheduled(agent));
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant earliest(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    // ---------------------------------------------------------------------------------------------
    // TS-10 The event feed
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts101_everyCommittedChangeAppendsAnEventAndRolledBackWorkNone() {
        EventFeed feed = store.eventFeed();
        long start = feed.lastPosition();
        String session = session("feed-kinds");
        Task task = store.inTransaction(tx -> {
            Task created = tx.appendTask(NewTask.of(session, "watched"));
            tx.recordEvent(new TaskEvent.Created(created));
            return created;
        });
        store.inTransaction(tx -> tx.addComment(task.id(), "carol", "told by no event"));
        assertThatThrownBy(() -> store.inTransaction(tx -> {
                    Task changed = tx.appendProgress(task.id(), "rolled back");
                    tx.recordEvent(new TaskEvent.ProgressAppended(changed, "rolled back"));
                    throw new IllegalStateException("roll back");
                }))
                .isInstanceOf(IllegalStateException.class);
        store.inTransaction(tx -> {
            Task commented = tx.addComment(task.id(), "dave", "told");
            tx.recordEvent(
                    new TaskEvent.Commented(commented, commented.comments().get(1)));
            return null;
        });

        List<FeedEvent> events = feed.read(start, 100);
        assertThat(events).extracting(FeedEvent::kind).containsExactly("created", "updated", "commented");
        assertThat(events).allSatisfy(event -> {
            assertThat(event.taskId()).isEqualTo(task.id());
            assertThat(event.sessionId()).isEqualTo(session);
            assertThat(event.payload()).startsWith("{").contains("\"version\":");
        });
        assertThat(events.get(0).payload()).contains("\"description\":\"watched\"");
        assertThat(events.get(2).payload()).contains("\"author\":\"dave\"").contains("\"text\":\"told\"");
        assertThat(events.get(0).time()).isEqualTo(task.createdAt());
    }

    @Test
    void ts102_eventsAreReadInPositionOrderWithoutGaps() {
        EventFeed feed = store.eventFeed();
        long start = feed.lastPosition();
        String session = session("feed-order");
        for (int index = 0; index < 7; index++) {
            int number = index;
            store.inTransaction(tx -> {
                Task task = tx.appendTask(NewTask.of(session, "task " + number));
                tx.recordEvent(new TaskEvent.Created(task));
                return null;
            });
        }

        List<FeedEvent> all = feed.read(start, 100);
        List<FeedEvent> paged = new ArrayList<>();
        for (List<FeedEvent> page = feed.read(start, 3); !page.isEmpty(); page = feed.read(lastOf(page), 3)) {
            assertThat(page.size()).isLessThanOrEqualTo(3);
            paged.addAll(page);
        }

        assertThat(all)
                .extracting(FeedEvent::position)
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(start + 1, start + 7).boxed().toList());
        assertThat(paged).isEqualTo(all);
        assertThat(feed.lastPosition()).isEqualTo(start + 7);
        assertThat(feed.read(feed.lastPosition(), 10)).isEmpty();
    }

    @Test
    void ts103_anEventThatCommitsAfterALaterOneWasReadIsStillRead() throws Exception {
        EventFeed feed = store.eventFeed();
        long start = feed.lastPosition();
        String session = session("feed-late-commit");
        CountDownLatch recorded = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Task> late = new AtomicReference<>();
        Thread slow = new Thread(() -> store.inTransaction(tx -> {
            Task task = tx.appendTask(NewTask.of(session + "-slow", "commits late"));
            tx.recordEvent(new TaskEvent.Created(task));
            late.set(task);
            recorded.countDown();
            await(release, DEADLINE);
            return null;
        }));
        slow.start();
        assertThat(recorded.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        Future<Task> early = executor.submit(() -> store.inTransaction(tx -> {
            Task task = tx.appendTask(NewTask.of(session, "commits early"));
            tx.recordEvent(new TaskEvent.Created(task));
            return task;
        }));
        List<FeedEvent> first = List.of();
        try {
            // A store that runs one unit of work at a time makes the early one wait: no commit can be late.
            early.get(LOCK_HOLD.toMillis(), TimeUnit.MILLISECONDS);
            first = feed.read(start, 100);
        } catch (TimeoutException serialised) {
            // read nothing before the slow unit commits
        } finally {
            release.countDown();
            slow.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
        }
        Task earlyTask = early.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
        executor.shutdown();
        List<FeedEvent> rest = feed.read(first.isEmpty() ? start : lastOf(first), 100);

        List<FeedEvent> all = new ArrayList<>(first);
        all.addAll(rest);
        assertThat(all)
                .extracting(FeedEvent::taskId)
                .containsExactlyInAnyOrder(earlyTask.id(), late.get().id());
        assertThat(all).extracting(FeedEvent::position).containsExactly(start + 1, start + 2);
        if (!first.isEmpty()) {
            assertThat(first)
                    .as("read while the slow unit of work was open")
                    .extracting(FeedEvent::taskId)
                    .containsExactly(earlyTask.id());
        }
    }

    @Test
    void ts104_badPositionsAndLimitsAreRefusedWithAClearError() {
        EventFeed feed = store.eventFeed();
        store.inTransaction(tx -> tx.appendTask(NewTask.of(session("feed-bad-input"), "task")));
        long last = feed.lastPosition();

        assertThatThrownBy(() -> feed.read(-1, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> feed.read(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> feed.read(0, EventFeed.MAX_READ + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> feed.read(last + 5, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Position " + (last + 5) + " is ahead of the feed, whose newest event is at position "
                        + last + "; read from a position this feed gave you");
        assertThatThrownBy(() -> feed.subscribe(-1, event -> {})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> feed.subscribe(last + 1, event -> {})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> feed.subscribe(0, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> feed.prune(Duration.ofDays(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ts104_aPrunedPositionIsRefusedNamingWhereTheFeedNowStarts() {
        EventFeed feed = store.eventFeed();
        String session = session("feed-pruned");
        long before = feed.lastPosition();
        appendRecorded(NewTask.of(session, "old"));
        clock.advance(Duration.ofDays(8));
        appendRecorded(NewTask.of(session, "new"));
        long last = feed.lastPosition();

        long pruned = feed.prune(Duration.ofDays(7));

        assertThat(pruned).isPositive();
        assertThat(feed.read(last - 1, 10)).singleElement().satisfies(event -> assertThat(event.position())
                .isEqualTo(last));
        assertThat(catchThrowable(() -> feed.read(before, 10)))
                .isInstanceOf(EventsPrunedException.class)
                .satisfies(thrown -> assertThat(((EventsPrunedException) thrown).firstAvailablePosition())
                        .isEqualTo(last));
        assertThatThrownBy(() -> feed.subscribe(before, event -> {})).isInstanceOf(EventsPrunedException.class);
    }

    @Test
    void ts105_aSubscriptionDeliversEveryEventInOrderAndResumesFromItsLastPosition() {
        EventFeed feed = store.eventFeed();
        long start = feed.lastPosition();
        String session = session("feed-subscribe");
        List<FeedEvent> delivered = new CopyOnWriteArrayList<>();
        List<Long> expected = new ArrayList<>();
        long resumeAt;
        try (FeedSubscription subscription = feed.subscribe(start, delivered::add)) {
            for (int index = 0; index < 5; index++) {
                expected.add(appendRecorded(NewTask.of(session, "task")).id());
            }
            awaitSize(delivered, 5);
            awaitLastDelivered(subscription, delivered.get(4).position());
            resumeAt = subscription.lastDeliveredPosition();
            assertThat(subscription.failure()).isEmpty();
        }
        for (int index = 0; index < 3; index++) {
            expected.add(appendRecorded(NewTask.of(session, "while away")).id());
        }
        try (FeedSubscription resumed = feed.subscribe(resumeAt, delivered::add)) {
            awaitSize(delivered, 8);
            awaitLastDelivered(resumed, feed.lastPosition());
        }

        assertThat(delivered).extracting(FeedEvent::taskId).containsExactlyElementsOf(expected);
        assertThat(delivered)
                .extracting(FeedEvent::position)
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(start + 1, start + 8).boxed().toList());
    }

    @Test
    void ts105_aListenerThatThrowsIsSkippedAndTheSubscriptionGoesOn() {
        EventFeed feed = store.eventFeed();
        long start = feed.lastPosition();
        String session = session("feed-throwing-listener");
        List<Long> delivered = new CopyOnWriteArrayList<>();
        try (FeedSubscription subscription = feed.subscribe(start, event -> {
            delivered.add(event.position());
            if (delivered.size() == 1) {
                throw new IllegalStateException("the listener's own bug");
            }
        })) {
            appendRecorded(NewTask.of(session, "first"));
            appendRecorded(NewTask.of(session, "second"));
            awaitSize(delivered, 2);
            awaitLastDelivered(subscription, start + 2);
        }
    }

    @Test
    void ts106_concurrentWritersEventsAreReadOnceEachWithoutGapsAndInEachTasksOrder() {
        EventFeed feed = store.eventFeed();
        long start = feed.lastPosition();
        String session = session("feed-concurrent");
        int writers = 8;
        int perWriter = 25;
        List<FeedEvent> delivered = new CopyOnWriteArrayList<>();
        try (FeedSubscription subscription = feed.subscribe(start, delivered::add)) {
            KitThreads.runTogether(writers, "feed-writers", DEADLINE, writer -> {
                Task task = appendRecorded(NewTask.of(session + "-" + writer, "task"));
                for (int comment = 1; comment <= perWriter; comment++) {
                    String text = "comment " + comment;
                    store.inTransaction(tx -> {
                        Task commented = tx.addComment(task.id(), "writer", text);
                        tx.recordEvent(new TaskEvent.Commented(
                                commented,
                                commented.comments().get(commented.comments().size() - 1)));
                        return null;
                    });
                }
                return null;
            });
            awaitSize(delivered, writers * (perWriter + 1));
            assertThat(subscription.failure()).isEmpty();
        }

        assertThat(delivered)
                .extracting(FeedEvent::position)
                .containsExactlyElementsOf(LongStream.rangeClosed(start + 1, start + writers * (perWriter + 1))
                        .boxed()
                        .toList());
        Map<Long, List<Integer>> commentsByTask = new LinkedHashMap<>();
        for (FeedEvent event : delivered) {
            if (event.kind().equals("commented")) {
                Matcher matcher = Pattern.compile("comment (\\d+)").matcher(event.payload());
                assertThat(matcher.find()).isTrue();
                commentsByTask
                        .computeIfAbsent(event.taskId(), id -> new ArrayList<>())
                        .add(Integer.parseInt(matcher.group(1)));
            }
        }
        assertThat(commentsByTask).hasSize(writers);
        assertThat(commentsByTask.values()).allSatisfy(numbers -> assertThat(numbers)
                .containsExactlyElementsOf(
                        IntStream.rangeClosed(1, perWriter).boxed().toList()));
    }

    @Test
    void ts107_aClaimAppendsOneClaimedEventWhetherOrNotTheUnitOfWorkRecordsOne() {
        EventFeed feed = store.eventFeed();
        String session = session("feed-claim");
        String agent = "Zoë \"the\" claimer";
        Task first = append(
                NewTask.builder(session, "claimed plainly").assignee(agent).build());
        Task second = append(
                NewTask.builder(session, "claimed and recorded").assignee(agent).build());
        long start = feed.lastPosition();

        Task plain = store.claimNext(agent, LEASE).orElseThrow();
        Task recorded = store.inTransaction(tx -> {
            Task claimed = tx.claimNext(agent, LEASE).orElseThrow();
            tx.recordEvent(new TaskEvent.Claimed(claimed, agent));
            return claimed;
        });

        assertThat(List.of(plain.id(), recorded.id())).containsExactly(first.id(), second.id());
        List<FeedEvent> events = feed.read(start, 10);
        assertThat(events).extracting(FeedEvent::kind).containsExactly("claimed", "claimed");
        assertThat(events).extracting(FeedEvent::taskId).containsExactly(plain.id(), recorded.id());
        assertThat(events.get(0).payload())
                .isEqualTo(
                        FeedEncoding.encode(new TaskEvent.Claimed(plain, agent)).payload());
        assertThat(events.get(1).payload())
                .isEqualTo(FeedEncoding.encode(new TaskEvent.Claimed(recorded, agent))
                        .payload());
    }

    // ---------------------------------------------------------------------------------------------
    // TS-8 Bad input
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts81_nullArgumentsThrowNullPointerExceptionAndWriteNothing() {
        String session = session("nulls");
        Task task = append(session, "task");
        long id = task.id();
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put("insertTask(null, 0)", tx -> tx.insertTask(null, 0));
        calls.put("updateTask(null)", tx -> tx.updateTask(null));
        calls.put("appendProgress(id, null)", tx -> tx.appendProgress(id, null));
        calls.put("addComment(id, null, text)", tx -> tx.addComment(id, null, "text"));
        calls.put("addComment(id, author, null)", tx -> tx.addComment(id, "author", null));
        calls.put("addLink(id, null, description, author)", tx -> tx.addLink(id, null, "description", "author"));
        calls.put("addLink(id, url, null, author)", tx -> tx.addLink(id, "https://example.org", null, "author"));
        calls.put("addLink(id, url, description, null)", tx -> tx.addLink(id, "https://example.org", "d", null));
        calls.put("linkMessages(id, null)", tx -> tx.linkMessages(id, null));
        calls.put("linkMessages(id, [m, null])", tx -> tx.linkMessages(id, Arrays.asList("m", null)));
        calls.put("linkMessagesToPlanningSection(null, ids)", tx -> {
            tx.linkMessagesToPlanningSection(null, List.of("m"));
            return null;
        });
        calls.put("linkMessagesToPlanningSection(session, null)", tx -> {
            tx.linkMessagesToPlanningSection(session, null);
            return null;
        });
        calls.put("linkMessagesToPlanningSection(session, [null])", tx -> {
            tx.linkMessagesToPlanningSection(session, Arrays.asList("m", null));
            return null;
        });
        calls.put("listTasks(null)", tx -> tx.listTasks(null));
        calls.put("findTaskByOrder(null, 1)", tx -> tx.findTaskByOrder(null, 1));
        calls.put("listQueue(null)", tx -> tx.listQueue(null));
        calls.put("planningMessageIds(null)", tx -> tx.planningMessageIds(null));
        calls.put("claimNext(null)", tx -> tx.claimNext(null, LEASE));

        assertRefusedWithoutWriting(calls, NullPointerException.class, session, task);
        assertThatThrownBy(() -> store.inTransaction(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> store.listTasks(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> store.claimNext(null, LEASE)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void ts81_blankSessionIdsAndNamesThrowIllegalArgumentAndWriteNothing() {
        String session = session("blanks");
        Task task = append(
                NewTask.builder(session, "task").assignee(agent("blanks")).build());
        long id = task.id();
        Map<String, Call> calls = new LinkedHashMap<>();
        for (String blank : List.of("", " ", "\t\n")) {
            String shown = "'" + blank.replace("\t", "\\t").replace("\n", "\\n") + "'";
            calls.put("listTasks(" + shown + ")", tx -> tx.listTasks(blank));
            calls.put("findTaskByOrder(" + shown + ", 1)", tx -> tx.findTaskByOrder(blank, 1));
            calls.put("listQueue(" + shown + ")", tx -> tx.listQueue(blank));
            calls.put("claimNext(" + shown + ")", tx -> tx.claimNext(blank, LEASE));
            calls.put("planningMessageIds(" + shown + ")", tx -> tx.planningMessageIds(blank));
            calls.put("linkMessagesToPlanningSection(" + shown + ", ids)", tx -> {
                tx.linkMessagesToPlanningSection(blank, List.of("m"));
                return null;
            });
            calls.put("linkMessagesToPlanningSection(session, [" + shown + "])", tx -> {
                tx.linkMessagesToPlanningSection(session, List.of("m", blank));
                return null;
            });
            calls.put("linkMessages(id, [m, " + shown + "])", tx -> tx.linkMessages(id, List.of("m", blank)));
            calls.put("addComment(id, " + shown + ", text)", tx -> tx.addComment(id, blank, "text"));
            calls.put(
                    "addLink(id, url, description, " + shown + ")",
                    tx -> tx.addLink(id, "https://example.org", "d", blank));
        }

        assertRefusedWithoutWriting(calls, IllegalArgumentException.class, session, task);
        assertThatThrownBy(() -> store.listTasks(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.claimNext("", LEASE)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ts81_blankTextsThrowIllegalArgumentAndWriteNothing() {
        String session = session("blank-texts");
        Task task = append(session, "task");
        long id = task.id();
        Map<String, Call> calls = new LinkedHashMap<>();
        for (String blank : List.of("", "  ", "\n")) {
            String shown = "'" + blank.replace("\n", "\\n") + "'";
            calls.put("appendProgress(id, " + shown + ")", tx -> tx.appendProgress(id, blank));
            calls.put("addComment(id, author, " + shown + ")", tx -> tx.addComment(id, "author", blank));
            calls.put("addLink(id, " + shown + ", description, author)", tx -> tx.addLink(id, blank, "d", "author"));
        }

        assertRefusedWithoutWriting(calls, IllegalArgumentException.class, session, task);
    }

    @Test
    void ts81_nonPositiveTaskIdsThrowIllegalArgumentAndWriteNothing() {
        String session = session("non-positive-ids");
        Task task = append(session, "task");
        Map<String, Call> calls = new LinkedHashMap<>();
        for (long id : new long[] {0, -1, Long.MIN_VALUE}) {
            calls.put("findTask(" + id + ")", tx -> tx.findTask(id));
            calls.put("appendProgress(" + id + ", text)", tx -> tx.appendProgress(id, "text"));
            calls.put("addComment(" + id + ", author, text)", tx -> tx.addComment(id, "author", "text"));
            calls.put(
                    "addLink(" + id + ", url, description, author)",
                    tx -> tx.addLink(id, "https://example.org", "d", "a"));
            calls.put("linkMessages(" + id + ", ids)", tx -> tx.linkMessages(id, List.of("m")));
        }

        assertRefusedWithoutWriting(calls, IllegalArgumentException.class, session, task);
        assertThatThrownBy(() -> store.findTask(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ts81_textsAndNamesOverTheLimitThrowIllegalArgumentAndWriteNothing() {
        String session = session("too-long");
        Task task = append(session, "task");
        long id = task.id();
        String tooLongText = "x".repeat(Task.MAX_TEXT_LENGTH + 1);
        String tooLongName = "n".repeat(Task.MAX_ID_LENGTH + 1);
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put("appendProgress(id, text over the limit)", tx -> tx.appendProgress(id, tooLongText));
        calls.put("addComment(id, author, text over the limit)", tx -> tx.addComment(id, "author", tooLongText));
        calls.put("addLink(id, url over the limit, description, author)", tx -> tx.addLink(id, tooLongText, "d", "a"));
        calls.put(
                "addLink(id, url, description over the limit, author)",
                tx -> tx.addLink(id, "https://example.org", tooLongText, "a"));
        calls.put("addComment(id, author over the limit, text)", tx -> tx.addComment(id, tooLongName, "text"));
        calls.put(
                "addLink(id, url, description, author over the limit)",
                tx -> tx.addLink(id, "https://example.org", "d", tooLongName));
        calls.put(
                "linkMessages(id, [message id over the limit])", tx -> tx.linkMessages(id, List.of("m", tooLongName)));
        calls.put("linkMessagesToPlanningSection(session over the limit, ids)", tx -> {
            tx.linkMessagesToPlanningSection(tooLongName, List.of("m"));
            return null;
        });
        calls.put("linkMessagesToPlanningSection(session, [message id over the limit])", tx -> {
            tx.linkMessagesToPlanningSection(session, List.of(tooLongName));
            return null;
        });
        calls.put("listTasks(session over the limit)", tx -> tx.listTasks(tooLongName));
        calls.put("claimNext(assignee over the limit)", tx -> tx.claimNext(tooLongName, LEASE));

        assertRefusedWithoutWriting(calls, IllegalArgumentException.class, session, task);
    }

    @Test
    void ts82_textsHoldingANulOrAnUnpairedSurrogateAreRefusedNamingTheFieldAndWriteNothing() {
        String session = session("unstorable");
        String agent = agent("unstorable");
        Task task = append(NewTask.builder(session, "task").assignee(agent).build());
        long id = task.id();
        for (String bad :
                List.of("nul\u0000inside", "\u0000", "lone high \uD83D", "\uDE00 lone low", "a\uDC00\uD800b")) {
            String shown = bad.chars()
                    .mapToObj(c -> c < 0x20 || Character.isSurrogate((char) c)
                            ? String.format("\\u%04X", c)
                            : String.valueOf((char) c))
                    .collect(java.util.stream.Collectors.joining());
            Map<String, Call> calls = new LinkedHashMap<>();
            calls.put("progress", tx -> tx.appendProgress(id, bad));
            calls.put("text", tx -> tx.addComment(id, "author", bad));
            calls.put("author", tx -> tx.addComment(id, bad, "text"));
            calls.put("url", tx -> tx.addLink(id, bad, "d", "author"));
            calls.put("description", tx -> tx.addLink(id, "https://example.org", bad, "author"));
            calls.put("messageId", tx -> tx.linkMessages(id, List.of("m", bad)));
            calls.put("sessionId", tx -> {
                tx.linkMessagesToPlanningSection(bad, List.of("m"));
                return null;
            });
            calls.put("assignee", tx -> tx.claimNext(bad, LEASE));
            for (Map.Entry<String, Call> call : calls.entrySet()) {
                Throwable thrown = catchThrowable(() -> store.inTransaction(call.getValue()));
                assertThat(thrown)
                        .as("%s holding %s", call.getKey(), shown)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith(call.getKey() + " contains ")
                        .satisfiesAnyOf(
                                e -> assertThat(e).hasMessageContaining("NUL character (U+0000)"),
                                e -> assertThat(e).hasMessageContaining("unpaired UTF-16 surrogate"));
            }
        }

        assertThat(find(id)).isEqualTo(task);
        assertThat(store.listTasks(session)).containsExactly(task);
        assertThat(planning(session)).isEmpty();
        List<Task> queue = store.inTransaction(tx -> tx.listQueue(agent));
        assertThat(queue).containsExactly(task);
    }

    @Test
    void ts82_supplementaryCharactersInPairsAreStoredVerbatimEverywhere() {
        String emoji = "\uD83E\uDDEA \uD842\uDFB7 \uD83C\uDFD6\uFE0F";
        String session = session("pairs-" + emoji);
        String agent = agent("pairs-" + emoji);
        Task task = append(NewTask.builder(session, emoji)
                .assignee(agent)
                .createdBy(emoji)
                .steps("- [ ] " + emoji)
                .build());

        store.inTransaction(tx -> {
            tx.appendProgress(task.id(), emoji);
            tx.addComment(task.id(), emoji, emoji);
            tx.addLink(task.id(), emoji, emoji, emoji);
            tx.linkMessages(task.id(), List.of(emoji));
            return null;
        });

        Task claimed = store.claimNext(agent, LEASE).orElseThrow(() -> new AssertionError("no task for " + agent));
        assertThat(claimed.description()).isEqualTo(emoji);
        assertThat(claimed.createdBy()).isEqualTo(emoji);
        assertThat(claimed.steps()).isEqualTo("- [ ] " + emoji);
        assertThat(claimed.progresses()).containsExactly(emoji);
        assertThat(claimed.comments()).singleElement().satisfies(comment -> {
            assertThat(comment.author()).isEqualTo(emoji);
            assertThat(comment.text()).isEqualTo(emoji);
        });
        assertThat(claimed.links()).singleElement().satisfies(link -> {
            assertThat(link.url()).isEqualTo(emoji);
            assertThat(link.description()).isEqualTo(emoji);
        });
        assertThat(claimed.messageIds()).containsExactly(emoji);
    }

    @Test
    void ts83_agentNamesHoldingAControlCharacterAreRefusedNamingTheFieldAndWriteNothing() {
        String session = session("control");
        Task task = append(
                NewTask.builder(session, "task").assignee(agent("control")).build());
        for (String bad : List.of("bob\n{\"id\":1}", "tab\there", "esc\u001b[31m", "del\u007f", "c1\u0085")) {
            Map<String, Call> calls = new LinkedHashMap<>();
            calls.put("author", tx -> tx.addComment(task.id(), bad, "text"));
            calls.put("assignee", tx -> tx.claimNext(bad, LEASE));
            assertRefusedWithoutWriting(calls, IllegalArgumentException.class, session, task);
            calls.forEach((field, call) -> assertThat(catchThrowable(() -> store.inTransaction(call)))
                    .as("%s holding a control character", field)
                    .hasMessageStartingWith(field + " contains a control character (U+"));
        }
    }

    // ---------------------------------------------------------------------------------------------
    // TS-12 The work graph
    // ---------------------------------------------------------------------------------------------

    /** Skips the test when the store does not keep the work graph (TS-12 is optional). */
    private void assumeGraph() {
        try {
            store.inTransaction(tx -> tx.listChildren(UNKNOWN_ID));
        } catch (UnsupportedOperationException e) {
            assumeTrue(false, "the store does not keep the work graph (TS-12 is optional): " + e.getMessage());
        }
    }

    private boolean keepsGraph() {
        try {
            store.inTransaction(tx -> tx.listChildren(UNKNOWN_ID));
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    private void succeed(long taskId) {
        store.inTransaction(tx ->
                tx.updateTask(TaskUpdate.of(taskId).status(TaskStatus.SUCCESS).build()));
    }

    private Task dependOn(long dependantId, long blockerId) {
        return store.inTransaction(tx -> tx.addDependency(dependantId, blockerId));
    }

    private static TaskGraphException graphRefusal(Throwable thrown, String how) {
        assertThat(thrown).as(how).isInstanceOf(TaskGraphException.class);
        return (TaskGraphException) thrown;
    }

    @Test
    void ts121_aNewTaskKeepsItsParentBlockersTagsAndMetadata() {
        assumeGraph();
        String session = session("graph-new");
        Task parent = append(session, "the plan");
        Task open = append(session, "an open blocker");
        Task done = append(session, "a finished blocker");
        succeed(done.id());
        String metadata = "{\"issue\" : \"PROJ-12\", \"cost\": [1, 2.50, null], \"nested\": {\"ü\": \"🚀\"}}";

        Task created = append(NewTask.builder(session, "a subtask")
                .parent(parent.id())
                .blockedBy(done.id(), open.id())
                .tags("backend", "release", "backend")
                .metadata(metadata)
                .build());

        assertThat(created.parentId()).isEqualTo(parent.id());
        assertThat(created.blockedBy()).containsExactly(open.id(), done.id());
        assertThat(created.openBlockers()).as("blockers not in success").isEqualTo(1);
        assertThat(created.isReady()).isFalse();
        assertThat(created.tags()).containsExactly("backend", "release");
        assertThat(created.metadata()).as("metadata, verbatim").isEqualTo(metadata);
        assertThat(find(created.id())).isEqualTo(created);
        Task unrelated = append(session, "no graph");
        assertThat(unrelated.parentId()).isZero();
        assertThat(unrelated.blockedBy()).isEmpty();
        assertThat(unrelated.tags()).isEmpty();
        assertThat(unrelated.metadata()).isNull();
        assertThat(unrelated.isReady()).isTrue();
    }

    @Test
    void ts121_anUnknownParentOrBlockerIsRefusedAndNothingIsWritten() {
        assumeGraph();
        String session = session("graph-new-unknown");
        Task existing = append(session, "exists");
        List<Task> before = store.listTasks(session);

        Throwable unknownParent = catchThrowable(() ->
                append(NewTask.builder(session, "orphan").parent(UNKNOWN_ID).build()));
        Throwable unknownBlocker = catchThrowable(() -> append(NewTask.builder(session, "waits for nothing")
                .blockedBy(existing.id(), UNKNOWN_ID)
                .build()));

        assertThat(unknownParent).isInstanceOf(TaskNotFoundException.class);
        assertThat(((TaskNotFoundException) unknownParent).taskId()).isEqualTo(UNKNOWN_ID);
        assertThat(unknownBlocker).isInstanceOf(TaskNotFoundException.class);
        assertThat(((TaskNotFoundException) unknownBlocker).taskId()).isEqualTo(UNKNOWN_ID);
        assertThat(store.listTasks(session)).isEqualTo(before);
        assertThat(store.<List<Task>>inTransaction(tx -> tx.listDependants(existing.id())))
                .isEmpty();
    }

    @Test
    void ts122_aClaimHandsOutReadyTasksOnlyInClaimOrder() {
        assumeGraph();
        String session = session("graph-claim");
        String agent = agent("graph-claim");
        Task blocker = append(session, "build (nobody's queue)");
        Task failing = append(session, "lint (nobody's queue)");
        Task blockedHigh = append(NewTask.builder(session, "deploy")
                .assignee(agent)
                .priority(9)
                .blockedBy(blocker.id())
                .build());
        Task blockedByFailure = append(NewTask.builder(session, "announce")
                .assignee(agent)
                .priority(8)
                .blockedBy(failing.id())
                .build());
        Task ready = append(NewTask.builder(session, "write notes")
                .assignee(agent)
                .priority(1)
                .build());
        store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(failing.id()).status(TaskStatus.FAILED).build()));

        assertThat(store.claimNext(agent, LEASE))
                .as("TS-12.2: the ready task, although blocked ones come first in claim order")
                .map(Task::id)
                .contains(ready.id());
        assertThat(store.claimNext(agent, LEASE))
                .as("TS-12.2: only blocked tasks are left")
                .isEmpty();

        succeed(blocker.id());

        Task claimed = store.claimNext(agent, LEASE).orElseThrow();
        assertThat(claimed.id()).isEqualTo(blockedHigh.id());
        assertThat(claimed.openBlockers()).isZero();
        assertThat(claimed).isEqualTo(find(blockedHigh.id()));
        assertThat(store.claimNext(agent, LEASE))
                .as("TS-12.3: a task whose blocker failed stays blocked")
                .isEmpty();
        assertThat(find(blockedByFailure.id()).openBlockers()).isEqualTo(1);
        assertThat(find(blockedByFailure.id()).status()).isEqualTo(TaskStatus.PENDING);
    }

    @Test
    void ts122_concurrentClaimersClaimEachReadyTaskOnceAndNoBlockedOne() {
        assumeGraph();
        int workers = 16;
        for (int round = 1; round <= 3; round++) {
            String session = session("graph-claim-race-" + round);
            String agent = agent("graph-claim-race-" + round);
            Task blocker = append(session, "the blocker, in nobody's queue");
            Set<Long> ready = new HashSet<>();
            Set<Long> blocked = new HashSet<>();
            store.inTransaction(tx -> {
                ready.clear();
                blocked.clear();
                for (int index = 0; index < 300; index++) {
                    NewTask.Builder spec = NewTask.builder(session, "task " + index)
                            .assignee(agent)
                            .priority(index % 7);
                    if (index % 3 == 0) {
                        blocked.add(tx.appendTask(spec.blockedBy(blocker.id()).build())
                                .id());
                    } else {
                        ready.add(tx.appendTask(spec.build()).id());
                    }
                }
                return null;
            });

            List<List<Task>> claims = KitThreads.runTogether(
                    workers, "graph-claim-race", DEADLINE, worker -> claimUntilEmpty(agent, 301));

            List<Long> claimedIds =
                    claims.stream().flatMap(List::stream).map(Task::id).toList();
            assertThat(claimedIds).as("round %d: claimed ids, each once", round).doesNotHaveDuplicates();
            assertThat(new HashSet<>(claimedIds))
                    .as("round %d: exactly the ready tasks are claimed", round)
                    .isEqualTo(ready);

            succeed(blocker.id());
            List<List<Task>> afterwards = KitThreads.runTogether(
                    workers, "graph-claim-race-unblocked", DEADLINE, worker -> claimUntilEmpty(agent, 301));
            List<Long> unblockedIds =
                    afterwards.stream().flatMap(List::stream).map(Task::id).toList();
            assertThat(unblockedIds).as("round %d: once unblocked", round).doesNotHaveDuplicates();
            assertThat(new HashSet<>(unblockedIds))
                    .as("round %d: the formerly blocked tasks, once their blocker succeeded", round)
                    .isEqualTo(blocked);
        }
    }

    @Test
    void ts123_aBlockerThatSucceedsUnblocksItsDependantsInTheSameUnitOfWork() {
        assumeGraph();
        EventFeed feed = store.eventFeed();
        String session = session("graph-unblock");
        String agent = agent("graph-unblock");
        Task blocker = append(NewTask.builder(session, "build").assignee(agent).build());
        Task other = append(session, "test (nobody's queue)");
        Task onlyBuild = append(
                NewTask.builder(session, "package").blockedBy(blocker.id()).build());
        Task alsoBuild =
                append(NewTask.builder(session, "docs").blockedBy(blocker.id()).build());
        Task both = append(NewTask.builder(session, "deploy")
                .blockedBy(blocker.id(), other.id())
                .build());
        Task claimed = store.claimNext(agent, LEASE).orElseThrow();
        assertThat(claimed.id()).isEqualTo(blocker.id());

        Throwable rolledBack = catchThrowable(() -> store.inTransaction(tx -> {
            tx.complete(blocker.id(), agent, claimed.attempt(), TaskStatus.SUCCESS);
            throw new KitFailure("roll the completion back");
        }));
        assertThat(rolledBack).isInstanceOf(KitFailure.class);
        assertThat(find(onlyBuild.id()).openBlockers())
                .as("a rolled-back completion unblocks nothing")
                .isEqualTo(1);

        long start = feed.lastPosition();
        store.inTransaction(tx -> tx.complete(blocker.id(), agent, claimed.attempt(), TaskStatus.SUCCESS));

        assertThat(find(onlyBuild.id()).openBlockers()).isZero();
        assertThat(find(onlyBuild.id()).isReady()).isTrue();
        assertThat(find(alsoBuild.id()).openBlockers()).isZero();
        assertThat(find(both.id()).openBlockers()).isEqualTo(1);
        assertThat(find(onlyBuild.id()).version())
                .as("TS-12.3: the derived count does not version the dependant")
                .isEqualTo(onlyBuild.version());
        List<FeedEvent> events = feed.read(start, 100);
        assertThat(events)
                .filteredOn(event -> event.kind().equals(FeedEncoding.UNBLOCKED))
                .extracting(FeedEvent::taskId)
                .containsExactlyInAnyOrder(onlyBuild.id(), alsoBuild.id());

        store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(blocker.id()).status(TaskStatus.PENDING).build()));
        assertThat(find(onlyBuild.id()).openBlockers())
                .as("TS-12.3: a blocker that leaves success blocks again")
                .isEqualTo(1);
        assertThat(find(both.id()).openBlockers()).isEqualTo(2);
    }

    @Test
    void ts124_addingAndRemovingADependencyChangesTheDependantOnly() {
        assumeGraph();
        EventFeed feed = store.eventFeed();
        String session = session("graph-edges");
        String agent = agent("graph-edges");
        Task blocker = append(session, "build");
        Task dependant =
                append(NewTask.builder(session, "deploy").assignee(agent).build());
        Task running = store.claimNext(agent, LEASE).orElseThrow();
        long start = feed.lastPosition();
        clock.advance(Duration.ofSeconds(1));

        Task added = dependOn(dependant.id(), blocker.id());

        assertThat(added.blockedBy()).containsExactly(blocker.id());
        assertThat(added.openBlockers()).isEqualTo(1);
        assertThat(added.version()).isEqualTo(running.version() + 1);
        assertThat(added.updatedAt()).isEqualTo(clock.instant());
        assertThat(added.status())
                .as("TS-12.4: a running dependant keeps running")
                .isEqualTo(TaskStatus.RUNNING);
        assertThat(find(dependant.id())).isEqualTo(added);
        assertThat(find(blocker.id())).as("the blocker is not changed").isEqualTo(blocker);
        assertThat(store.<List<Task>>inTransaction(tx -> tx.listDependants(blocker.id())))
                .containsExactly(added);

        Task removed = store.inTransaction(tx -> tx.removeDependency(dependant.id(), blocker.id()));

        assertThat(removed.blockedBy()).isEmpty();
        assertThat(removed.openBlockers()).isZero();
        assertThat(removed.version()).isEqualTo(added.version() + 1);
        assertThat(store.<List<Task>>inTransaction(tx -> tx.listDependants(blocker.id())))
                .isEmpty();
        List<FeedEvent> events = feed.read(start, 100);
        assertThat(events)
                .extracting(FeedEvent::kind)
                .containsExactly(
                        FeedEncoding.DEPENDENCY_ADDED, FeedEncoding.DEPENDENCY_REMOVED, FeedEncoding.UNBLOCKED);
        assertThat(events).allSatisfy(event -> assertThat(event.taskId()).isEqualTo(dependant.id()));
        assertThat(events.get(0).payload()).contains("\"blocker_id\":" + blocker.id());
    }

    @Test
    void ts124_badDependenciesAreRefusedAndNothingIsWritten() {
        assumeGraph();
        String session = session("graph-bad-edges");
        Task a = append(session, "a");
        Task b = append(NewTask.builder(session, "b").blockedBy(a.id()).build());
        Task c = append(NewTask.builder(session, "c").blockedBy(b.id()).build());
        Task d = append(session, "d");
        List<Task> before = store.listTasks(session);
        long eventsBefore = store.eventFeed().lastPosition();

        TaskGraphException self = graphRefusal(catchThrowable(() -> dependOn(d.id(), d.id())), "self");
        TaskGraphException duplicate = graphRefusal(catchThrowable(() -> dependOn(b.id(), a.id())), "duplicate");
        TaskGraphException missing = graphRefusal(
                catchThrowable(() -> store.inTransaction(tx -> tx.removeDependency(d.id(), a.id()))), "missing");
        TaskGraphException twoCycle = graphRefusal(catchThrowable(() -> dependOn(a.id(), b.id())), "a ↔ b");
        TaskGraphException threeCycle = graphRefusal(catchThrowable(() -> dependOn(a.id(), c.id())), "a → b → c");
        Throwable unknownDependant = catchThrowable(() -> dependOn(UNKNOWN_ID, a.id()));
        Throwable unknownBlocker = catchThrowable(() -> dependOn(d.id(), UNKNOWN_ID));
        Throwable caughtInside = store.inTransaction(tx -> catchThrowable(() -> tx.addDependency(a.id(), c.id())));

        assertThat(self.reason()).isEqualTo(TaskGraphException.Reason.SELF_DEPENDENCY);
        assertThat(duplicate.reason()).isEqualTo(TaskGraphException.Reason.DUPLICATE_DEPENDENCY);
        assertThat(missing.reason()).isEqualTo(TaskGraphException.Reason.NO_SUCH_DEPENDENCY);
        assertThat(twoCycle.reason()).isEqualTo(TaskGraphException.Reason.DEPENDENCY_CYCLE);
        assertThat(twoCycle.tasks())
                .as("the cycle, the new dependant first and last")
                .containsExactly(a.id(), b.id(), a.id());
        assertThat(threeCycle.tasks()).containsExactly(a.id(), b.id(), c.id(), a.id());
        assertThat(threeCycle.getMessage()).contains(a.id() + " → " + b.id() + " → " + c.id() + " → " + a.id());
        assertThat(unknownDependant).isInstanceOf(TaskNotFoundException.class);
        assertThat(unknownBlocker).isInstanceOf(TaskNotFoundException.class);
        assertThat(((TaskNotFoundException) unknownBlocker).taskId()).isEqualTo(UNKNOWN_ID);
        assertThat(caughtInside).isInstanceOf(TaskGraphException.class);
        assertThat(store.listTasks(session)).as("nothing written").isEqualTo(before);
        assertThat(store.eventFeed().read(eventsBefore, 10))
                .as("no event appended")
                .isEmpty();
    }

    @Test
    void ts124_concurrentDependenciesThatTogetherCloseACycleCommitOnce() {
        assumeGraph();
        for (int round = 1; round <= 10; round++) {
            String session = session("graph-cycle-race-" + round);
            Task a = append(session, "a");
            Task b = append(NewTask.builder(session, "b").blockedBy(a.id()).build());
            Task c = append(session, "c");
            // b waits for a. Together "c waits for b" and "a waits for c" close a → b → c → a.
            List<long[]> edges = List.of(new long[] {c.id(), b.id()}, new long[] {a.id(), c.id()});

            List<Throwable> outcomes = KitThreads.runTogether(2, "graph-cycle-race", DEADLINE, worker -> {
                long[] edge = edges.get(worker);
                return catchThrowable(() -> dependOn(edge[0], edge[1]));
            });

            assertThat(outcomes)
                    .as("round %d: one edge commits, the other is refused as a cycle", round)
                    .filteredOn(Objects::isNull)
                    .hasSize(1);
            assertThat(outcomes)
                    .filteredOn(Objects::nonNull)
                    .singleElement()
                    .isInstanceOf(TaskGraphException.class)
                    .extracting(thrown -> ((TaskGraphException) thrown).reason())
                    .isEqualTo(TaskGraphException.Reason.DEPENDENCY_CYCLE);
            int edgesKept =
                    find(c.id()).blockedBy().size() + find(a.id()).blockedBy().size();
            assertThat(edgesKept)
                    .as("round %d: edges kept besides b → a", round)
                    .isEqualTo(1);
        }
    }

    @Test
    void ts125_dependantsAreListedLowestIdFirst() {
        assumeGraph();
        String session = session("graph-dependants");
        Task blocker = append(session, "blocker");
        Task first = append(session, "first");
        Task second = append(
                NewTask.builder(session, "second").blockedBy(blocker.id()).build());
        dependOn(first.id(), blocker.id());

        assertThat(store.<List<Task>>inTransaction(tx -> tx.listDependants(blocker.id())))
                .containsExactly(find(first.id()), find(second.id()));
        assertThat(store.<List<Task>>inTransaction(tx -> tx.listDependants(second.id())))
                .isEmpty();
        assertThat(store.<List<Task>>inTransaction(tx -> tx.listDependants(UNKNOWN_ID)))
                .isEmpty();
    }

    @Test
    void ts126_subtasksMoveBetweenParentsWithoutCyclesAndArchiveWithTheirParent() {
        assumeGraph();
        String session = session("graph-tree");
        Task root = append(session, "release");
        Task child = append(NewTask.builder(session, "build").parent(root.id()).build());
        Task sibling = append(NewTask.builder(session, "docs").parent(root.id()).build());
        Task grandchild =
                append(NewTask.builder(session, "compile").parent(child.id()).build());

        assertThat(store.<List<Task>>inTransaction(tx -> tx.listChildren(root.id())))
                .containsExactly(child, sibling);
        assertThat(store.<List<Task>>inTransaction(tx -> tx.listChildren(child.id())))
                .containsExactly(grandchild);
        List<Task> before = store.listTasks(session);

        TaskGraphException cycle = graphRefusal(
                catchThrowable(() -> store.inTransaction(tx -> tx.updateTask(
                        TaskUpdate.of(root.id()).parent(grandchild.id()).build()))),
                "root under its grandchild");
        Throwable unknown = catchThrowable(() -> store.inTransaction(
                tx -> tx.updateTask(TaskUpdate.of(root.id()).parent(UNKNOWN_ID).build())));

        assertThat(cycle.reason()).isEqualTo(TaskGraphException.Reason.PARENT_CYCLE);
        assertThat(cycle.tasks()).containsExactly(grandchild.id(), child.id(), root.id());
        assertThat(unknown).isInstanceOf(TaskNotFoundException.class);
        assertThat(store.listTasks(session)).isEqualTo(before);
        assertThatThrownBy(() -> TaskUpdate.of(root.id()).parent(root.id()))
                .isInstanceOf(IllegalArgumentException.class);

        Task moved = store.inTransaction(tx ->
                tx.updateTask(TaskUpdate.of(sibling.id()).parent(child.id()).build()));
        assertThat(moved.parentId()).isEqualTo(child.id());
        assertThat(store.<List<Task>>inTransaction(tx -> tx.listChildren(root.id())))
                .containsExactly(find(child.id()));
        assertThat(store.<List<Task>>inTransaction(tx -> tx.listChildren(child.id())))
                .extracting(Task::id)
                .containsExactly(sibling.id(), grandchild.id());

        store.inTransaction(
                tx -> tx.updateTask(TaskUpdate.of(root.id()).archived(true).build()));

        assertThat(List.of(root, child, sibling, grandchild))
                .as("TS-12.6: archiving a task archives its subtree")
                .allSatisfy(task -> assertThat(find(task.id()).archived()).isTrue());
    }

    @Test
    void ts127_successOverOpenSubtasksIsRefusedUnlessAskedFor() {
        assumeGraph();
        String session = session("graph-open-children");
        String agent = agent("graph-open-children");
        Task parent = append(NewTask.builder(session, "release").assignee(agent).build());
        Task open = append(NewTask.builder(session, "build").parent(parent.id()).build());
        Task done = append(NewTask.builder(session, "lint").parent(parent.id()).build());
        Task dropped =
                append(NewTask.builder(session, "optional").parent(parent.id()).build());
        succeed(done.id());
        store.inTransaction(
                tx -> tx.updateTask(TaskUpdate.of(dropped.id()).archived(true).build()));
        Task claimed = store.claimNext(agent, LEASE).orElseThrow();
        List<Task> before = store.listTasks(session);

        TaskGraphException byUpdate =
                graphRefusal(catchThrowable(() -> succeed(parent.id())), "success by update over an open subtask");
        TaskGraphException byCompletion = graphRefusal(
                catchThrowable(() -> store.inTransaction(
                        tx -> tx.complete(parent.id(), agent, claimed.attempt(), TaskStatus.SUCCESS))),
                "success by completion over an open subtask");

        assertThat(byUpdate.reason()).isEqualTo(TaskGraphException.Reason.OPEN_CHILDREN);
        assertThat(byUpdate.tasks()).as("the open subtasks only").containsExactly(open.id());
        assertThat(byUpdate.getMessage()).contains(String.valueOf(open.id()));
        assertThat(byCompletion.tasks()).containsExactly(open.id());
        assertThat(store.listTasks(session)).isEqualTo(before);

        Task completed =
                store.inTransaction(tx -> tx.complete(parent.id(), agent, claimed.attempt(), TaskStatus.SUCCESS, true));
        assertThat(completed.status()).isEqualTo(TaskStatus.SUCCESS);
        Task reopened = store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(parent.id()).status(TaskStatus.PENDING).build()));
        Task failed = store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(parent.id()).status(TaskStatus.FAILED).build()));
        assertThat(failed.status()).as("failing is always allowed").isEqualTo(TaskStatus.FAILED);
        Task forced = store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(reopened.id())
                .status(TaskStatus.SUCCESS)
                .evenWithOpenChildren()
                .build()));
        assertThat(forced.status()).isEqualTo(TaskStatus.SUCCESS);
    }

    @Test
    void ts128_anUpdateReplacesTagsAndMetadata() {
        assumeGraph();
        String session = session("graph-labels");
        Task task = append(NewTask.builder(session, "labelled")
                .tags("old")
                .metadata("{\"a\":1}")
                .build());

        Task relabelled = store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(task.id())
                .tags(List.of("z", "y", "z"))
                .metadata("{ \"jira\": \"ABC-1\" }")
                .build()));

        assertThat(relabelled.tags()).containsExactly("y", "z");
        assertThat(relabelled.metadata()).isEqualTo("{ \"jira\": \"ABC-1\" }");
        assertThat(relabelled.version()).isEqualTo(task.version() + 1);
        assertThat(find(task.id())).isEqualTo(relabelled);
        Task cleared = store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(task.id()).tags(List.of()).metadata(null).build()));
        assertThat(cleared.tags()).isEmpty();
        assertThat(cleared.metadata()).isNull();
        assertThat(find(task.id())).isEqualTo(cleared);
    }

    // ---------------------------------------------------------------------------------------------
    // TS-13 Search
    // ---------------------------------------------------------------------------------------------

    @Test
    void ts131_searchFindsEveryWordWithoutRegardToCaseInAnyScriptInTheSearchableTextsOnly() {
        assumeSearch();
        String marker = searchMarker();
        String session = session("search");
        String agent = agent("search");
        Task inDescription = append(session, "Überweisung " + marker + " prüfen, Café bezahlen");
        Task inSteps = append(NewTask.builder(session, "steps only")
                .steps("- [ ] " + marker + " задача erledigen\n")
                .build());
        Task inProgress = append(session, "progress only");
        Task inComment = append(session, "comment only");
        Task elsewhere = append(NewTask.builder(session, "elsewhere only")
                .tags(marker)
                .metadata("{\"note\":\"" + marker + "\"}")
                .build());
        store.inTransaction(tx -> {
            tx.appendProgress(inProgress.id(), "Done: the ΕΡΓΑΣΙΑ " + marker + ".");
            tx.addComment(inComment.id(), agent, "Looked at it (" + marker.toUpperCase(Locale.ROOT) + "); naïve fix");
            tx.addLink(elsewhere.id(), "https://example.org/" + marker, marker + " link", agent);
            tx.addComment(elsewhere.id(), marker + "-bot", "nothing to see");
            return tx.updateTask(TaskUpdate.of(elsewhere.id())
                    .userPreference("prefers " + marker)
                    .build());
        });

        assertThat(searchIds(marker))
                .containsExactlyInAnyOrder(inDescription.id(), inSteps.id(), inProgress.id(), inComment.id());
        assertThat(searchIds("ÜBERWEISUNG " + marker)).containsExactly(inDescription.id());
        assertThat(searchIds("überweisung, café " + marker)).containsExactly(inDescription.id());
        assertThat(searchIds("ЗАДАЧА " + marker)).containsExactly(inSteps.id());
        assertThat(searchIds("εργασια " + marker.toUpperCase(Locale.ROOT))).containsExactly(inProgress.id());
        assertThat(searchIds("NAÏVE " + marker)).containsExactly(inComment.id());
        assertThat(searchIds("\"" + marker + "\" & (looked | fix)*")).containsExactly(inComment.id());
        assertThat(searchIds("Überweisung " + marker + " nirgendwo")).isEmpty();
        assertThat(searchIds(marker + "zz")).isEmpty();
    }

    @Test
    void ts132_filtersNarrowByStatusAssigneeSessionTagAndArchived() {
        assumeSearch();
        String marker = searchMarker();
        String session = session("filters");
        String otherSession = session("filters-other");
        String alice = agent("alice");
        String bob = agent("bob");
        Task alicePending = append(NewTask.builder(session, "Rechnung " + marker)
                .assignee(alice)
                .tags("billing")
                .build());
        Task aliceDone = append(
                NewTask.builder(session, "Rechnung " + marker).assignee(alice).build());
        Task bobFailed = append(NewTask.builder(otherSession, "Rechnung " + marker)
                .assignee(bob)
                .tags("billing", "urgent")
                .build());
        Task archived = append(NewTask.builder(session, "Rechnung " + marker)
                .assignee(alice)
                .tags("billing")
                .build());
        store.inTransaction(tx -> {
            tx.updateTask(
                    TaskUpdate.of(aliceDone.id()).status(TaskStatus.SUCCESS).build());
            tx.updateTask(
                    TaskUpdate.of(bobFailed.id()).status(TaskStatus.FAILED).build());
            return tx.updateTask(TaskUpdate.of(archived.id()).archived(true).build());
        });
        SearchQuery query = SearchQuery.of("rechnung " + marker);

        assertThat(searchIds(query)).containsExactlyInAnyOrder(alicePending.id(), aliceDone.id(), bobFailed.id());
        assertThat(searchIds(query.includingArchived()))
                .containsExactlyInAnyOrder(alicePending.id(), aliceDone.id(), bobFailed.id(), archived.id());
        assertThat(searchIds(query.withStatuses(Set.of(TaskStatus.SUCCESS, TaskStatus.FAILED))))
                .containsExactlyInAnyOrder(aliceDone.id(), bobFailed.id());
        assertThat(searchIds(query.withStatuses(Set.of(TaskStatus.PENDING)))).containsExactly(alicePending.id());
        assertThat(searchIds(query.withAssignee(alice))).containsExactlyInAnyOrder(alicePending.id(), aliceDone.id());
        assertThat(searchIds(query.withSession(otherSession))).containsExactly(bobFailed.id());
        assertThat(searchIds(query.withTag("billing"))).containsExactlyInAnyOrder(alicePending.id(), bobFailed.id());
        assertThat(searchIds(query.withTag("billing").includingArchived()))
                .containsExactlyInAnyOrder(alicePending.id(), bobFailed.id(), archived.id());
        assertThat(searchIds(query.withTag("urgent").withAssignee(alice))).isEmpty();
        assertThat(searchIds(query.withSession(session).withAssignee(alice).withStatuses(Set.of(TaskStatus.PENDING))))
                .containsExactly(alicePending.id());
    }

    @Test
    void ts133_pagesHoldAtMostTheLimitAndCountWhatRemains() {
        assumeSearch();
        String marker = searchMarker();
        String session = session("pages");
        Set<Long> created = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            created.add(append(session, "Aufgabe " + marker + " number " + i).id());
        }
        SearchQuery query = SearchQuery.of(marker).withLimit(2);

        TaskPage first = store.searchTasks(query);
        TaskPage second = store.searchTasks(query.withCursor(first.cursor()));
        TaskPage third = store.searchTasks(query.withCursor(second.cursor()));

        assertThat(List.of(
                        first.tasks().size(),
                        second.tasks().size(),
                        third.tasks().size()))
                .containsExactly(2, 2, 1);
        assertThat(List.of(first.remaining(), second.remaining(), third.remaining()))
                .containsExactly(3L, 1L, 0L);
        assertThat(first.nextCursor()).isPresent();
        assertThat(third.nextCursor()).isEmpty();
        List<Long> all = new ArrayList<>();
        for (TaskPage page : List.of(first, second, third)) {
            all.addAll(ids(page.tasks()));
        }
        assertThat(all).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(created);
        TaskPage whole = store.searchTasks(query.withLimit(SearchQuery.MAX_LIMIT));
        assertThat(ids(whole.tasks())).containsExactlyElementsOf(all);
        assertThat(whole.remaining()).isZero();
        assertThat(whole.nextCursor()).isEmpty();
        assertThat(whole.tasks()).allSatisfy(task -> assertThat(task).isEqualTo(find(task.id())));
    }

    @Test
    void ts134_pagingReturnsEveryMatchOnceWhileTasksAreCreatedBetweenPages() {
        assumeSearch();
        String marker = searchMarker();
        String session = session("stable");
        Set<Long> before = new HashSet<>();
        for (int i = 0; i < 7; i++) {
            String text = i % 2 == 0 ? marker + " " + marker + " twice" : "once " + marker;
            before.add(append(session, text).id());
        }
        SearchQuery query = SearchQuery.of(marker).withLimit(3);
        List<Long> seen = new ArrayList<>();
        TaskPage page = store.searchTasks(query);
        long total = page.tasks().size() + page.remaining();
        int created = 0;
        while (true) {
            seen.addAll(ids(page.tasks()));
            assertThat(page.tasks().size() + page.remaining()).isLessThanOrEqualTo(total);
            total = page.remaining();
            if (page.nextCursor().isEmpty()) {
                break;
            }
            for (int i = 0; i < 3; i++) {
                append(session, created++ % 2 == 0 ? marker + " " + marker + " new" : "new " + marker);
            }
            page = store.searchTasks(query.withCursor(page.cursor()));
        }

        assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(before);
        assertThat(searchIds(query.withLimit(SearchQuery.MAX_LIMIT))).hasSize(7 + created);
    }

    @Test
    void ts135_searchSeesWhatCommittedBefore() {
        assumeSearch();
        String marker = searchMarker();
        String agent = agent("sees");
        Task task = append(session("sees"), "Bericht " + marker);
        String commentWord = marker + "comment";
        String progressWord = marker + "progress";
        String newWord = marker + "renamed";

        assertThat(searchIds(commentWord)).isEmpty();
        catchThrowable(() -> store.inTransaction(tx -> {
            tx.addComment(task.id(), agent, "rolled back " + commentWord);
            throw new IllegalStateException("roll back");
        }));
        assertThat(searchIds(commentWord)).isEmpty();
        store.inTransaction(tx -> tx.addComment(task.id(), agent, "see " + commentWord));
        assertThat(searchIds(commentWord)).containsExactly(task.id());
        store.inTransaction(tx -> tx.appendProgress(task.id(), "did " + progressWord));
        assertThat(searchIds(progressWord)).containsExactly(task.id());
        store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(task.id()).description("Neuer Bericht " + newWord).build()));
        assertThat(searchIds(newWord)).containsExactly(task.id());
        assertThat(searchIds("bericht " + marker)).isEmpty();
        assertThat(searchIds("bericht " + commentWord)).containsExactly(task.id());
    }

    @Test
    void ts136_cursorsOfAnotherQueryChangedOrCutAreRefusedAndWriteNothing() {
        assumeSearch();
        String marker = searchMarker();
        String session = session("cursors");
        for (int i = 0; i < 3; i++) {
            append(session, "Vorgang " + marker + " alpha beta");
        }
        Task task = find(append(session, "unrelated").id());
        SearchQuery query = SearchQuery.of("vorgang " + marker).withLimit(1);
        String cursor = store.searchTasks(query).cursor();
        assertThat(cursor).isNotNull();
        char last = cursor.charAt(cursor.length() - 1);
        String changed = cursor.substring(0, cursor.length() - 1) + (last == 'A' ? 'B' : 'A');
        String middleChanged = cursor.substring(0, 5) + (cursor.charAt(5) == 'x' ? 'y' : 'x') + cursor.substring(6);

        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put(
                "other words",
                tx -> tx.searchTasks(SearchQuery.of("alpha " + marker).withCursor(cursor)));
        calls.put(
                "other filter", tx -> tx.searchTasks(query.withSession(session).withCursor(cursor)));
        calls.put("archived too", tx -> tx.searchTasks(query.includingArchived().withCursor(cursor)));
        calls.put("last character changed", tx -> tx.searchTasks(query.withCursor(changed)));
        calls.put("a character changed", tx -> tx.searchTasks(query.withCursor(middleChanged)));
        calls.put("cut", tx -> tx.searchTasks(query.withCursor(cursor.substring(0, cursor.length() / 2))));
        calls.put("one character longer", tx -> tx.searchTasks(query.withCursor(cursor + "A")));
        calls.put("not base64", tx -> tx.searchTasks(query.withCursor("!!not a cursor!!")));
        calls.put(
                "forged",
                tx -> tx.searchTasks(query.withCursor("AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")));
        assertRefusedWithoutWriting(calls, SearchCursorException.class, session, task);
        assertThat(store.searchTasks(query.withLimit(3).withCursor(cursor)).tasks())
                .hasSize(2);
    }

    private void assumeDeadLetters() {
        try {
            store.inTransaction(tx -> tx.listDeadLetters(1, 1, null));
        } catch (UnsupportedOperationException e) {
            assumeTrue(false, "the store does not list dead letters (TS-2.8 is optional): " + e.getMessage());
        }
    }

    /** Creates the task, claims it (its first attempt) and ends that attempt failed. */
    private Task failedOnce(NewTask spec) {
        Task created = append(spec);
        return store.inTransaction(tx -> {
            Task claimed = tx.claimNext(spec.assignee(), LEASE).orElseThrow();
            assertThat(claimed.id()).as("the claim of the task just created").isEqualTo(created.id());
            return tx.complete(claimed.id(), spec.assignee(), claimed.attempt(), TaskStatus.FAILED);
        });
    }

    /**
     * Follows the dead-letter pages from the first to the last, checking each page's size and count of what
     * remains against the pages after it.
     */
    private List<Task> walkDeadLetters(int defaultMaxAttempts, int limit) {
        List<Task> all = new ArrayList<>();
        List<Long> remainingAfter = new ArrayList<>();
        List<Integer> endOfPage = new ArrayList<>();
        TaskPage page = store.inTransaction(tx -> tx.listDeadLetters(defaultMaxAttempts, limit, null));
        while (true) {
            assertThat(page.tasks()).hasSizeLessThanOrEqualTo(limit);
            all.addAll(page.tasks());
            remainingAfter.add(page.remaining());
            endOfPage.add(all.size());
            assertThat(page.nextCursor().isPresent()).isEqualTo(page.remaining() > 0);
            if (!page.hasMore()) {
                break;
            }
            String cursor = page.cursor();
            page = store.inTransaction(tx -> tx.listDeadLetters(defaultMaxAttempts, limit, cursor));
        }
        for (int i = 0; i < remainingAfter.size(); i++) {
            assertThat(remainingAfter.get(i))
                    .as("remaining after page %s", i + 1)
                    .isEqualTo(all.size() - endOfPage.get(i));
        }
        return all;
    }

    private void assumeQueuePaging() {
        try {
            store.listQueuePage(QueueQuery.of(agent("probe")));
        } catch (UnsupportedOperationException e) {
            assumeTrue(false, "the store does not page queues (TS-2.6 is optional): " + e.getMessage());
        }
    }

    private void assumeSearch() {
        try {
            store.searchTasks(SearchQuery.of("probe"));
        } catch (UnsupportedOperationException e) {
            assumeTrue(false, "the store does not search (TS-13 is optional): " + e.getMessage());
        }
    }

    /** A word no other test writes: letters and digits, longer than any engine's shortest indexed word. */
    private static String searchMarker() {
        return "kitw" + RUN_ID.replaceAll("[^a-z0-9]", "") + "q" + NAME_SEQUENCE.incrementAndGet();
    }

    private List<Long> searchIds(String text) {
        return searchIds(SearchQuery.of(text));
    }

    private List<Long> searchIds(SearchQuery query) {
        TaskPage page = store.searchTasks(query.withLimit(SearchQuery.MAX_LIMIT));
        assertThat(page.remaining()).as("matches beyond one page of %s", query).isZero();
        return ids(page.tasks());
    }

    // ---------------------------------------------------------------------------------------------
    // Helpers
    // ---------------------------------------------------------------------------------------------

    /** A unit of work that returns anything: one call with bad input. */
    private interface Call extends TransactionWork<Object> {}

    /**
     * Checks that each call throws the expected exception, both when the unit of work catches it and
     * commits, and when it propagates; and that the session's tasks and planning section are unchanged.
     */
    private void assertRefusedWithoutWriting(
            Map<String, Call> calls, Class<? extends Throwable> expected, String session, Task task) {
        List<Task> tasksBefore = store.listTasks(session);
        List<String> planningBefore = planning(session);
        for (Map.Entry<String, Call> call : calls.entrySet()) {
            Call work = call.getValue();
            Throwable insideUnit = store.inTransaction(tx -> catchThrowable(() -> work.execute(tx)));
            Throwable propagated = catchThrowable(() -> store.inTransaction(work));
            assertThat(insideUnit).as(call.getKey()).isInstanceOf(expected);
            assertThat(propagated).as(call.getKey()).isInstanceOf(expected);
        }
        assertThat(store.listTasks(session)).isEqualTo(tasksBefore);
        assertThat(find(task.id())).isEqualTo(task);
        assertThat(planning(session)).isEqualTo(planningBefore);
    }

    private static void assertStale(Throwable thrown, long taskId, String how) {
        assertThat(thrown).as("stale update, %s", how).isInstanceOf(StaleTaskException.class);
        StaleTaskException exception = (StaleTaskException) thrown;
        assertThat(exception.taskId()).isEqualTo(taskId);
        assertThat(exception.expectedVersion()).isEqualTo(1);
        assertThat(exception.actualVersion()).isIn(2L, -1L);
    }

    /**
     * Lets short leases run out: moves the kit's clock past them, for stores on that clock, and waits for
     * them to run out in real time too, for stores on a clock of their own (a database's on this host).
     */
    private void letLeasesExpire(Duration lease) {
        clock.advance(lease.plus(CLOCK_SLACK));
        Instant until = Instant.now().plus(lease).plus(Duration.ofMillis(50));
        while (Instant.now().isBefore(until)) {
            LockSupport.parkUntil(until.toEpochMilli());
        }
    }

    /**
     * Reclaims until every one of the expected tasks was taken back: at once for a store on the kit's
     * clock, after their leases ran out in real time for a store on a clock of its own; fails after the
     * kit's deadline.
     */
    private List<ReclaimedTask> reclaimUntil(Set<Long> expected, int defaultMaxAttempts) {
        return reclaimUntil(expected, defaultMaxAttempts, attempt -> Duration.ZERO);
    }

    private List<ReclaimedTask> reclaimUntil(
            Set<Long> expected, int defaultMaxAttempts, java.util.function.IntFunction<Duration> backoff) {
        clock.advance(SHORT_LEASE.plus(CLOCK_SLACK));
        List<ReclaimedTask> reclaimed = new ArrayList<>();
        Set<Long> missing = new HashSet<>(expected);
        Instant deadline = Instant.now().plus(DEADLINE);
        while (!missing.isEmpty()) {
            List<ReclaimedTask> batch = store.inTransaction(tx -> tx.reclaimExpired(defaultMaxAttempts, 100, backoff));
            reclaimed.addAll(batch);
            batch.forEach(result -> missing.remove(result.task().id()));
            if (!missing.isEmpty()) {
                assertThat(Instant.now())
                        .as("tasks %s were never reclaimed", missing)
                        .isBefore(deadline);
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            }
        }
        return reclaimed;
    }

    private static void await(CountDownLatch latch, Duration atMost) {
        try {
            latch.await(atMost.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Appends a task and records its creation for the feed, as the library's components do. */
    private Task appendRecorded(NewTask spec) {
        return store.inTransaction(tx -> {
            Task task = tx.appendTask(spec);
            tx.recordEvent(new TaskEvent.Created(task));
            return task;
        });
    }

    /** Waits until a subscription counts an event as delivered: it does so once its listener returned. */
    private static void awaitLastDelivered(FeedSubscription subscription, long position) {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (subscription.lastDeliveredPosition() < position) {
            assertThat(Instant.now()).as("delivery of position %d", position).isBefore(deadline);
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
        assertThat(subscription.lastDeliveredPosition()).isEqualTo(position);
    }

    private static long lastOf(List<FeedEvent> events) {
        return events.get(events.size() - 1).position();
    }

    private static void awaitSize(List<?> list, int size) {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (list.size() < size) {
            assertThat(Instant.now())
                    .as("%d of %d delivered", list.size(), size)
                    .isBefore(deadline);
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
        assertThat(list).hasSize(size);
    }

    private String session(String label) {
        return "kit-" + RUN_ID + "-" + NAME_SEQUENCE.incrementAndGet() + "-" + label;
    }

    private String agent(String label) {
        return "agent-" + RUN_ID + "-" + NAME_SEQUENCE.incrementAndGet() + "-" + label;
    }

    private Task append(String sessionId, String description) {
        return append(NewTask.of(sessionId, description));
    }

    private Task append(NewTask spec) {
        return store.inTransaction(tx -> tx.appendTask(spec));
    }

    private Task insert(NewTask spec, int afterOrder) {
        return store.inTransaction(tx -> tx.insertTask(spec, afterOrder));
    }

    private Task insertFor(String session, String agent, String description, int priority, int afterOrder) {
        return insert(
                NewTask.builder(session, description)
                        .assignee(agent)
                        .priority(priority)
                        .build(),
                afterOrder);
    }

    private Task find(long id) {
        return store.findTask(id).orElseThrow(() -> new AssertionError("task " + id + " is not in the store"));
    }

    private List<Task> queue(String agent) {
        return store.inTransaction(tx -> tx.listQueue(agent));
    }

    private List<String> planning(String session) {
        return store.inTransaction(tx -> tx.planningMessageIds(session));
    }

    /** A task with a value in every field, to show that writes leave the other fields alone. */
    private Task richTask(String session) {
        String agent = agent("rich");
        Task task = append(NewTask.builder(session, "a task with every field")
                .priority(2)
                .assignee(agent)
                .createdBy(agent("creator"))
                .steps("- [ ] one\n- [ ] two\n")
                .build());
        return store.inTransaction(tx -> {
            tx.updateTask(
                    TaskUpdate.of(task.id()).userPreference("a preference").build());
            tx.appendProgress(task.id(), "some progress");
            tx.addComment(task.id(), agent, "a comment");
            tx.addLink(task.id(), "https://example.org", "a link", agent);
            return tx.linkMessages(task.id(), List.of("m1", "m2"));
        });
    }

    /** Creates a session's worth of pending tasks for one assignee, in a few units of work. */
    private Set<Long> createQueue(String session, String agent, int count) {
        Set<Long> ids = new HashSet<>();
        int perUnit = 250;
        for (int start = 0; start < count; start += perUnit) {
            int from = start;
            int to = Math.min(count, start + perUnit);
            List<Task> created = store.inTransaction(tx -> {
                List<Task> result = new ArrayList<>();
                for (int index = from; index < to; index++) {
                    result.add(tx.appendTask(NewTask.builder(session, "queued task " + index)
                            .assignee(agent)
                            .priority(index % 5)
                            .build()));
                }
                return result;
            });
            created.forEach(task -> ids.add(task.id()));
        }
        return ids;
    }

    /** Claims until the store comes back empty, at most {@code limit} times (a broken store may not). */
    private List<Task> claimUntilEmpty(String agent, int limit) {
        List<Task> claimed = new ArrayList<>();
        while (claimed.size() < limit) {
            Optional<Task> next = store.claimNext(agent, LEASE);
            if (next.isEmpty()) {
                break;
            }
            claimed.add(next.get());
        }
        return claimed;
    }

    private static List<String> descriptions(List<Task> tasks) {
        return tasks.stream().map(Task::description).toList();
    }

    private static List<Long> ids(List<Task> tasks) {
        return tasks.stream().map(Task::id).toList();
    }

    private static void assertOrdersContiguous(List<Task> tasks) {
        assertThat(tasks)
                .extracting(Task::order)
                .as("orders of the session's tasks, in listing order")
                .containsExactlyElementsOf(
                        IntStream.rangeClosed(1, tasks.size()).boxed().toList());
    }

    /** What the reader of the isolation test saw, in one unit of work. */
    private record ReadSnapshot(List<Task> tasks, Task task, List<String> planning) {}

    /** The exception the kit's units of work throw to make a store roll back. */
    private static final class KitFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        KitFailure(String message) {
            super(message);
        }
    }

    /** An {@link Error} thrown by a unit of work; TS-1.2 says it reaches the caller as is. */
    private static final class KitError extends Error {
        private static final long serialVersionUID = 1L;

        KitError(String message) {
            super(message);
        }
    }
}
