package dev.taskagent.testkit.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.tuple;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.Backoff;
import dev.taskagent.queue.Completion;
import dev.taskagent.queue.Completions;
import dev.taskagent.queue.LeaseReaper;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.AppendResult;
import dev.taskagent.store.PageCursorException;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.Comment;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskArchivedException;
import dev.taskagent.task.TaskCompleteException;
import dev.taskagent.task.TaskNotAssignedException;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.ForwardingTaskTransaction;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of the shared work queue ({@link TaskQueue} and its tools), written once and run on every
 * store: subclass it in a store's tests and return a fresh, empty store from {@link #createStore(Clock)}.
 *
 * <pre>{@code
 * class InMemoryTaskQueueTest extends TaskQueueSuite {
 *     @Override
 *     protected TaskStore createStore(Clock clock) {
 *         return new InMemoryTaskStore(clock);
 *     }
 * }
 * }</pre>
 *
 * <p>Concurrency tests use real threads released together by a barrier and assert invariants (each
 * task claimed exactly once, exactly one of two moves wins), never timing; every wait has a deadline.
 */
public abstract class TaskQueueSuite {

    /** How long a concurrent phase may take before the test fails instead of hanging. */
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    private static final Pattern CLAIMED = Pattern.compile("^Task #(\\d+) claimed and set to working status\n");

    private MutableClock clock;
    private TaskStore store;
    private TaskQueue queue;
    private Toolbox tools;
    private final List<TaskEvent> events = new CopyOnWriteArrayList<>();
    private final AtomicInteger callIds = new AtomicInteger();

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected TaskQueueSuite() {}

    /**
     * Creates the store under test. Each call must return a new, empty store; the suite closes it.
     *
     * @param clock the clock the store must take its timestamps from
     * @return the store
     */
    protected abstract TaskStore createStore(Clock clock);

    @BeforeEach
    void createQueue() {
        clock = MutableClock.standard();
        store = createStore(clock);
        queue = TaskQueue.builder(store).listener(events::add).build();
        tools = queue.tools();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    // ---------------------------------------------------------------- signup

    @Test
    void signupReturnsTheFirstIdleTaskRunningWithItsCommentsAndLinks() {
        Task task = create("alice", 0, "Fix the login redirect");
        queue.comment(task.id(), "carol", "Users land on a blank page.");
        queue.link(task.id(), "https://example.com/issues/12", "bug report", "carol");

        Optional<Task> claimed = queue.claimNext("alice");

        assertThat(claimed).isPresent();
        Task running = claimed.get();
        assertThat(running.id()).isEqualTo(task.id());
        assertThat(running.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(running.assignee()).isEqualTo("alice");
        assertThat(running.comments()).extracting(c -> c.text()).containsExactly("Users land on a blank page.");
        assertThat(running.links()).extracting(l -> l.url()).containsExactly("https://example.com/issues/12");
        assertThat(store.findTask(task.id())).contains(running);
    }

    @Test
    void claimUpToTakesSeveralTasksInClaimOrderAndTellsTheListeners() {
        Task low = create("alice", 0, "Water the plants");
        Task high = create("alice", 5, "Call the plumber");
        Task middle = create("alice", 2, "Pay the rent");

        List<Task> claimed = queue.claimUpTo("alice", 2);

        assertThat(claimed).extracting(Task::id).containsExactly(high.id(), middle.id());
        assertThat(claimed).allSatisfy(task -> assertThat(task.status()).isEqualTo(TaskStatus.RUNNING));
        assertThat(events)
                .filteredOn(event -> event instanceof TaskEvent.Claimed)
                .extracting(event -> event.task().id())
                .containsExactly(high.id(), middle.id());
        assertThat(queue.claimUpTo("alice", 5)).extracting(Task::id).containsExactly(low.id());
        assertThat(queue.claimUpTo("alice", 5)).isEmpty();
        assertThatThrownBy(() -> queue.claimUpTo("alice", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
    }

    @Test
    void completeAllWritesEveryCompletionWhoseClaimHoldsAndReportsTheOthers() {
        create("alice", 0, "Print the invoice");
        create("alice", 0, "Post the invoice");
        create("alice", 0, "File the invoice");
        List<Task> claimed = queue.claimUpTo("alice", 3);
        Task lost = claimed.get(1);
        queue.update(TaskUpdate.of(lost.id()).status(TaskStatus.PENDING).build());
        events.clear();

        Completions done = queue.completeAll(
                "alice",
                List.of(
                        Completion.success(claimed.get(0).id(), claimed.get(0).attempt()),
                        Completion.success(lost.id(), lost.attempt()),
                        new Completion(
                                claimed.get(2).id(), claimed.get(2).attempt(), TaskStatus.FAILED, "Out of paper")));

        assertThat(done.completed())
                .extracting(Task::id, Task::status)
                .containsExactly(
                        tuple(claimed.get(0).id(), TaskStatus.SUCCESS),
                        tuple(claimed.get(2).id(), TaskStatus.FAILED));
        assertThat(done.refused()).containsOnlyKeys(lost.id());
        assertThat(done.refused().get(lost.id())).isInstanceOf(ClaimLostException.class);
        assertThat(queue.get(lost.id()).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
        assertThat(queue.get(claimed.get(2).id()).orElseThrow().comments())
                .extracting(comment -> comment.text())
                .containsExactly("Out of paper");
        assertThat(events)
                .filteredOn(event -> event instanceof TaskEvent.Completed)
                .extracting(event -> event.task().id())
                .containsExactly(claimed.get(0).id(), claimed.get(2).id());
        assertThatThrownBy(() -> new Completion(claimed.get(0).id(), 1, TaskStatus.PENDING, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("release");
    }

    @Test
    void signupToolClaimsAndShowsTheTaskAsCompactJson() {
        Task task = create("alice", 3, "Fix the login redirect");

        ToolResult result = call("signup_for_task", "{\"agent_name\":\"alice\"}");

        assertThat(result.isError()).isFalse();
        Task claimed = store.findTask(task.id()).orElseThrow();
        assertThat(result.text())
                .isEqualTo("Task #" + task.id() + " claimed and set to working status\n{\"id\":" + task.id()
                        + ",\"status\":\"running\",\"priority\":3,\"assignee\":\"alice\",\"attempt\":1,"
                        + "\"lease_until\":\"" + claimed.leaseExpiresAt() + "\","
                        + "\"description\":\"Fix the login redirect\"}");
    }

    @Test
    void signupWithNoIdleTaskReturnsNothingAndTheToolSaysSoWithoutAnError() {
        Task running = create("alice", 0, "Already started");
        queue.claimNext("alice");

        assertThat(queue.claimNext("alice")).isEmpty();
        assertThat(queue.claimNext("nobody-here")).isEmpty();
        ToolResult result = call("signup_for_task", "{\"agent_name\":\"alice\"}");
        // No task: the declared output schema's object, without a task.
        assertThat(result).isEqualTo(ToolResult.ok("No idle task is available for alice", "{}"));
        assertThat(store.findTask(running.id()).orElseThrow().status()).isEqualTo(TaskStatus.RUNNING);
    }

    @Test
    void signupTakesTheHighestPriorityFirst() {
        Task low = create("alice", 1, "low");
        Task high = create("alice", 9, "high");
        Task negative = create("alice", -5, "below the default");
        Task middle = create("alice", 4, "middle");

        assertThat(claimAll("alice")).containsExactly(high.id(), middle.id(), low.id(), negative.id());
    }

    @Test
    void signupTakesTheOldestFirstWhenPrioritiesAreEqual() {
        Task newer = create("alice", 2, "created at noon");
        clock.set(Instant.parse("2025-12-31T08:00:00Z"));
        Task older = create("alice", 2, "created the morning before, with a higher id");
        clock.set(Instant.parse("2026-01-02T00:00:00Z"));
        Task newest = create("alice", 2, "created last");

        assertThat(older.id()).isGreaterThan(newer.id());
        assertThat(claimAll("alice")).containsExactly(older.id(), newer.id(), newest.id());
    }

    @Test
    void signupTakesTheLowestIdWhenPriorityAndAgeAreEqual() {
        Task first = create("alice", 0, "first");
        Task second = create("alice", 0, "second");
        Task third = create("alice", 0, "third");

        assertThat(first.createdAt()).isEqualTo(third.createdAt());
        assertThat(claimAll("alice")).containsExactly(first.id(), second.id(), third.id());
    }

    @Test
    void signupIgnoresRunningCompleteAndArchivedTasks() {
        Task running = create("alice", 9, "running");
        queue.update(TaskUpdate.of(running.id()).status(TaskStatus.RUNNING).build());
        Task succeeded = create("alice", 9, "succeeded");
        queue.update(TaskUpdate.of(succeeded.id()).status(TaskStatus.SUCCESS).build());
        Task failed = create("alice", 9, "failed");
        queue.update(TaskUpdate.of(failed.id()).status(TaskStatus.FAILED).build());
        Task archived = create("alice", 9, "archived");
        queue.archive(archived.id());
        Task idle = create("alice", 0, "the only idle one");

        assertThat(claimAll("alice")).containsExactly(idle.id());
        assertThat(store.findTask(succeeded.id()).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(store.findTask(archived.id()).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
    }

    @Test
    void signupIgnoresOtherAgentsTasksAndUnassignedOnes() {
        Task bobs = create("bob", 9, "bob's");
        Task unassigned = queue.create(queue.newTask("no one's").priority(9).build());
        Task alices = create("alice", 0, "alice's");

        assertThat(claimAll("alice")).containsExactly(alices.id());
        assertThat(store.findTask(bobs.id()).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
        assertThat(store.findTask(unassigned.id()).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
    }

    @Test
    void signupRollsBackEverythingWhenTheUnitOfWorkFailsAfterTheClaim() {
        Task task = create("alice", 0, "must stay idle");
        events.clear();
        TaskQueue failing = TaskQueue.builder(new FailingStore(store, FailingStore.Fault.AFTER_CLAIM))
                .listener(events::add)
                .build();

        assertThatThrownBy(() -> failing.claimNext("alice"))
                .isInstanceOf(TaskStoreException.class)
                .hasMessageContaining("injected failure");

        assertThat(store.findTask(task.id())).contains(task);
        assertThat(events).isEmpty();
        assertThat(queue.claimNext("alice")).map(Task::id).contains(task.id());
    }

    @Test
    void signupTellsListenersAfterTheClaimCommitted() {
        create("alice", 0, "claimed");
        events.clear();

        Task claimed = queue.claimNext("alice").orElseThrow();

        assertThat(events).containsExactly(new TaskEvent.Claimed(claimed, "alice"));
    }

    // ------------------------------------------------------------------ move

    @Test
    void moveTransfersARunningTaskToTheNewAgentAsIdle() {
        Task task = create("alice", 2, "Write the release notes");
        queue.claimNext("alice");

        Task moved = queue.move(task.id(), "alice", "bob", "Draft is in the wiki; please finish it.");

        assertThat(moved.assignee()).isEqualTo("bob");
        assertThat(moved.previousAssignee()).isEqualTo("alice");
        assertThat(moved.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(moved.priority()).isEqualTo(2);
        assertThat(store.findTask(task.id())).contains(moved);
        assertThat(queue.listQueue("alice")).isEmpty();
        assertThat(queue.claimNext("bob")).map(Task::id).contains(task.id());
    }

    @Test
    void moveAddsTheCommentAuthoredByTheCurrentAgent() {
        Task task = create("alice", 0, "Review the patch");
        queue.comment(task.id(), "carol", "Patch attached.");

        Task moved = queue.move(task.id(), "alice", "bob", "Looks fine to me; bob knows the parser better.");

        assertThat(moved.comments())
                .extracting(c -> c.author() + ": " + c.text())
                .containsExactly("carol: Patch attached.", "alice: Looks fine to me; bob knows the parser better.");
    }

    @Test
    void moveToolTransfersAndShowsTheTaskWithItsComments() {
        Task task = create("alice", 0, "Review the patch");

        ToolResult result = call(
                "move_task",
                "{\"task_id\":" + task.id()
                        + ",\"current_agent\":\"alice\",\"new_agent\":\"bob\",\"comment\":\"Over to you.\"}");

        assertThat(result.isError()).isFalse();
        assertThat(result.text())
                .isEqualTo("Task #" + task.id() + " transferred from alice to bob\n{\"id\":" + task.id()
                        + ",\"status\":\"pending\",\"priority\":0,\"assignee\":\"bob\",\"previous_assignee\":\"alice\","
                        + "\"description\":\"Review the patch\","
                        + "\"comments\":[\"alice: Over to you.\"]}");
    }

    @Test
    void moveOfAnUnknownTaskIsNotFound() {
        assertThatThrownBy(() -> queue.move(4242, "alice", "bob", "hand over"))
                .isInstanceOf(TaskNotFoundException.class)
                .hasMessage("Task 4242 not found");
        assertThat(call("move_task", moveArguments(4242, "alice", "bob", "hand over")))
                .isEqualTo(ToolResult.error("Task 4242 not found"));
        assertThat(events).isEmpty();
    }

    @Test
    void moveByAnAgentThatDoesNotHoldTheTaskIsRefusedAndNamesTheOwner() {
        Task bobs = create("bob", 0, "bob's");
        Task unassigned = queue.create(queue.newTask("no one's").build());

        assertThatThrownBy(() -> queue.move(bobs.id(), "alice", "carol", "mine now"))
                .isInstanceOfSatisfying(TaskNotAssignedException.class, e -> {
                    assertThat(e.currentAssignee()).contains("bob");
                    assertThat(e.agent()).isEqualTo("alice");
                })
                .hasMessage("Task " + bobs.id() + " is not assigned to alice (currently assigned to: bob)");
        assertThat(call("move_task", moveArguments(bobs.id(), "alice", "carol", "mine now")))
                .isEqualTo(ToolResult.error(
                        "Task " + bobs.id() + " is not assigned to alice (currently assigned to: bob)"));
        assertThat(call("move_task", moveArguments(unassigned.id(), "alice", "carol", "mine now")))
                .isEqualTo(ToolResult.error(
                        "Task " + unassigned.id() + " is not assigned to alice (currently assigned to: no one)"));
        assertThat(store.findTask(bobs.id())).contains(bobs);
        assertThat(store.findTask(unassigned.id())).contains(unassigned);
    }

    @Test
    void moveOfACompleteTaskIsRefused() {
        Task succeeded = create("alice", 0, "done");
        succeeded = queue.update(
                TaskUpdate.of(succeeded.id()).status(TaskStatus.SUCCESS).build());
        Task failed = create("alice", 0, "given up");
        failed = queue.update(
                TaskUpdate.of(failed.id()).status(TaskStatus.FAILED).build());
        long succeededId = succeeded.id();

        assertThatThrownBy(() -> queue.move(succeededId, "alice", "bob", "again"))
                .isInstanceOfSatisfying(
                        TaskCompleteException.class, e -> assertThat(e.status()).isEqualTo(TaskStatus.SUCCESS))
                .hasMessage("Task " + succeededId + " is complete and cannot be transferred");
        assertThat(call("move_task", moveArguments(failed.id(), "alice", "bob", "again")))
                .isEqualTo(ToolResult.error("Task " + failed.id() + " is complete and cannot be transferred"));
        assertThat(store.findTask(succeededId)).contains(succeeded);
        assertThat(store.findTask(failed.id())).contains(failed);
    }

    @Test
    void moveOfAnArchivedTaskIsRefused() {
        Task task = create("alice", 0, "shelved");
        Task archived = queue.archive(task.id());

        assertThatThrownBy(() -> queue.move(task.id(), "alice", "bob", "revive it"))
                .isInstanceOf(TaskArchivedException.class)
                .hasMessage("Task " + task.id() + " is archived and cannot be transferred");
        assertThat(call("move_task", moveArguments(task.id(), "alice", "bob", "revive it")))
                .isEqualTo(ToolResult.error("Task " + task.id() + " is archived and cannot be transferred"));
        assertThat(store.findTask(task.id())).contains(archived);
    }

    @Test
    void moveRollsBackEverythingWhenTheUnitOfWorkFails() {
        Task task = create("alice", 0, "stays with alice");
        events.clear();
        for (FailingStore.Fault fault : List.of(FailingStore.Fault.AFTER_UPDATE, FailingStore.Fault.AFTER_COMMENT)) {
            TaskQueue failing = TaskQueue.builder(new FailingStore(store, fault))
                    .listener(events::add)
                    .build();

            assertThatThrownBy(() -> failing.move(task.id(), "alice", "bob", "hand over"))
                    .isInstanceOf(TaskStoreException.class)
                    .hasMessageContaining("injected failure");

            assertThat(store.findTask(task.id())).contains(task);
        }
        assertThat(events).isEmpty();
        assertThat(queue.move(task.id(), "alice", "bob", "hand over").comments())
                .hasSize(1);
    }

    @Test
    void moveReadsAndChecksTheTaskAgainWhenItChangedBetweenTheReadAndTheWrite() {
        Task task = create("alice", 0, "raced once");
        FailingStore racing = new FailingStore(store, FailingStore.Fault.STALE_ONCE);
        TaskQueue queueThatLosesOneRace = TaskQueue.builder(racing).build();

        Task moved = queueThatLosesOneRace.move(task.id(), "alice", "bob", "after one retry");

        assertThat(racing.staleUpdates()).isEqualTo(1);
        assertThat(moved.assignee()).isEqualTo("bob");
        assertThat(moved.comments()).extracting(c -> c.text()).containsExactly("after one retry");
    }

    @Test
    void aMoveThatKeepsLosingTheRaceGivesUpWithoutWritingAndTheToolSaysToRetry() {
        Task task = create("alice", 0, "always raced");
        FailingStore racing = new FailingStore(store, FailingStore.Fault.STALE_ALWAYS);
        TaskQueue queueThatAlwaysLoses = TaskQueue.builder(racing).build();

        assertThatThrownBy(() -> queueThatAlwaysLoses.move(task.id(), "alice", "bob", "never lands"))
                .isInstanceOf(StaleTaskException.class);
        ToolResult result = queueThatAlwaysLoses
                .tools()
                .call(new ToolCall("call-stale", "move_task", moveArguments(task.id(), "alice", "bob", "never")));

        // Each call retried, and gave up after a bounded number of attempts (it returned).
        assertThat(racing.staleUpdates()).isGreaterThan(2);
        assertThat(result.isError()).isTrue();
        assertThat(result.text())
                .startsWith("Task " + task.id() + " changed concurrently")
                .endsWith("and retry");
        assertThat(store.findTask(task.id())).contains(task);
    }

    @Test
    void everyOperationKeepsNoStateAcrossAStoreRetry() {
        FailingStore rerunning = new FailingStore(store, FailingStore.Fault.RERUN);
        TaskQueue retried = TaskQueue.builder(rerunning).listener(events::add).build();

        Task task =
                retried.create(retried.newTask("once only").assignee("alice").build());
        Task claimed = retried.claimNext("alice").orElseThrow();
        retried.comment(task.id(), "alice", "one comment");
        Task moved = retried.move(task.id(), "alice", "bob", "one hand-over");

        assertThat(rerunning.reruns()).isEqualTo(4);
        assertThat(claimed.id()).isEqualTo(task.id());
        assertThat(store.listTasks(queue.sessionId())).hasSize(1);
        assertThat(moved.comments()).extracting(c -> c.text()).containsExactly("one comment", "one hand-over");
        assertThat(events)
                .extracting(event -> event.getClass().getSimpleName())
                .containsExactly("Created", "Claimed", "Commented", "Moved");
    }

    @Test
    void moveTellsListenersAfterTheMoveCommitted() {
        Task task = create("alice", 0, "moved");
        events.clear();

        Task moved = queue.move(task.id(), "alice", "bob", "yours");

        assertThat(events).containsExactly(new TaskEvent.Moved(moved, "alice", "bob", "yours"));
    }

    // ------------------------------------------------------------- workflows

    @Test
    void aFullHandoffThroughTheTools() {
        ToolResult created = call(
                "create_task",
                "{\"description\":\"Ship the invoice export\",\"priority\":5,\"assignee\":\"alice\","
                        + "\"created_by\":\"carol\",\"steps\":\"- [ ] write the query\\n- [ ] add the button\"}");
        long id = idIn(created.text(), "^Task #(\\d+) created$");

        ToolResult claimed = call("signup_for_task", "{\"agent_name\":\"alice\"}");
        assertThat(claimed.text()).startsWith("Task #" + id + " claimed and set to working status\n");
        call("add_link", "{\"task_id\":" + id + ",\"url\":\"https://example.com/pr/7\",\"author\":\"alice\"}");
        ToolResult moved =
                call("move_task", moveArguments(id, "alice", "bob", "Query done (PR linked); the button is left."));
        assertThat(moved.text()).startsWith("Task #" + id + " transferred from alice to bob\n");

        ToolResult bobsClaim = call("signup_for_task", "{\"agent_name\":\"bob\"}");
        Task bobs = store.findTask(id).orElseThrow();
        assertThat(bobsClaim.text())
                .isEqualTo("Task #" + id + " claimed and set to working status\n{\"id\":" + id
                        + ",\"status\":\"running\",\"priority\":5,\"assignee\":\"bob\","
                        + "\"previous_assignee\":\"alice\",\"created_by\":\"carol\",\"attempt\":2,"
                        + "\"lease_until\":\"" + bobs.leaseExpiresAt() + "\","
                        + "\"description\":\"Ship the invoice export\","
                        + "\"steps\":\"- [ ] write the query\\n- [ ] add the button\","
                        + "\"comments\":[\"alice: Query done (PR linked); the button is left.\"],"
                        + "\"links\":[\"https://example.com/pr/7 by alice\"]}");
        assertThat(call("update_task", "{\"task_id\":" + id + ",\"status\":\"success\"}"))
                .isEqualTo(ToolResult.ok("Task #" + id + " updated"));
        assertThat(call("move_task", moveArguments(id, "bob", "carol", "please check")))
                .isEqualTo(ToolResult.error("Task " + id + " is complete and cannot be transferred"));
        assertThat(call("signup_for_task", "{\"agent_name\":\"bob\"}"))
                .isEqualTo(ToolResult.ok("No idle task is available for bob", "{}"));
    }

    @Test
    void severalAgentsCompetingForOneQueueThroughTheToolsEachGetDifferentTasks() {
        int taskCount = 60;
        Set<Long> created = createMany("reviewers", taskCount);

        List<List<Long>> claimedByWorker = runConcurrently(6, worker -> () -> {
            List<Long> mine = new ArrayList<>();
            while (true) {
                ToolResult result = call("signup_for_task", "{\"agent_name\":\"reviewers\"}");
                assertThat(result.isError()).isFalse();
                Matcher matcher = CLAIMED.matcher(result.text());
                if (!matcher.find()) {
                    assertThat(result.text()).isEqualTo("No idle task is available for reviewers");
                    return mine;
                }
                mine.add(Long.parseLong(matcher.group(1)));
            }
        });

        List<Long> all = claimedByWorker.stream().flatMap(List::stream).toList();
        assertThat(all).hasSize(taskCount).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).isEqualTo(created);
    }

    @Test
    void aChainFromAToBToCKeepsEveryCommentInOrder() {
        Task task = create("a", 1, "Translate the manual");

        queue.claimNext("a");
        queue.move(task.id(), "a", "b", "Chapters 1-3 done.");
        assertThat(queue.claimNext("b")).map(Task::id).contains(task.id());
        queue.move(task.id(), "b", "c", "Chapters 4-6 done.");
        Task atC = queue.claimNext("c").orElseThrow();

        assertThat(atC.assignee()).isEqualTo("c");
        assertThat(atC.previousAssignee()).isEqualTo("b");
        assertThat(atC.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(atC.comments())
                .extracting(c -> c.author() + ": " + c.text())
                .containsExactly("a: Chapters 1-3 done.", "b: Chapters 4-6 done.");
        assertThat(queue.listQueue("a")).isEmpty();
        assertThat(queue.listQueue("b")).isEmpty();
        assertThat(queue.listQueue("c")).extracting(Task::id).containsExactly(task.id());
        assertThatThrownBy(() -> queue.move(task.id(), "a", "b", "it is mine"))
                .isInstanceOf(TaskNotAssignedException.class)
                .hasMessageEndingWith("(currently assigned to: c)");
    }

    // ----------------------------------------------------------- concurrency

    @RepeatedTest(5)
    void sixteenWorkersOnOneAgentClaimEachOfAThousandTasksExactlyOnce() {
        int taskCount = 1000;
        Set<Long> created = createMany("crowd", taskCount);

        List<List<Long>> claimedByWorker = runConcurrently(16, worker -> () -> {
            List<Long> mine = new ArrayList<>();
            for (Optional<Task> next = queue.claimNext("crowd"); next.isPresent(); next = queue.claimNext("crowd")) {
                assertThat(next.get().status()).isEqualTo(TaskStatus.RUNNING);
                assertThat(next.get().assignee()).isEqualTo("crowd");
                mine.add(next.get().id());
            }
            return mine;
        });

        List<Long> all = claimedByWorker.stream().flatMap(List::stream).toList();
        assertThat(all).hasSize(taskCount).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).isEqualTo(created);
        // Every worker stopped only on an empty signup, so none may have quit while a task was idle.
        assertThat(queue.listQueue("crowd")).hasSize(taskCount).allSatisfy(task -> assertThat(task.status())
                .isEqualTo(TaskStatus.RUNNING));
        assertThat(events).filteredOn(TaskEvent.Claimed.class::isInstance).hasSize(taskCount);
    }

    @Test
    void sixteenAgentsEachGetOnlyTheirOwnTasksInPriorityOrder() {
        int agents = 16;
        int tasksPerAgent = 25;
        Random random = new Random(20260101L);
        Map<String, List<Task>> createdByAgent = new HashMap<>();
        store.inTransaction(transaction -> {
            createdByAgent.clear(); // the store may run this unit of work again (TS-1.7)
            for (int index = 0; index < agents * tasksPerAgent; index++) {
                String agent = "agent-" + (index % agents);
                clock.advance(Duration.ofSeconds(random.nextInt(3) - 1));
                Task task = transaction.appendTask(NewTask.builder(queue.sessionId(), "task " + index)
                        .priority(random.nextInt(5))
                        .assignee(agent)
                        .build());
                createdByAgent.computeIfAbsent(agent, key -> new ArrayList<>()).add(task);
            }
            return null;
        });

        List<List<Long>> claimedByAgent = runConcurrently(agents, agent -> () -> {
            List<Long> mine = new ArrayList<>();
            for (Optional<Task> next = queue.claimNext("agent-" + agent);
                    next.isPresent();
                    next = queue.claimNext("agent-" + agent)) {
                assertThat(next.get().assignee()).isEqualTo("agent-" + agent);
                mine.add(next.get().id());
            }
            return mine;
        });

        for (int agent = 0; agent < agents; agent++) {
            List<Long> expected = createdByAgent.get("agent-" + agent).stream()
                    .sorted(Comparator.comparingInt(Task::priority)
                            .reversed()
                            .thenComparing(Task::createdAt)
                            .thenComparingLong(Task::id))
                    .map(Task::id)
                    .toList();
            assertThat(claimedByAgent.get(agent)).as("agent-" + agent).isEqualTo(expected);
        }
    }

    @Test
    void twoSimultaneousMovesOfOneTaskLetExactlyOneWinAndWriteOneComment() {
        for (int round = 0; round < 20; round++) {
            Task task = create("alice", 0, "contested " + round);
            List<String> outcomes = runConcurrently(2, mover -> () -> {
                String target = mover == 0 ? "bob" : "carol";
                try {
                    queue.move(task.id(), "alice", target, "to " + target);
                    return target;
                } catch (TaskNotAssignedException e) {
                    assertThat(e.currentAssignee()).contains(mover == 0 ? "carol" : "bob");
                    return "refused";
                }
            });

            assertThat(outcomes).as("round %d", round).containsOnlyOnce("refused");
            String winner = outcomes.get(0).equals("refused") ? outcomes.get(1) : outcomes.get(0);
            Task after = store.findTask(task.id()).orElseThrow();
            assertThat(after.assignee()).isEqualTo(winner);
            assertThat(after.previousAssignee()).isEqualTo("alice");
            assertThat(after.comments())
                    .extracting(c -> c.author() + ": " + c.text())
                    .containsExactly("alice: to " + winner);
        }
    }

    @Test
    void aSignupRacingAMoveNeverLosesTheTaskOrItsComment() {
        for (int round = 0; round < 20; round++) {
            Task task = create("alice", 0, "raced " + round);
            List<Optional<Task>> outcomes = runConcurrently(
                    2,
                    racer -> () -> racer == 0
                            ? queue.claimNext("alice")
                            : Optional.of(queue.move(task.id(), "alice", "bob", "bob takes it")));

            Optional<Task> signedUp = outcomes.get(0);
            signedUp.ifPresent(claimed -> assertThat(claimed.id()).isEqualTo(task.id()));
            Task after = store.findTask(task.id()).orElseThrow();
            assertThat(after.assignee()).isEqualTo("bob");
            assertThat(after.previousAssignee()).isEqualTo("alice");
            assertThat(after.status()).isEqualTo(TaskStatus.PENDING);
            assertThat(after.comments()).extracting(c -> c.text()).containsExactly("bob takes it");
            assertThat(queue.claimNext("bob")).map(Task::id).contains(task.id());
        }
    }

    // ---------------------------------------------------------------- leases

    @Test
    void aClaimCarriesItsAttemptAndTheQueuesLease() {
        Task task = create("alice", 0, "Fix the login redirect");
        events.clear();

        Task claimed = queue.claimNext("alice").orElseThrow();

        assertThat(claimed.attempt()).isEqualTo(1);
        assertThat(claimed.isLeased()).isTrue();
        assertThat(events).containsExactly(new TaskEvent.Claimed(claimed, "alice"));
        assertThat(queue.leaseDuration()).isEqualTo(TaskQueue.DEFAULT_LEASE);
        assertThat(store.findTask(task.id())).contains(claimed);
    }

    @Test
    void completeEndsTheClaimWithItsOutcomeAndTheAgentsComment() {
        Task task = create("alice", 0, "Fix the login redirect");
        Task claimed = queue.claimNext("alice").orElseThrow();
        events.clear();

        Task done = queue.complete(task.id(), "alice", claimed.attempt(), TaskStatus.SUCCESS, "Fixed in #42.");

        assertThat(done.status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(done.leaseExpiresAt()).isNull();
        assertThat(done.comments())
                .extracting(c -> c.author() + ": " + c.text())
                .containsExactly("alice: Fixed in #42.");
        assertThat(events).containsExactly(new TaskEvent.Completed(done, "alice", TaskStatus.SUCCESS, "Fixed in #42."));
        assertThat(store.findTask(task.id())).contains(done);
    }

    @Test
    void releaseGivesTheTaskBackToTheAgentsQueue() {
        Task task = create("alice", 0, "Fix the login redirect");
        queue.claimNext("alice").orElseThrow();
        events.clear();

        Task released = queue.release(task.id(), "alice", 1, null);

        assertThat(released.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(released.comments()).isEmpty();
        assertThat(events).containsExactly(new TaskEvent.Released(released, "alice", null));
        assertThat(queue.claimNext("alice")).map(Task::attempt).contains(2);
    }

    @Test
    void aWorkerWhoseClaimWasReclaimedCannotCompleteAndTheNewerClaimStands() {
        TaskQueue shortLeases = TaskQueue.builder(store)
                .leaseDuration(Duration.ofMillis(200))
                .backoff(Backoff.none())
                .listener(events::add)
                .build();
        Task task = create("alice", 0, "Fix the login redirect");
        Task first = shortLeases.claimNext("alice").orElseThrow();
        List<ReclaimedTask> reclaimed = reclaimWhenExpired(shortLeases, 1);
        Task second = shortLeases.claimNext("alice").orElseThrow();

        assertThatThrownBy(() -> shortLeases.complete(task.id(), "alice", first.attempt(), TaskStatus.SUCCESS, null))
                .isInstanceOf(ClaimLostException.class)
                .hasMessage(
                        "Task " + task.id() + " is no longer claimed by alice in attempt 1: it is running under alice"
                                + " in attempt 2. Stop working on it; do not complete it.");
        assertThat(reclaimed).singleElement().satisfies(result -> {
            assertThat(result.outcome()).isEqualTo(ReclaimedTask.Outcome.REQUEUED);
            assertThat(events).contains(new TaskEvent.LeaseExpired(result.task(), 1));
        });
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(store.findTask(task.id()).orElseThrow().status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(shortLeases
                        .complete(task.id(), "alice", 2, TaskStatus.SUCCESS, null)
                        .status())
                .isEqualTo(TaskStatus.SUCCESS);
    }

    @Test
    void aTaskTakenBackFromAnExpiredLeaseWaitsForTheBackoff() {
        TaskQueue backingOff = TaskQueue.builder(store)
                .leaseDuration(Duration.ofMillis(200))
                .backoff(Backoff.fixed(Duration.ofHours(1)))
                .listener(events::add)
                .build();
        Task task = create("alice", 0, "Fix the login redirect");
        Task first = backingOff.claimNext("alice").orElseThrow();

        ReclaimedTask reclaimed = reclaimWhenExpired(backingOff, 1).get(0);

        assertThat(reclaimed.outcome()).isEqualTo(ReclaimedTask.Outcome.REQUEUED);
        assertThat(reclaimed.task().status()).isEqualTo(TaskStatus.PENDING);
        assertThat(reclaimed.task().notBefore())
                .as("an hour after the lease ran out, on the store's clock")
                .isAfter(first.leaseExpiresAt().plus(Duration.ofMinutes(59)));
        assertThat(store.findTask(task.id())).contains(reclaimed.task());
        assertThat(events).contains(new TaskEvent.LeaseExpired(reclaimed.task(), 1));
        assertThat(backingOff.claimNext("alice")).as("during the backoff").isEmpty();
        assertThat(backingOff.untilNextScheduled("alice"))
                .hasValueSatisfying(wait -> assertThat(wait).isBetween(Duration.ofMinutes(58), Duration.ofHours(1)));

        backingOff.delay(task.id(), Duration.ZERO);
        assertThat(backingOff.claimNext("alice")).map(Task::attempt).contains(2);
    }

    @Test
    void retryWaitsForTheBackoffUntilTheLastAttemptThenFailsTheTask() {
        TaskQueue backingOff = TaskQueue.builder(store)
                .maxAttempts(2)
                .backoff(Backoff.fixed(Duration.ofMinutes(10)))
                .listener(events::add)
                .build();
        Task task = backingOff.create(
                backingOff.newTask("Call the supplier").assignee("alice").build());
        Task first = backingOff.claimNext("alice").orElseThrow();

        Task retried = backingOff.retry(task.id(), "alice", first.attempt(), "The line was busy.");

        assertThat(retried.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(retried.attempt()).isEqualTo(1);
        assertThat(retried.leaseExpiresAt()).isNull();
        assertThat(retried.notBefore())
                .as("ten minutes from the retry, on the store's clock")
                .isBetween(
                        first.leaseExpiresAt().minus(TaskQueue.DEFAULT_LEASE).plus(Duration.ofMinutes(9)),
                        first.leaseExpiresAt().minus(TaskQueue.DEFAULT_LEASE).plus(Duration.ofMinutes(11)));
        assertThat(retried.comments())
                .extracting(Comment::author, Comment::text)
                .containsExactly(
                        tuple("alice", "The line was busy. The task goes back to the queue and waits 10 min."));
        assertThat(events)
                .contains(new TaskEvent.Released(
                        retried, "alice", retried.comments().get(0).text()));
        assertThat(backingOff.claimNext("alice")).isEmpty();

        backingOff.delay(task.id(), Duration.ZERO);
        Task second = backingOff.claimNext("alice").orElseThrow();
        Task failed = backingOff.retry(task.id(), "alice", second.attempt(), "Busy again.");

        assertThat(failed.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(failed.comments())
                .last()
                .extracting(Comment::text)
                .isEqualTo("Busy again. That was the last of 2 attempts.");
        assertThat(events)
                .contains(new TaskEvent.Completed(
                        failed, "alice", TaskStatus.FAILED, "Busy again. That was the last of 2 attempts."));
    }

    @Test
    void retryAfterAnExplicitWaitOverridesTheBackoff() {
        TaskQueue backingOff = TaskQueue.builder(store)
                .backoff(Backoff.fixed(Duration.ofHours(1)))
                .build();
        Task task = create("alice", 0, "Fetch the rates");
        Task claimed = backingOff.claimNext("alice").orElseThrow();

        Task retried = backingOff.retry(task.id(), "alice", claimed.attempt(), "Rate limited.", Duration.ZERO);

        assertThat(retried.notBefore()).isNull();
        assertThat(retried.comments())
                .last()
                .extracting(Comment::text)
                .isEqualTo("Rate limited. The task goes back to the queue.");
        assertThat(backingOff.claimNext("alice")).map(Task::id).contains(task.id());
    }

    @Test
    void badRetriesAndDelaysAreRefusedAndWriteNothing() {
        Task task = create("alice", 0, "Fetch the rates");
        Task claimed = queue.claimNext("alice").orElseThrow();
        long id = task.id();

        assertThatThrownBy(() -> queue.retry(id, "alice", 1, "Rate limited.", Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retryAfter must be between 0 and 3660 days");
        assertThatThrownBy(() -> queue.retry(id, "alice", 1, "Rate limited.", Duration.ofDays(4000)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.retry(id, "alice", 1, " ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.retry(id, "bob", 1, "Not mine.")).isInstanceOf(ClaimLostException.class);
        assertThatThrownBy(() -> queue.retry(id, "alice", 1, "x".repeat(TaskQueue.MAX_RETRY_COMMENT + 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("comment is " + (TaskQueue.MAX_RETRY_COMMENT + 1) + " characters long; the limit is "
                        + TaskQueue.MAX_RETRY_COMMENT);
        assertThatThrownBy(() -> queue.delay(id, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay must be between 0 and 3660 days");
        assertThat(store.findTask(id)).contains(claimed);

        Task done = queue.complete(id, "alice", 1, TaskStatus.SUCCESS, null);
        assertThatThrownBy(() -> queue.delay(id, Duration.ofMinutes(5)))
                .isInstanceOf(TaskCompleteException.class)
                .hasMessage("Task " + id + " has ended (success) and cannot be delayed");
        assertThatThrownBy(() -> queue.delay(4242, Duration.ofMinutes(5))).isInstanceOf(TaskNotFoundException.class);
        assertThat(store.findTask(id)).contains(done);
        assertThatThrownBy(() -> Backoff.exponential(Duration.ZERO, Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofMinutes(2), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("max must be at least first (PT2M), was PT1M");
        assertThatThrownBy(() -> Backoff.fixed(Duration.ofSeconds(-5))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTaskWhoseLastAttemptExpiresFailsAsADeadLetter() {
        TaskQueue oneAttempt = TaskQueue.builder(store)
                .leaseDuration(Duration.ofMillis(200))
                .maxAttempts(1)
                .listener(events::add)
                .build();
        Task task =
                oneAttempt.create(oneAttempt.newTask("Fix it").assignee("alice").build());
        oneAttempt.claimNext("alice").orElseThrow();

        List<ReclaimedTask> reclaimed = reclaimWhenExpired(oneAttempt, 1);

        assertThat(task.maxAttempts()).isEqualTo(1);
        assertThat(reclaimed).singleElement().satisfies(result -> {
            assertThat(result.outcome()).isEqualTo(ReclaimedTask.Outcome.DEAD_LETTERED);
            assertThat(result.task().status()).isEqualTo(TaskStatus.FAILED);
            assertThat(result.task().comments()).last().satisfies(comment -> assertThat(comment.text())
                    .endsWith("no attempts are left, so the task failed (dead letter)."));
        });
        assertThat(oneAttempt.claimNext("alice")).isEmpty();
    }

    @Test
    void commentsAndLinksByTheClaimingAgentRenewTheLeaseAndOthersDoNot() {
        TaskQueue shortLeases =
                TaskQueue.builder(store).leaseDuration(Duration.ofMinutes(1)).build();
        Task task = create("alice", 0, "Fix the login redirect");
        Task claimed = shortLeases.claimNext("alice").orElseThrow();
        clock.advance(Duration.ofSeconds(30));

        Task afterOthersComment = shortLeases.comment(task.id(), "carol", "any news?");
        Task afterOwnComment = shortLeases.comment(task.id(), "alice", "halfway there");
        Task afterOwnLink = shortLeases.link(task.id(), "https://example.com/pr/1", "draft", "alice");

        assertThat(afterOthersComment.leaseExpiresAt()).isEqualTo(claimed.leaseExpiresAt());
        assertThat(afterOwnComment.leaseExpiresAt()).isAfterOrEqualTo(claimed.leaseExpiresAt());
        assertThat(afterOwnLink.leaseExpiresAt()).isAfterOrEqualTo(afterOwnComment.leaseExpiresAt());
        assertThat(afterOwnLink.attempt()).isEqualTo(1);
        assertThat(store.findTask(task.id())).contains(afterOwnLink);
    }

    @Test
    void heartbeatRenewsTheLeaseAndPublishesNothing() {
        Task task = create("alice", 0, "Fix the login redirect");
        Task claimed = queue.claimNext("alice").orElseThrow();
        events.clear();
        clock.advance(Duration.ofMinutes(5));

        Task renewed = queue.heartbeat(task.id(), "alice", 1);

        assertThat(renewed.leaseExpiresAt()).isAfterOrEqualTo(claimed.leaseExpiresAt());
        assertThat(renewed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(events).isEmpty();
        assertThatThrownBy(() -> queue.heartbeat(task.id(), "bob", 1)).isInstanceOf(ClaimLostException.class);
    }

    @Test
    void cancelEndsARunningTaskAndTheHoldersNextWriteIsToldItWasCancelled() {
        Task task = create("alice", 0, "Migrate the billing tables");
        Task claimed = queue.claimNext("alice").orElseThrow();
        events.clear();

        Task cancelled = queue.cancel(task.id(), "carol", "the migration moved to next quarter");

        assertThat(cancelled.status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(cancelled.leaseExpiresAt()).isNull();
        assertThat(cancelled.attempt()).isEqualTo(claimed.attempt());
        assertThat(cancelled.comments())
                .extracting(Comment::author, Comment::text)
                .containsExactly(tuple("carol", "Cancelled: the migration moved to next quarter"));
        assertThat(store.findTask(task.id())).contains(cancelled);
        assertThat(events)
                .extracting(event -> event.getClass().getSimpleName())
                .containsExactly("StatusChanged", "Commented");
        assertThat(((TaskEvent.StatusChanged) events.get(0)).from()).isEqualTo(TaskStatus.RUNNING);
        for (ThrowingCallable write : List.<ThrowingCallable>of(
                () -> queue.heartbeat(task.id(), "alice", 1),
                () -> queue.complete(task.id(), "alice", 1, TaskStatus.SUCCESS, "done anyway"),
                () -> queue.release(task.id(), "alice", 1, null))) {
            assertThat(catchThrowable(write))
                    .isInstanceOfSatisfying(ClaimLostException.class, lost -> assertThat(lost.cancelled())
                            .isTrue())
                    .hasMessageContaining("it was cancelled");
        }
        assertThat(store.findTask(task.id())).contains(cancelled);
        assertThat(queue.claimNext("alice")).isEmpty();
    }

    @Test
    void aCancelledPendingTaskIsNeverClaimedAndItsDependantsStayBlocked() {
        Task blocker = create("alice", 0, "Build the release");
        Task dependant;
        try {
            dependant = queue.create(queue.newTask("Deploy the release")
                    .assignee("bob")
                    .blockedBy(blocker.id())
                    .build());
        } catch (UnsupportedOperationException e) {
            dependant = null; // the store keeps no work graph
        }

        queue.cancel(blocker.id(), "carol", "the release was called off");

        assertThat(queue.claimNext("alice")).isEmpty();
        if (dependant != null) {
            assertThat(queue.get(dependant.id()).orElseThrow().openBlockers()).isEqualTo(1);
            assertThat(queue.claimNext("bob")).isEmpty();
        }
    }

    @Test
    void cancellingATaskThatEndedOrWithBadArgumentsIsRefusedAndWritesNothing() {
        Task done = create("alice", 1, "Done already");
        Task open = create("alice", 0, "Still open");
        Task claimed = queue.claimNext("alice").orElseThrow();
        queue.complete(claimed.id(), "alice", 1, TaskStatus.SUCCESS, null);
        Task doneBefore = store.findTask(done.id()).orElseThrow();
        queue.cancel(open.id(), "carol", "not needed");
        Task cancelledBefore = store.findTask(open.id()).orElseThrow();
        events.clear();

        assertThatThrownBy(() -> queue.cancel(done.id(), "carol", "too late"))
                .isInstanceOf(TaskCompleteException.class)
                .hasMessage("Task " + done.id() + " has ended (success) and cannot be cancelled");
        assertThatThrownBy(() -> queue.cancel(open.id(), "carol", "twice"))
                .isInstanceOf(TaskCompleteException.class)
                .hasMessageContaining("(cancelled)");
        assertThatThrownBy(() -> queue.cancel(Long.MAX_VALUE, "carol", "gone"))
                .isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> queue.cancel(done.id(), "carol", " ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.cancel(done.id(), " ", "why")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.cancel(done.id(), "carol", "x".repeat(TaskQueue.MAX_CANCEL_REASON + 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the limit is " + TaskQueue.MAX_CANCEL_REASON);
        assertThat(store.findTask(done.id())).contains(doneBefore);
        assertThat(store.findTask(open.id())).contains(cancelledBefore);
        assertThat(events).isEmpty();
    }

    @Test
    void heartbeatAllRenewsTheClaimsStillHeldInOneCallAndNamesTheLostOnes() {
        Task first = create("alice", 2, "Fix the login redirect");
        Task second = create("alice", 1, "Fix the logout redirect");
        Task third = create("alice", 0, "Fix the signup redirect");
        List<Task> claimed = queue.claimUpTo("alice", 3);
        queue.release(third.id(), "alice", 1, null);
        Task thirdBefore = store.findTask(third.id()).orElseThrow();
        events.clear();
        clock.advance(Duration.ofMinutes(5));
        Map<Long, Integer> attempts = new LinkedHashMap<>();
        attempts.put(third.id(), 1);
        attempts.put(first.id(), 1);
        attempts.put(Long.MAX_VALUE, 1);
        attempts.put(second.id(), 1);

        List<Long> lost = queue.heartbeatAll("alice", attempts);

        assertThat(lost).containsExactly(third.id(), Long.MAX_VALUE);
        for (Task before : claimed.subList(0, 2)) {
            Task after = store.findTask(before.id()).orElseThrow();
            assertThat(after.leaseExpiresAt()).isAfter(before.leaseExpiresAt());
            assertThat(after.status()).isEqualTo(TaskStatus.RUNNING);
        }
        assertThat(store.findTask(third.id())).contains(thirdBefore);
        assertThat(events).isEmpty();
        assertThat(queue.heartbeatAll("alice", Map.of())).isEmpty();
    }

    @Test
    void heartbeatAllWithABadArgumentWritesNothing() {
        Task task = create("alice", 0, "Fix the login redirect");
        Task claimed = queue.claimNext("alice").orElseThrow();
        Map<Long, Integer> tooMany = new LinkedHashMap<>();
        for (long id = 1; tooMany.size() <= Leases.MAX_CLAIM_BATCH; id++) {
            tooMany.put(id, 1);
        }

        assertThatThrownBy(() -> queue.heartbeatAll("alice", Map.of(task.id(), 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("attempt");
        assertThatThrownBy(() -> queue.heartbeatAll(" ", Map.of(task.id(), 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.heartbeatAll("alice", tooMany))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + Leases.MAX_CLAIM_BATCH);
        assertThat(store.findTask(task.id())).contains(claimed);
    }

    @Test
    void aMoveNamingALostClaimIsRefusedAndOneWithoutAnAttemptIsNot() {
        Task task = create("alice", 0, "Fix the login redirect");
        queue.claimNext("alice").orElseThrow();
        Task before = store.findTask(task.id()).orElseThrow();

        assertThatThrownBy(() -> queue.move(task.id(), "alice", 2, "bob", "yours"))
                .isInstanceOf(ClaimLostException.class);
        assertThat(store.findTask(task.id())).contains(before);

        Task moved = queue.move(task.id(), "alice", 1, "bob", "yours");
        assertThat(moved.assignee()).isEqualTo("bob");
        assertThat(moved.leaseExpiresAt()).isNull();
        assertThat(moved.status()).isEqualTo(TaskStatus.PENDING);
    }

    @Test
    void theLeaseToolsCompleteAndRenewAClaimAndRefuseALostOne() {
        Task task = create("alice", 0, "Fix the login redirect");
        Task claimed = queue.claimNext("alice").orElseThrow();

        ToolResult heartbeat =
                call("heartbeat_task", "{\"task_id\":" + task.id() + ",\"agent_name\":\"alice\",\"attempt\":1}");
        ToolResult lost = call(
                "complete_task",
                "{\"task_id\":" + task.id() + ",\"agent_name\":\"alice\",\"attempt\":2,\"status\":\"success\"}");
        ToolResult completed = call(
                "complete_task",
                "{\"task_id\":" + task.id()
                        + ",\"agent_name\":\"alice\",\"attempt\":1,\"status\":\"failed\",\"comment\":\"The API is down.\"}");

        assertThat(heartbeat.isError()).isFalse();
        assertThat(heartbeat.text()).startsWith("Task #" + task.id() + " lease until ");
        assertThat(lost)
                .isEqualTo(ToolResult.error("Task " + task.id() + " is no longer claimed by alice in attempt 2: it is"
                        + " running under alice in attempt 1. Stop working on it; do not complete it."));
        assertThat(completed).isEqualTo(ToolResult.ok("Task #" + task.id() + " completed: failed"));
        Task after = store.findTask(task.id()).orElseThrow();
        assertThat(after.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(after.comments()).extracting(c -> c.text()).containsExactly("The API is down.");
        assertThat(claimed.attempt()).isEqualTo(1);
    }

    @Test
    void badInputToTheLeaseToolsIsASoftErrorAndWritesNothing() {
        Task task = create("alice", 0, "Fix the login redirect");
        queue.claimNext("alice").orElseThrow();
        Task before = store.findTask(task.id()).orElseThrow();
        String id = "\"task_id\":" + task.id();

        assertThat(call("complete_task", "{" + id + ",\"agent_name\":\"alice\",\"attempt\":0,\"status\":\"success\"}"))
                .isEqualTo(ToolResult.error(
                        "Argument 'attempt' must be the attempt signup_for_task gave you (1 or more), not 0."));
        assertThat(call("complete_task", "{" + id + ",\"agent_name\":\"alice\",\"attempt\":1,\"status\":\"running\"}"))
                .isEqualTo(ToolResult.error("Argument 'status' is 'running'; use one of success, failed."));
        assertThat(call("complete_task", "{" + id + ",\"agent_name\":\"alice\",\"status\":\"success\"}"))
                .isEqualTo(ToolResult.error("Missing required argument 'attempt' (an integer)."));
        assertThat(call("heartbeat_task", "{\"task_id\":999999999,\"agent_name\":\"alice\",\"attempt\":1}"))
                .isEqualTo(ToolResult.error("Task 999999999 not found"));
        assertThat(call(
                                "move_task",
                                "{" + id + ",\"current_agent\":\"alice\",\"new_agent\":\"bob\","
                                        + "\"comment\":\"x\",\"attempt\":\"first\"}")
                        .isError())
                .isTrue();

        assertThat(store.findTask(task.id())).contains(before);
    }

    @Test
    void badJavaArgumentsOfTheLeaseOperationsAreRefusedBeforeAnyWrite() {
        Task task = create("alice", 0, "Fix the login redirect");
        queue.claimNext("alice").orElseThrow();
        Task before = store.findTask(task.id()).orElseThrow();

        assertThatThrownBy(() -> queue.claimNext("alice", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("lease must be between 1 ms and 1 day (renew a longer one with heartbeats), was PT0S");
        assertThatThrownBy(() -> queue.claimNext("alice", Duration.ofDays(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.claimNext("alice", Duration.ofDays(365 * 2)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.heartbeat(task.id(), "alice", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("attempt must be at least 1 (the claim's attempt), was 0");
        assertThatThrownBy(() -> queue.complete(task.id(), "alice", 1, TaskStatus.RUNNING, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("outcome must be success or failed, was running");
        assertThatThrownBy(() -> queue.complete(task.id(), "alice", 1, TaskStatus.SUCCESS, " "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("comment must not be blank");
        assertThatThrownBy(() -> queue.release(-1, "alice", 1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TaskQueue.builder(store).leaseDuration(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TaskQueue.builder(store).maxAttempts(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxAttempts must be between 1 and 1000, was 0");
        assertThatThrownBy(() -> queue.complete(999_999_999L, "alice", 1, TaskStatus.SUCCESS, null))
                .isInstanceOf(TaskNotFoundException.class);
        assertThat(store.findTask(task.id())).contains(before);
    }

    @Test
    void aLeaseReaperTakesBackExpiredClaimsUntilItIsClosed() {
        TaskQueue shortLeases = TaskQueue.builder(store)
                .leaseDuration(Duration.ofMillis(100))
                .listener(events::add)
                .build();
        Task task = create("alice", 0, "Fix the login redirect");
        shortLeases.claimNext("alice").orElseThrow();
        clock.advance(Duration.ofSeconds(5));

        LeaseReaper reaper = LeaseReaper.builder(shortLeases)
                .reclaimInterval(Duration.ofMillis(20))
                .start();
        try {
            awaitUntil(() -> store.findTask(task.id()).orElseThrow().status() == TaskStatus.PENDING);
        } finally {
            reaper.close();
        }

        assertThatThrownBy(reaper::reclaimNow).isInstanceOf(IllegalStateException.class);
        reaper.close(); // idempotent

        assertThat(events).anySatisfy(event -> assertThat(event).isInstanceOf(TaskEvent.LeaseExpired.class));
        assertThatThrownBy(() -> LeaseReaper.builder(shortLeases).reclaimInterval(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("reclaimInterval must be between 10ms and 1d, was PT0S");
    }

    /** Lets the queue's short leases run out (on the suite's clock and in real time) and reclaims them. */
    private List<ReclaimedTask> reclaimWhenExpired(TaskQueue shortLeases, int expected) {
        clock.advance(shortLeases.leaseDuration().plusSeconds(1));
        List<ReclaimedTask> reclaimed = new ArrayList<>();
        awaitUntil(() -> {
            reclaimed.addAll(shortLeases.reclaimExpired());
            return reclaimed.size() >= expected;
        });
        return reclaimed;
    }

    /** Waits, with the suite's deadline, for a condition a reaper or a database's clock will make true. */
    private static void awaitUntil(java.util.function.BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the condition did not hold within " + DEADLINE);
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }

    // ----------------------------------------------------------------- tools

    @Test
    void theToolboxOffersTheFourteenQueueToolsAndTheWorkerToolboxFive() {
        assertThat(tools.names())
                .containsExactly(
                        "signup_for_task",
                        "complete_task",
                        "heartbeat_task",
                        "move_task",
                        "create_task",
                        "get_task",
                        "update_task",
                        "get_my_queue",
                        "add_comment",
                        "add_link",
                        "archive_task",
                        "cancel_task",
                        "search_tasks",
                        "list_dead_letters");
        assertThat(queue.workerTools().names())
                .containsExactly("signup_for_task", "complete_task", "move_task", "add_comment", "get_task");
        assertThat(tools.definitions())
                .allSatisfy(definition -> assertThat(definition.description()).isNotBlank());
    }

    @Test
    void createTaskToolCreatesAnIdleTaskInTheAgentsQueue() {
        ToolResult result = call(
                "create_task",
                "{\"description\":\"Rotate the API keys\",\"priority\":7,\"assignee\":\"alice\",\"created_by\":\"carol\"}");

        long id = idIn(result.text(), "^Task #(\\d+) created$");
        assertThat(result.isError()).isFalse();
        Task task = store.findTask(id).orElseThrow();
        assertThat(task.sessionId()).isEqualTo(TaskQueue.DEFAULT_SESSION_ID);
        assertThat(task.description()).isEqualTo("Rotate the API keys");
        assertThat(task.priority()).isEqualTo(7);
        assertThat(task.assignee()).isEqualTo("alice");
        assertThat(task.createdBy()).isEqualTo("carol");
        assertThat(task.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(events).containsExactly(new TaskEvent.Created(task));
    }

    @Test
    void createTaskToolSchedulesATaskThatNoClaimHandsOutBeforeItsTime() {
        Instant ahead =
                latest(clock.instant(), Instant.now()).plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
        ToolResult result = call(
                "create_task",
                "{\"description\":\"Open the shop\",\"assignee\":\"alice\",\"not_before\":\"" + ahead + "\"}");

        long id = idIn(result.text(), "^Task #(\\d+) created$");
        assertThat(store.findTask(id).orElseThrow().notBefore()).isEqualTo(ahead);
        assertThat(call("signup_for_task", "{\"agent_name\":\"alice\"}").text()).startsWith("No ");
        assertThat(call("get_task", "{\"task_id\":" + id + "}").text()).contains("\"not_before\":\"" + ahead + "\"");
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\"}").text())
                .contains("#" + id + " pending p0 not before " + ahead + ": Open the shop");

        String offset = ahead.atOffset(java.time.ZoneOffset.ofHours(2)).toString();
        long other = idIn(
                call("create_task", "{\"description\":\"x\",\"not_before\":\"" + offset + "\"}")
                        .text(),
                "^Task #(\\d+) created$");
        assertThat(store.findTask(other).orElseThrow().notBefore())
                .as("the offset is honoured")
                .isEqualTo(ahead);
    }

    @Test
    void aCreateRetriedWithItsIdempotencyKeyReturnsTheFirstTaskAndPublishesNothing() {
        TaskQueue.Creation first = queue.createOnce(queue.newTask("Refund order 4711")
                .assignee("alice")
                .idempotencyKey("refund-4711")
                .build());
        queue.comment(first.task().id(), "alice", "Started.");
        events.clear();

        TaskQueue.Creation again = queue.createOnce(queue.newTask("Refund order 4711 (retry)")
                .assignee("alice")
                .idempotencyKey("refund-4711")
                .build());
        Task viaCreate = queue.create(
                queue.newTask("third try").idempotencyKey("refund-4711").build());

        assertThat(first.created()).isTrue();
        assertThat(again.created()).isFalse();
        assertThat(again.task()).isEqualTo(store.findTask(first.task().id()).orElseThrow());
        assertThat(again.task().comments()).hasSize(1);
        assertThat(viaCreate).isEqualTo(again.task());
        assertThat(store.listTasks(TaskQueue.DEFAULT_SESSION_ID)).hasSize(1);
        assertThat(events).isEmpty();
    }

    @Test
    void createTaskToolWithAnIdempotencyKeySaysWhenTheTaskExists() {
        String arguments = "{\"description\":\"Refund order 4711\",\"idempotency_key\":\"refund-4711\"}";
        ToolResult first = call("create_task", arguments);
        long id = idIn(first.text(), "^Task #(\\d+) created$");

        ToolResult retried = call("create_task", arguments);

        assertThat(retried)
                .isEqualTo(ToolResult.ok("Task #" + id
                        + " already exists with this idempotency_key (status pending); nothing was created"));
        assertThat(store.listTasks(TaskQueue.DEFAULT_SESSION_ID)).hasSize(1);
        assertThat(call("create_task", "{\"description\":\"x\",\"idempotency_key\":\"a\\u0007b\"}")
                        .isError())
                .isTrue();
        assertThat(store.listTasks(TaskQueue.DEFAULT_SESSION_ID)).hasSize(1);
    }

    @Test
    void aCommentOrLinkRetriedWithItsRequestIdIsWrittenAndPublishedOnce() {
        Task task = create("alice", 0, "Refund order 4711");
        events.clear();

        AppendResult commented = queue.comment(task.id(), "carol", "Refund sent.", "refund-4711-comment");
        AppendResult commentRetried = queue.comment(task.id(), "carol", "Refund sent (retry).", "refund-4711-comment");
        AppendResult linked =
                queue.link(task.id(), "https://example.com/receipt", "receipt", "carol", "refund-4711-link");
        AppendResult linkRetried =
                queue.link(task.id(), "https://example.com/receipt", "receipt", "carol", "refund-4711-link");
        AppendResult withoutId = queue.comment(task.id(), "carol", "Refund sent.", null);

        assertThat(commented.replayed()).isFalse();
        assertThat(commentRetried.replayed()).isTrue();
        assertThat(commentRetried.task()).isEqualTo(commented.task());
        assertThat(linked.replayed()).isFalse();
        assertThat(linkRetried.replayed()).isTrue();
        assertThat(linkRetried.task()).isEqualTo(linked.task());
        assertThat(withoutId.replayed()).isFalse();
        Task stored = store.findTask(task.id()).orElseThrow();
        assertThat(stored).isEqualTo(withoutId.task());
        assertThat(stored.comments()).extracting(Comment::text).containsExactly("Refund sent.", "Refund sent.");
        assertThat(stored.links()).hasSize(1);
        assertThat(events)
                .extracting(event -> event.getClass().getSimpleName())
                .containsExactly("Commented", "Updated", "Commented");
        assertThat(queue.comment(task.id(), "carol", "Refund sent.", "refund-4711-comment")
                        .replayed())
                .as("a comment with the link's request id")
                .isTrue();
        assertThat(queue.link(task.id(), "https://example.com/2", "", "carol", "refund-4711-comment")
                        .replayed())
                .as("a link with the comment's request id")
                .isTrue();
    }

    @Test
    void addCommentAndAddLinkToolsWithARequestIdWriteOnceAndSayWhenARetryWroteNothing() {
        Task task = create("alice", 0, "Refund order 4711");
        String comment = "{\"task_id\":" + task.id()
                + ",\"author\":\"carol\",\"comment\":\"Refund sent.\",\"request_id\":\"req-7\"}";
        String link = "{\"task_id\":" + task.id()
                + ",\"url\":\"https://example.com/receipt\",\"author\":\"carol\",\"request_id\":\"req-8\"}";

        assertThat(call("add_comment", comment)).isEqualTo(ToolResult.ok("Comment added to task #" + task.id()));
        assertThat(call("add_comment", comment))
                .isEqualTo(ToolResult.ok("Nothing written: request_id 'req-7' was already used on task #" + task.id()
                        + " (a retry of a call that wrote); send a new request_id for a new entry."));
        assertThat(call("add_link", link)).isEqualTo(ToolResult.ok("Link added to task #" + task.id()));
        assertThat(call("add_link", link).text()).startsWith("Nothing written: request_id 'req-8'");

        Task stored = store.findTask(task.id()).orElseThrow();
        assertThat(stored.comments()).extracting(Comment::text).containsExactly("Refund sent.");
        assertThat(stored.links()).hasSize(1);
        assertThat(call("add_comment", comment.replace("\"req-7\"", "\"REQ-7\"")))
                .as("request ids compare exactly")
                .isEqualTo(ToolResult.ok("Comment added to task #" + task.id()));
    }

    @Test
    void appendToolsRefuseABadRequestIdAndWriteNothing() {
        Task task = create("alice", 0, "Refund order 4711");
        String comment =
                "{\"task_id\":" + task.id() + ",\"author\":\"carol\",\"comment\":\"Refund sent.\"," + "\"request_id\":";
        String link = "{\"task_id\":" + task.id() + ",\"url\":\"https://example.com\",\"author\":\"carol\","
                + "\"request_id\":";
        for (String bad : List.of("\"\"", "\"  \"", "7", "true", "[\"r\"]", quote("r".repeat(256)), quote("r\n1"))) {
            for (String arguments : List.of(comment + bad + "}", link + bad + "}")) {
                ToolResult result = call(arguments.contains("\"url\"") ? "add_link" : "add_comment", arguments);
                assertThat(result.isError()).as(arguments).isTrue();
                assertThat(result.text()).as(arguments).startsWith("Argument 'request_id' ");
            }
        }
        assertThat(store.findTask(task.id())).contains(task);
        assertThatThrownBy(() -> queue.comment(task.id(), "carol", "Refund sent.", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("requestId must not be blank");
        assertThatThrownBy(() -> queue.comment(task.id() + 1_000_000, "carol", "Refund sent.", "req-9"))
                .isInstanceOf(TaskNotFoundException.class);
        assertThat(store.findTask(task.id())).contains(task);
    }

    @Test
    void createTaskToolRefusesATimeItCannotReadOrTooFarAheadAndWritesNothing() {
        List<Task> before = store.listTasks(TaskQueue.DEFAULT_SESSION_ID);

        assertThat(call("create_task", "{\"description\":\"x\",\"not_before\":\"tomorrow at nine\"}"))
                .isEqualTo(ToolResult.error("Argument 'not_before' must be a time with its offset, like"
                        + " 2026-12-01T09:00:00Z or 2026-12-01T10:00:00+01:00; was 'tomorrow at nine'."));
        assertThat(call("create_task", "{\"description\":\"x\",\"not_before\":\"2026-12-01T09:00:00\"}")
                        .isError())
                .as("a time without its offset is ambiguous")
                .isTrue();
        assertThat(call("create_task", "{\"description\":\"x\",\"not_before\":\"9999-01-01T00:00:00Z\"}"))
                .isEqualTo(ToolResult.error("Argument 'not_before' is more than 3660 days ahead; give a nearer time."));
        assertThat(call("create_task", "{\"description\":\"x\",\"not_before\":7}")
                        .isError())
                .isTrue();
        assertThat(store.listTasks(TaskQueue.DEFAULT_SESSION_ID)).isEqualTo(before);
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    @Test
    void getTaskToolShowsTheTaskWithCommentsAndLinksLeavingOutEmptyFields() {
        Task task = queue.create(queue.newTask("Fix \"quotes\" and ünïcode 🚀")
                .priority(2)
                .assignee("alice")
                .createdBy("carol")
                .build());
        queue.comment(task.id(), "carol", "First.");
        queue.comment(task.id(), "alice", "Second,\nwith a new line.");
        queue.link(task.id(), "https://example.com/a", "design doc", "carol");

        String json = "{\"id\":" + task.id()
                + ",\"status\":\"pending\",\"priority\":2,\"assignee\":\"alice\",\"created_by\":\"carol\","
                + "\"description\":\"Fix \\\"quotes\\\" and ünïcode 🚀\","
                + "\"comments\":[\"carol: First.\",\"alice: Second,\\nwith a new line.\"],"
                + "\"links\":[\"[design doc](https://example.com/a) by carol\"]}";
        // The text for the model, and the same task as structured content, built from the Task.
        assertThat(call("get_task", "{\"task_id\":" + task.id() + "}"))
                .isEqualTo(ToolResult.ok(json, "{\"task\":" + json + "}"));
        assertThat(call("get_task", "{\"task_id\":999999}")).isEqualTo(ToolResult.error("Task 999999 not found"));
    }

    @Test
    void getTaskToolShowsTheNewestTenCommentsWithTheirCountAndPagesBackThroughTheRest() {
        Task task = create("alice", 0, "Reclaimed many times");
        for (int number = 1; number <= 25; number++) {
            queue.comment(task.id(), "reaper", "Comment " + number + " " + "x".repeat(100));
        }

        String newest = call("get_task", "{\"task_id\":" + task.id() + "}").text();
        assertThat(newest)
                .contains("\"reaper: Comment 16 ")
                .contains("\"reaper: Comment 25 ")
                .doesNotContain("\"reaper: Comment 15 ")
                .contains("\"comments_total\":25,\"comments_from\":16")
                .contains("\"truncated\":[\"comments\"]");

        String older = call("get_task", "{\"task_id\":" + task.id() + ",\"comments_before\":16}")
                .text();
        assertThat(older)
                .contains("\"reaper: Comment 6 ")
                .contains("\"reaper: Comment 15 ")
                .doesNotContain("\"reaper: Comment 16 ")
                .contains("\"comments_total\":25,\"comments_from\":6");

        // A page stays the same while new comments arrive.
        queue.comment(task.id(), "bob", "A newer one.");
        assertThat(call("get_task", "{\"task_id\":" + task.id() + ",\"comments_before\":16}")
                        .text())
                .isEqualTo(older.replace("\"comments_total\":25", "\"comments_total\":26"));

        String full = call("get_task", "{\"task_id\":" + task.id() + ",\"view\":\"full\"}")
                .text();
        assertThat(full).contains("\"reaper: Comment 1 ").doesNotContain("comments_total");
        assertThat(store.findTask(task.id()).orElseThrow().comments()).hasSize(26);
    }

    @Test
    void aTaskWithLongCommentsStaysWithinTheResultBudgetShowingItsNewest() {
        Task task = create("alice", 0, "Discussed at length");
        for (int number = 1; number <= 60; number++) {
            queue.comment(task.id(), "reviewer", "Comment " + number + " " + "y".repeat(2_000));
        }

        for (String arguments : List.of("", ",\"view\":\"full\"")) {
            String text = call("get_task", "{\"task_id\":" + task.id() + arguments + "}")
                    .text();
            assertThat(estimatedTokens(text))
                    .as("estimated tokens of get_task" + arguments)
                    .isLessThanOrEqualTo(Toolbox.DEFAULT_RESULT_BUDGET);
            assertThat(text).contains("\"reviewer: Comment 60 ").contains("\"comments_total\":60");
        }
        String claimed = call("signup_for_task", "{\"agent_name\":\"alice\"}").text();
        assertThat(estimatedTokens(claimed)).isLessThanOrEqualTo(Toolbox.DEFAULT_RESULT_BUDGET);
        assertThat(claimed).contains("\"reviewer: Comment 60 ").contains("\"comments_total\":60");
    }

    /** The tools' estimate of a text's tokens: its UTF-8 bytes / 3, rounded up. */
    private static int estimatedTokens(String text) {
        return (text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 2) / 3;
    }

    @Test
    void getTaskToolRefusesAWindowOrViewItDoesNotKnow() {
        Task task = create("alice", 0, "Paged");
        assertThat(call("get_task", "{\"task_id\":" + task.id() + ",\"comments_before\":1}"))
                .isEqualTo(ToolResult.error("comments_before must be 2 or more (the number of a comment, from 1,"
                        + " oldest first), was 1"));
        ToolResult view = call("get_task", "{\"task_id\":" + task.id() + ",\"view\":\"everything\"}");
        assertThat(view.isError()).isTrue();
        assertThat(view.text()).contains("view").contains("compact").contains("full");
    }

    @Test
    void updateTaskToolChangesOnlyWhatItIsSentAndRecordsThePreviousAssignee() {
        Task task = create("alice", 1, "Old words");

        ToolResult result = call(
                "update_task",
                "{\"task_id\":" + task.id()
                        + ",\"status\":\"running\",\"assignee\":\"bob\",\"priority\":4,\"description\":\"New words\"}");

        assertThat(result).isEqualTo(ToolResult.ok("Task #" + task.id() + " updated"));
        Task after = store.findTask(task.id()).orElseThrow();
        assertThat(after.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(after.assignee()).isEqualTo("bob");
        assertThat(after.previousAssignee()).isEqualTo("alice");
        assertThat(after.priority()).isEqualTo(4);
        assertThat(after.description()).isEqualTo("New words");
        assertThat(after.comments()).isEmpty();
        assertThat(call("update_task", "{\"task_id\":999999,\"priority\":1}"))
                .isEqualTo(ToolResult.error("Task 999999 not found"));
    }

    @Test
    void anUpdateThatChangesNothingWritesNothingAndTellsNoListener() {
        Task task = create("alice", 1, "Same words");
        events.clear();

        Task unchanged = queue.update(TaskUpdate.of(task.id())
                .priority(1)
                .assignee("alice")
                .description("Same words")
                .build());

        assertThat(unchanged).isEqualTo(task);
        assertThat(store.findTask(task.id()).orElseThrow().version()).isEqualTo(task.version());
        assertThat(events).isEmpty();
        assertThatThrownBy(() -> queue.update(TaskUpdate.of(task.id())
                        .expectVersion(task.version() + 5)
                        .priority(1)
                        .build()))
                .as("a stale expected version is still refused, even for a no-op")
                .isInstanceOf(StaleTaskException.class);
    }

    @Test
    void getMyQueueToolListsTheAgentsTasksInClaimOrder() {
        Task low = create("alice", 1, "Low priority");
        Task high = create("alice", 5, "High priority,\nsecond line");
        Task running = create("alice", 3, "Being worked on");
        queue.update(TaskUpdate.of(running.id()).status(TaskStatus.RUNNING).build());
        Task archived = create("alice", 9, "Archived");
        queue.archive(archived.id());
        create("bob", 9, "Bob's");
        Task longOne = create("alice", 0, "x".repeat(500));

        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\"}"))
                .isEqualTo(ToolResult.ok("Tasks of alice:\n"
                        + "#" + high.id() + " pending p5: High priority, second line\n"
                        + "#" + running.id() + " running p3: Being worked on\n"
                        + "#" + low.id() + " pending p1: Low priority\n"
                        + "#" + longOne.id() + " pending p0: " + "x".repeat(119) + "…"));
        assertThat(call("get_my_queue", "{\"agent_name\":\"dave\"}")).isEqualTo(ToolResult.ok("No tasks for dave"));
    }

    @Test
    void getMyQueueToolPagesWithCursorsThatNoNewTaskShifts() {
        List<Long> before = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            before.add(create("alice", i % 3, "Task " + i).id());
        }
        List<Long> inClaimOrder =
                queue.listQueue("alice").stream().map(Task::id).toList();
        List<Long> seen = new ArrayList<>();
        ToolResult page = call("get_my_queue", "{\"agent_name\":\"alice\",\"limit\":3}");
        assertThat(page.text()).startsWith("Tasks of alice:\n").contains("\n4 more: call get_my_queue again");
        int created = 0;
        while (true) {
            assertThat(page.isError()).as(page.text()).isFalse();
            seen.addAll(listedIds(page.text()));
            Optional<String> cursor = nextCursor(page.text());
            if (cursor.isEmpty()) {
                break;
            }
            create("alice", 9, "Created between pages " + created++);
            create("alice", 0, "Created between pages " + created++);
            page = call(
                    "get_my_queue", "{\"agent_name\":\"alice\",\"limit\":3,\"cursor\":" + quote(cursor.get()) + "}");
        }

        assertThat(seen).containsExactlyElementsOf(inClaimOrder).containsExactlyInAnyOrderElementsOf(before);
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"limit\":100}")
                        .text())
                .doesNotContain("more: call get_my_queue");
        assertThat(queue.listQueue("alice")).hasSize(7 + created);
    }

    @Test
    void getMyQueueToolKeepsItsCursorWithinTheResultBudgetOnAQueueOfLongLines() {
        for (int i = 0; i < 100; i++) {
            StringBuilder description = new StringBuilder();
            for (int word = 0; word < 30; word++) {
                description.append("w").append(i).append('x').append(word).append(' ');
            }
            create("alice", 0, description.toString().strip());
        }

        ToolResult page = call("get_my_queue", "{\"agent_name\":\"alice\",\"limit\":100}");

        List<Long> first = listedIds(page.text());
        assertThat(first).hasSizeBetween(1, 99);
        assertThat(page.text()).contains("\n" + (100 - first.size()) + " more: call get_my_queue again");
        assertThat(nextCursor(page.text())).isPresent();
        assertThat(page.text()).doesNotContain("cut here");
    }

    @Test
    void getMyQueueToolRefusesBadLimitsAndCursorsWithMessagesAModelCanActOn() {
        for (int i = 0; i < 3; i++) {
            create("alice", 0, "Task " + i);
        }
        create("bob", 0, "Bob's");
        String cursor = nextCursor(call("get_my_queue", "{\"agent_name\":\"alice\",\"limit\":1}")
                        .text())
                .orElseThrow();
        String readyCursor = nextCursor(
                        call("get_my_queue", "{\"agent_name\":\"alice\",\"limit\":1,\"filter\":\"ready\"}")
                                .text())
                .orElseThrow();
        events.clear();

        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"limit\":0}"))
                .isEqualTo(ToolResult.error("Argument 'limit' must be between 1 and 100, not 0."));
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"limit\":1000000000}"))
                .isEqualTo(ToolResult.error("Argument 'limit' must be between 1 and 100, not 1000000000."));
        assertThat(call("get_my_queue", "{\"agent_name\":\"bob\",\"cursor\":" + quote(cursor) + "}"))
                .isEqualTo(ToolResult.error("The cursor belongs to another listing (another agent or filter); a"
                        + " cursor continues only the listing that returned it. List this queue without a cursor."));
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"cursor\":" + quote(readyCursor) + "}")
                        .text())
                .startsWith("The cursor belongs to another listing");
        ToolResult cut =
                call("get_my_queue", "{\"agent_name\":\"alice\",\"cursor\":" + quote(cursor.substring(0, 20)) + "}");
        assertThat(cut.isError()).isTrue();
        assertThat(cut.text())
                .isEqualTo("The cursor cannot be used: it is not a cursor a queue listing returned (changed or cut)."
                        + " Pass the cursor exactly as the previous page returned it, or list the queue again without"
                        + " a cursor.");
        String forged = cursor.substring(0, 30) + (cursor.charAt(30) == 'A' ? 'B' : 'A') + cursor.substring(31);
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"cursor\":" + quote(forged) + "}")
                        .text())
                .startsWith("The cursor cannot be used: it was changed or cut.");
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"cursor\":\" \"}")
                        .text())
                .startsWith("Argument 'cursor': cursor is not one a queue listing returned");
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"cursor\":" + quote("A".repeat(10_000)) + "}")
                        .isError())
                .isTrue();
        assertThat(events).isEmpty();
    }

    @Test
    void listQueueByQueryRefusesAForeignCursorWithATypedException() {
        create("alice", 0, "One");
        create("alice", 0, "Two");
        TaskPage first = queue.listQueue(QueueQuery.of("alice").withLimit(1));

        assertThat(first.tasks()).hasSize(1);
        assertThat(first.remaining()).isEqualTo(1);
        assertThatThrownBy(() -> queue.listQueue(QueueQuery.of("bob").withCursor(first.cursor())))
                .isInstanceOf(PageCursorException.class)
                .hasMessageStartingWith("The cursor belongs to another listing");
        assertThatThrownBy(() -> queue.listQueue(QueueQuery.of("alice").withCursor("not-a-cursor")))
                .isInstanceOf(PageCursorException.class)
                .hasMessageStartingWith("The cursor cannot be used");
        assertThatThrownBy(() -> QueueQuery.of("alice").withLimit(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be between 1 and 100, was 0");
        assertThatThrownBy(() -> QueueQuery.of("alice").withLimit(1_000_000_000))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(queue.listQueue(QueueQuery.of("alice").withCursor(first.cursor()))
                        .tasks())
                .extracting(Task::description)
                .containsExactly("Two");
    }

    @Test
    void getMyQueueToolReadsTheBlockersOfEachListedTaskOnceWhenItShrinksAPageToTheBudget() {
        List<Long> blockerIds = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Task blocker = create("bob", 0, "Blocker " + i);
            blockerIds.add(blocker.id());
            StringBuilder description = new StringBuilder();
            for (int word = 0; word < 30; word++) {
                description.append("w").append(i).append('x').append(word).append(' ');
            }
            queue.create(queue.newTask(description.toString().strip())
                    .assignee("alice")
                    .blockedBy(blocker.id())
                    .build());
        }
        Map<Long, AtomicInteger> reads = new ConcurrentHashMap<>();
        TaskStore counting = new TaskStore() {
            @Override
            public <R> R inTransaction(dev.taskagent.store.TransactionWork<R> work) {
                return store.inTransaction(transaction -> work.execute(new ForwardingTaskTransaction(transaction) {
                    @Override
                    public Optional<Task> findTask(long taskId) {
                        reads.computeIfAbsent(taskId, id -> new AtomicInteger()).incrementAndGet();
                        return super.findTask(taskId);
                    }
                }));
            }
        };

        ToolResult page = TaskQueue.builder(counting)
                .build()
                .tools()
                .call(new ToolCall("counted", "get_my_queue", "{\"agent_name\":\"alice\",\"limit\":100}"));

        List<Long> listed = listedIds(page.text());
        assertThat(listed).as(page.text()).hasSizeBetween(1, 99);
        assertThat(page.text()).contains("\n" + (100 - listed.size()) + " more: call get_my_queue again");
        assertThat(page.text()).contains(" — waits for #" + blockerIds.get(0) + " (pending)");
        assertThat(blockerIds)
                .as("each blocker is read at most once, however often its dependant's page was read")
                .allSatisfy(id -> assertThat(
                                reads.getOrDefault(id, new AtomicInteger()).get())
                        .as("reads of blocker #" + id)
                        .isLessThanOrEqualTo(1));
    }

    @Test
    void deadLettersListTheTasksThatFailedAfterTheirLastAttemptOldestFirstInPages() {
        TaskQueue noBackoff =
                TaskQueue.builder(store).backoff(Backoff.none()).maxAttempts(2).build();
        Task retried = noBackoff.create(
                noBackoff.newTask("Import the invoices").assignee("alice").build());
        for (int attempt = 1; attempt <= 2; attempt++) {
            Task claimed = noBackoff.claimNext("alice").orElseThrow();
            noBackoff.retry(claimed.id(), "alice", claimed.attempt(), "HTTP 503 from the ERP.");
        }
        Task ownLimit = noBackoff.create(noBackoff
                .newTask("Send the report")
                .assignee("bob")
                .maxAttempts(1)
                .build());
        Task claimedOnce = noBackoff.claimNext("bob").orElseThrow();
        noBackoff.complete(claimedOnce.id(), "bob", 1, TaskStatus.FAILED, "The mail server refused it.");
        Task failedEarly = noBackoff.create(
                noBackoff.newTask("Failed at once").assignee("carol").build());
        noBackoff.complete(noBackoff.claimNext("carol").orElseThrow().id(), "carol", 1, TaskStatus.FAILED, null);
        Task archived = noBackoff.create(noBackoff
                .newTask("Archived dead letter")
                .assignee("carol")
                .maxAttempts(1)
                .build());
        noBackoff.complete(noBackoff.claimNext("carol").orElseThrow().id(), "carol", 1, TaskStatus.FAILED, null);
        noBackoff.archive(archived.id());
        Task third = noBackoff.create(noBackoff
                .newTask("Third dead letter")
                .assignee("dave")
                .maxAttempts(1)
                .build());
        noBackoff.retry(noBackoff.claimNext("dave").orElseThrow().id(), "dave", 1, "Out of disk.");
        create("alice", 0, "Still pending");

        TaskPage first = noBackoff.deadLetters(2, null);
        Task later = noBackoff.create(noBackoff
                .newTask("Failed between the pages")
                .assignee("erin")
                .maxAttempts(1)
                .build());
        noBackoff.retry(noBackoff.claimNext("erin").orElseThrow().id(), "erin", 1, "Gone.");
        TaskPage second = noBackoff.deadLetters(2, first.cursor());

        assertThat(first.tasks()).extracting(Task::id).containsExactly(retried.id(), ownLimit.id());
        assertThat(first.remaining()).isEqualTo(1);
        assertThat(second.tasks()).extracting(Task::id).containsExactly(third.id());
        assertThat(second.hasMore()).isFalse();
        assertThat(noBackoff.deadLetters(100, null).tasks())
                .extracting(Task::id)
                .containsExactly(retried.id(), ownLimit.id(), third.id(), later.id())
                .doesNotContain(failedEarly.id(), archived.id());
        assertThat(noBackoff.isDeadLetter(store.findTask(failedEarly.id()).orElseThrow()))
                .isFalse();
        // A store that cannot list dead letters itself: the queue reads every agent's queue, same pages.
        TaskStore withoutListing = new TaskStore() {
            @Override
            public <R> R inTransaction(dev.taskagent.store.TransactionWork<R> work) {
                return store.inTransaction(transaction -> work.execute(new ForwardingTaskTransaction(transaction) {
                    @Override
                    public TaskPage listDeadLetters(int defaultMaxAttempts, int limit, String cursor) {
                        throw new UnsupportedOperationException("no dead-letter listing");
                    }
                }));
            }
        };
        TaskQueue scanning = TaskQueue.builder(withoutListing).maxAttempts(2).build();
        TaskPage scanned = scanning.deadLetters(2, null);
        assertThat(scanned.tasks()).extracting(Task::id).containsExactly(retried.id(), ownLimit.id());
        assertThat(scanning.deadLetters(2, scanned.cursor()).tasks())
                .extracting(Task::id)
                .containsExactly(third.id(), later.id());
        assertThatThrownBy(() -> noBackoff.deadLetters(0, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be between 1 and 100, was 0");
        assertThatThrownBy(() -> noBackoff.deadLetters(101, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> noBackoff.deadLetters(1, "not-a-cursor"))
                .isInstanceOf(PageCursorException.class)
                .hasMessageStartingWith("The cursor cannot be used");
        String queueCursor =
                noBackoff.listQueue(QueueQuery.of("alice").withLimit(1)).cursor();
        assertThatThrownBy(() -> noBackoff.deadLetters(1, queueCursor)).isInstanceOf(PageCursorException.class);
    }

    @Test
    void listDeadLettersToolPagesWithinTheBudgetAndRefusesBadInput() {
        assertThat(call("list_dead_letters", "{}")).isEqualTo(ToolResult.ok("No dead letters"));
        TaskQueue oneAttempt = TaskQueue.builder(store).maxAttempts(1).build();
        List<Long> dead = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            Task task = oneAttempt.create(oneAttempt
                    .newTask("Dead letter " + i + " " + "x".repeat(200))
                    .assignee("alice")
                    .build());
            Task claimed = oneAttempt.claimNext("alice").orElseThrow();
            oneAttempt.retry(claimed.id(), "alice", 1, "Failure " + i + ": " + "y".repeat(300));
            dead.add(task.id());
        }
        events.clear();

        ToolResult first = call("list_dead_letters", "{\"limit\":2}");
        assertThat(first.isError()).isFalse();
        assertThat(first.text())
                .startsWith("Dead letters (failed after their last attempt), oldest first:\n#" + dead.get(0)
                        + " failed p0: Dead letter 0 ")
                .contains(" @alice, attempt 1 of 1; last comment by alice: Failure 0: yyy")
                .contains("\n28 more: call list_dead_letters again with cursor \"");
        List<Long> seen = new ArrayList<>(listedIds(first.text()));
        String cursor = deadLettersCursor(first.text()).orElseThrow();
        ToolResult all = call("list_dead_letters", "{\"limit\":100,\"cursor\":" + quote(cursor) + "}");
        List<Long> rest = listedIds(all.text());
        assertThat(rest)
                .as("a page of long lines holds fewer tasks than the limit")
                .hasSizeBetween(1, 27);
        assertThat(all.text()).doesNotContain("cut here").contains((28 - rest.size()) + " more: ");
        seen.addAll(rest);
        Optional<String> next = deadLettersCursor(all.text());
        while (next.isPresent()) {
            ToolResult page = call("list_dead_letters", "{\"limit\":100,\"cursor\":" + quote(next.get()) + "}");
            assertThat(page.isError()).as(page.text()).isFalse();
            seen.addAll(listedIds(page.text()));
            next = deadLettersCursor(page.text());
        }
        assertThat(seen).containsExactlyElementsOf(dead);

        assertThat(call("list_dead_letters", "{\"limit\":0}"))
                .isEqualTo(ToolResult.error("Argument 'limit' must be between 1 and 100, not 0."));
        assertThat(call("list_dead_letters", "{\"limit\":101}"))
                .isEqualTo(ToolResult.error("Argument 'limit' must be between 1 and 100, not 101."));
        assertThat(call("list_dead_letters", "{\"limit\":\"ten\"}").isError()).isTrue();
        assertThat(call("list_dead_letters", "{\"cursor\":" + quote(cursor.substring(0, 20)) + "}"))
                .isEqualTo(ToolResult.error("The cursor cannot be used: it is not a cursor a listing returned"
                        + " (changed or cut). Pass the cursor exactly as the previous page returned it, or list"
                        + " again without a cursor."));
        assertThat(call("list_dead_letters", "{\"cursor\":\" \"}").text())
                .startsWith("Argument 'cursor': cursor is not one list_dead_letters returned");
        assertThat(call("list_dead_letters", "{\"cursor\":" + quote("A".repeat(10_000)) + "}")
                        .isError())
                .isTrue();
        create("bob", 0, "One");
        create("bob", 0, "Two");
        String queueCursor = nextCursor(call("get_my_queue", "{\"agent_name\":\"bob\",\"limit\":1}")
                        .text())
                .orElseThrow();
        ToolResult foreign = call("list_dead_letters", "{\"cursor\":" + quote(queueCursor) + "}");
        assertThat(foreign.isError()).isTrue();
        assertThat(foreign.text()).startsWith("The cursor cannot be used");
        assertThat(events)
                .filteredOn(event -> !(event instanceof TaskEvent.Created))
                .isEmpty();
    }

    private static Optional<String> deadLettersCursor(String text) {
        Matcher matcher = Pattern.compile("more: call list_dead_letters again with cursor \"([^\"]+)\"$")
                .matcher(text);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    private static List<Long> listedIds(String text) {
        List<Long> ids = new ArrayList<>();
        Matcher matcher = Pattern.compile("(?m)^#(\\d+) ").matcher(text);
        while (matcher.find()) {
            ids.add(Long.parseLong(matcher.group(1)));
        }
        return ids;
    }

    private static Optional<String> nextCursor(String text) {
        Matcher matcher = Pattern.compile("more: call get_my_queue again .* cursor \"([^\"]+)\"$")
                .matcher(text);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    @Test
    void aStoreWrittenBeforeQueuePagingStillListsTheQueueInPages() {
        TaskStore withoutPaging = new TaskStore() {
            @Override
            public <R> R inTransaction(dev.taskagent.store.TransactionWork<R> work) {
                return store.inTransaction(transaction -> work.execute(new ForwardingTaskTransaction(transaction) {
                    @Override
                    public TaskPage listQueuePage(QueueQuery query) {
                        throw new UnsupportedOperationException("written before paging");
                    }
                }));
            }
        };
        TaskQueue older = TaskQueue.builder(withoutPaging).build();
        for (int i = 0; i < 5; i++) {
            create("alice", i, "Task " + i);
        }

        TaskPage first = older.listQueue(QueueQuery.of("alice").withLimit(2));
        create("alice", 9, "Created between pages");
        TaskPage second = older.listQueue(QueueQuery.of("alice").withLimit(2).withCursor(first.cursor()));

        assertThat(first.tasks()).extracting(Task::description).containsExactly("Task 4", "Task 3");
        assertThat(second.tasks()).extracting(Task::description).containsExactly("Task 2", "Task 1");
        assertThat(second.remaining()).isEqualTo(1);
        assertThat(older.tools()
                        .call(new ToolCall("older", "get_my_queue", "{\"agent_name\":\"alice\",\"limit\":1}"))
                        .text())
                .contains("5 more: call get_my_queue again");
    }

    @Test
    void addCommentAndAddLinkToolsAppendToTheTask() {
        Task task = create("alice", 0, "Document the API");

        assertThat(call(
                        "add_comment",
                        "{\"task_id\":" + task.id() + ",\"author\":\"bob\",\"comment\":\"Use the new template.\"}"))
                .isEqualTo(ToolResult.ok("Comment added to task #" + task.id()));
        assertThat(
                        call(
                                "add_link",
                                "{\"task_id\":" + task.id()
                                        + ",\"url\":\"https://example.com/t\",\"description\":\"template\",\"author\":\"bob\"}"))
                .isEqualTo(ToolResult.ok("Link added to task #" + task.id()));

        Task after = store.findTask(task.id()).orElseThrow();
        assertThat(after.comments())
                .extracting(c -> c.author() + ": " + c.text())
                .containsExactly("bob: Use the new template.");
        assertThat(after.links())
                .extracting(l -> l.url() + " " + l.description() + " " + l.author())
                .containsExactly("https://example.com/t template bob");
        assertThat(events)
                .filteredOn(TaskEvent.Commented.class::isInstance)
                .singleElement()
                .satisfies(event -> assertThat(
                                ((TaskEvent.Commented) event).comment().text())
                        .isEqualTo("Use the new template."));
        assertThat(call("add_comment", "{\"task_id\":999999,\"author\":\"bob\",\"comment\":\"hello\"}"))
                .isEqualTo(ToolResult.error("Task 999999 not found"));
        assertThat(call("add_link", "{\"task_id\":999999,\"url\":\"https://example.com\",\"author\":\"bob\"}"))
                .isEqualTo(ToolResult.error("Task 999999 not found"));
    }

    @Test
    void archiveTaskToolTakesTheTaskOutOfEveryQueue() {
        Task task = create("alice", 0, "Old idea");

        assertThat(call("archive_task", "{\"task_id\":" + task.id() + "}"))
                .isEqualTo(ToolResult.ok("Task #" + task.id() + " archived"));
        assertThat(call("archive_task", "{\"task_id\":" + task.id() + "}"))
                .isEqualTo(ToolResult.ok("Task #" + task.id() + " archived"));

        Task after = store.findTask(task.id()).orElseThrow();
        assertThat(after.archived()).isTrue();
        assertThat(after.version()).isEqualTo(task.version() + 1);
        assertThat(queue.listQueue("alice")).isEmpty();
        assertThat(queue.claimNext("alice")).isEmpty();
        assertThat(call("get_task", "{\"task_id\":" + task.id() + "}").text()).endsWith(",\"archived\":true}");
        assertThat(call("archive_task", "{\"task_id\":999999}")).isEqualTo(ToolResult.error("Task 999999 not found"));
    }

    // ------------------------------------------------------------- bad input

    @Test
    void badInputToTheJavaApiIsRefusedAndWritesNothing() {
        Task task = create("alice", 0, "untouched");
        events.clear();
        String overLimit = "x".repeat(Task.MAX_TEXT_LENGTH + 1);

        assertThatThrownBy(() -> queue.claimNext(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("agent must not be blank");
        assertThatThrownBy(() -> queue.claimNext(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> queue.move(task.id(), "alice", "alice", "to myself"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("toAgent is the same as fromAgent ('alice'); a task can only be moved to another agent");
        assertThatThrownBy(() -> queue.move(task.id(), "alice", "", "c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("toAgent must not be blank");
        assertThatThrownBy(() -> queue.move(task.id(), "  ", "bob", "c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fromAgent must not be blank");
        assertThatThrownBy(() -> queue.move(task.id(), "alice", "bob", " \n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("comment must not be blank");
        assertThatThrownBy(() -> queue.move(task.id(), "alice", "bob", overLimit))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "comment is " + overLimit.length() + " characters long; the limit is " + Task.MAX_TEXT_LENGTH);
        assertThatThrownBy(() -> queue.move(0, "alice", "bob", "c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("taskId must be positive, was 0");
        assertThatThrownBy(() -> queue.move(task.id(), "alice", "b".repeat(Task.MAX_ID_LENGTH + 1), "c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("toAgent is 256 characters long");
        assertThatThrownBy(() -> queue.comment(task.id(), "bob", overLimit))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.comment(999999, "bob", "hello")).isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> queue.link(999999, "https://example.com", "", "bob"))
                .isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> queue.archive(999999)).isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> queue.update(TaskUpdate.of(999999).priority(1).build()))
                .isInstanceOf(TaskNotFoundException.class);
        assertThat(queue.get(999999)).isEmpty();
        assertThatThrownBy(() -> TaskQueue.builder(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> TaskQueue.builder(store).sessionId(" ")).isInstanceOf(IllegalArgumentException.class);

        assertThat(store.findTask(task.id())).contains(task);
        assertThat(events).isEmpty();
    }

    @Test
    void badInputToTheToolsIsASoftErrorThatSaysWhatToFixAndWritesNothing() {
        Task task = create("alice", 0, "untouched");
        events.clear();
        String overLimit = "x".repeat(Task.MAX_TEXT_LENGTH + 1);

        assertThat(call("signup_for_task", "{\"agent_name\":\"  \"}"))
                .isEqualTo(ToolResult.error("Argument 'agent_name' must not be blank; send a name."));
        assertThat(call("signup_for_task", "{}"))
                .isEqualTo(ToolResult.error("Missing required argument 'agent_name' (a string)."));
        assertThat(call("move_task", moveArguments(task.id(), "alice", "alice", "to myself")))
                .isEqualTo(ToolResult.error("new_agent is the same as current_agent (alice);"
                        + " name the agent who should take the task over."));
        assertThat(call("move_task", moveArguments(task.id(), "alice", "", "hand over")))
                .isEqualTo(ToolResult.error("Argument 'new_agent' must not be blank; send a name."));
        assertThat(call("move_task", moveArguments(task.id(), "alice", "bob", "   ")))
                .isEqualTo(ToolResult.error("Argument 'comment' must not be blank."));
        assertThat(call("move_task", moveArguments(task.id(), "alice", "bob", overLimit)))
                .isEqualTo(ToolResult.error("Argument 'comment' is " + overLimit.length()
                        + " characters long; the limit is " + Task.MAX_TEXT_LENGTH + ". Shorten it."));
        assertThat(call("move_task", moveArguments(0, "alice", "bob", "hand over")))
                .isEqualTo(ToolResult.error("Argument 'task_id' must be a positive id, not 0."));
        assertThat(call("move_task", "{\"task_id\":\"seven\",\"current_agent\":\"alice\"}")
                        .isError())
                .isTrue();
        assertThat(call("update_task", "{\"task_id\":" + task.id() + "}"))
                .isEqualTo(
                        ToolResult.error(
                                "Nothing to update: send at least one of status, assignee, priority, description, tags, metadata, parent_id."));
        assertThat(call("update_task", "{\"task_id\":" + task.id() + ",\"status\":\"done\"}"))
                .isEqualTo(
                        ToolResult.error("Argument 'status' is 'done'; use one of pending, running, success, failed."));
        assertThat(call("update_task", "{\"task_id\":" + task.id() + ",\"assignee\":\"\"}")
                        .isError())
                .isTrue();
        assertThat(call("create_task", "{\"description\":\" \"}"))
                .isEqualTo(ToolResult.error("Argument 'description' must not be blank."));
        assertThat(call("add_comment", "{\"task_id\":" + task.id() + ",\"author\":\"bob\",\"comment\":\"\"}"))
                .isEqualTo(ToolResult.error("Argument 'comment' must not be blank."));
        assertThat(call("add_link", "{\"task_id\":" + task.id() + ",\"url\":\" \",\"author\":\"bob\"}"))
                .isEqualTo(ToolResult.error("Argument 'url' must not be blank."));
        assertThat(call("get_my_queue", "{\"agent_name\":\"" + "a".repeat(Task.MAX_ID_LENGTH + 1) + "\"}"))
                .isEqualTo(ToolResult.error("Argument 'agent_name' is 256 characters long; the limit is "
                        + Task.MAX_ID_LENGTH + ". Shorten it."));

        assertThat(store.findTask(task.id())).contains(task);
        assertThat(store.listTasks(queue.sessionId())).containsExactly(task);
        assertThat(events).isEmpty();
    }

    @Test
    void aHundredKilobyteCommentIsKeptVerbatim() {
        Task task = create("alice", 0, "big hand-over");
        String comment = "Résumé 🚀 'quotes' \"double\" \\ ; DROP TABLE tasks; --\n".repeat(2000);
        assertThat(comment.length()).isGreaterThan(100_000);

        queue.move(task.id(), "alice", "bob", comment);

        assertThat(store.findTask(task.id()).orElseThrow().comments())
                .singleElement()
                .satisfies(c -> assertThat(c.text()).isEqualTo(comment));
    }

    // --------------------------------------------------------------- helpers

    private Task create(String assignee, int priority, String description) {
        return queue.create(
                queue.newTask(description).priority(priority).assignee(assignee).build());
    }

    /** Creates many tasks for one agent in one transaction, with a few priorities, and returns their ids. */
    private Set<Long> createMany(String assignee, int count) {
        return store.inTransaction(transaction -> {
            Set<Long> ids = new HashSet<>();
            for (int index = 0; index < count; index++) {
                ids.add(transaction
                        .appendTask(NewTask.builder(queue.sessionId(), "task " + index)
                                .priority(index % 7)
                                .assignee(assignee)
                                .build())
                        .id());
            }
            return ids;
        });
    }

    private List<Long> claimAll(String agent) {
        List<Long> ids = new ArrayList<>();
        for (Optional<Task> next = queue.claimNext(agent); next.isPresent(); next = queue.claimNext(agent)) {
            ids.add(next.get().id());
        }
        return ids;
    }

    private ToolResult call(String tool, String argumentsJson) {
        return tools.call(new ToolCall("call-" + callIds.incrementAndGet(), tool, argumentsJson));
    }

    private static String moveArguments(long taskId, String from, String to, String comment) {
        return "{\"task_id\":" + taskId + ",\"current_agent\":" + quote(from) + ",\"new_agent\":" + quote(to)
                + ",\"comment\":" + quote(comment) + "}";
    }

    /** Writes a string as a JSON string literal. */
    private static String quote(String text) {
        StringBuilder json = new StringBuilder(text.length() + 2).append('"');
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }

    private static long idIn(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).as("'%s' matches %s", text, regex).isTrue();
        return Long.parseLong(matcher.group(1));
    }

    /**
     * Runs {@code threads} bodies on their own threads, released together by a barrier, and returns
     * their results in thread order; fails the test on any exception or when the deadline passes.
     */
    private static <T> List<T> runConcurrently(int threads, IntFunction<Callable<T>> bodies) {
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int index = 0; index < threads; index++) {
                Callable<T> body = bodies.apply(index);
                futures.add(executor.submit(() -> {
                    start.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
                    return body.call();
                }));
            }
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            return results;
        } catch (Exception e) {
            throw new AssertionError("A concurrent worker failed or missed the deadline: " + e, e);
        } finally {
            executor.shutdownNow();
        }
    }
}
