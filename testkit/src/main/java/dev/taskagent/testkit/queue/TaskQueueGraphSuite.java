package dev.taskagent.testkit.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.queue.Completion;
import dev.taskagent.queue.Completions;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.queue.TaskTree;
import dev.taskagent.queue.TaskWorker;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskGraphException;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The work graph through {@link TaskQueue}, written once and run on every store: dependencies and what a
 * claim hands out, the events listeners hear, the refusals (self edges, duplicates, cycles named in full,
 * unknown tasks) that write nothing, plans laid out in one call with {@link TaskTree}, parents that finish
 * last, and a {@link TaskWorker} woken by a task's unblocking. Subclass it in a store's tests and return a
 * fresh, empty store from {@link #createStore(Clock)}.
 */
public abstract class TaskQueueGraphSuite {
    private TaskStore store;
    private TaskQueue queue;
    private final List<TaskEvent> events = new CopyOnWriteArrayList<>();

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected TaskQueueGraphSuite() {}

    /**
     * Creates the store under test. Each call must return a new, empty store; the suite closes it.
     *
     * @param clock the clock the store must take its timestamps from
     * @return the store
     */
    protected abstract TaskStore createStore(Clock clock);

    @BeforeEach
    void createQueue() {
        store = createStore(MutableClock.standard());
        queue = TaskQueue.builder(store).listener(events::add).build();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private Task create(String agent, String description) {
        return queue.create(queue.newTask(description).assignee(agent).build());
    }

    private Task claimAndFinish(String agent, TaskStatus outcome) {
        Task claimed = queue.claimNext(agent).orElseThrow();
        return queue.complete(claimed.id(), agent, claimed.attempt(), outcome, null);
    }

    @Test
    void aDependantIsNotClaimedUntilItsBlockerSucceededAndListenersHearOfIt() {
        Task build = create("alice", "Build");
        Task deploy = create("alice", "Deploy");
        events.clear();

        Task blocked = queue.addDependency(deploy.id(), build.id());

        assertThat(blocked.blockedBy()).containsExactly(build.id());
        assertThat(blocked.isBlocked()).isTrue();
        assertThat(events).containsExactly(new TaskEvent.DependencyAdded(blocked, build.id()));
        assertThat(queue.listReady("alice")).extracting(Task::id).containsExactly(build.id());
        assertThat(queue.listBlocked("alice")).extracting(Task::id).containsExactly(deploy.id());
        assertThat(queue.listReadyInSession(queue.sessionId()))
                .extracting(Task::id)
                .containsExactly(build.id());
        assertThat(queue.listBlockedInSession(queue.sessionId()))
                .extracting(Task::id)
                .containsExactly(deploy.id());
        assertThat(queue.dependants(build.id())).extracting(Task::id).containsExactly(deploy.id());
        assertThat(queue.blockers(deploy.id())).extracting(Task::id).containsExactly(build.id());

        Task claimed = queue.claimNext("alice").orElseThrow();
        assertThat(claimed.id()).isEqualTo(build.id());
        assertThat(queue.claimNext("alice")).as("deploy waits for build").isEmpty();
        events.clear();
        queue.complete(build.id(), "alice", claimed.attempt(), TaskStatus.SUCCESS, "built");

        assertThat(events).hasSize(2);
        assertThat(events.get(0)).isInstanceOf(TaskEvent.Completed.class);
        assertThat(events.get(1)).isInstanceOf(TaskEvent.Unblocked.class);
        assertThat(events.get(1).task().id()).isEqualTo(deploy.id());
        assertThat(queue.listBlocked("alice")).isEmpty();
        assertThat(queue.claimNext("alice").orElseThrow().id()).isEqualTo(deploy.id());
    }

    /**
     * A task may gain a blocker while it runs; a batch that completes both returns the dependant as the
     * batch left it, its blocker no longer open.
     */
    @Test
    void aBatchThatCompletesABlockerAndItsRunningDependantReturnsTheDependantUnblocked() {
        Task build = create("alice", "Build");
        Task deploy = create("alice", "Deploy");
        List<Task> claimed = queue.claimUpTo("alice", 2);
        assertThat(claimed).extracting(Task::id).containsExactly(build.id(), deploy.id());
        assertThat(queue.addDependency(deploy.id(), build.id()).openBlockers()).isEqualTo(1);

        Completions done = queue.completeAll(
                "alice", List.of(Completion.success(build.id(), 1), Completion.success(deploy.id(), 1)));

        assertThat(done.refused()).isEmpty();
        assertThat(done.completed())
                .filteredOn(task -> task.id() == deploy.id())
                .singleElement()
                .satisfies(task -> assertThat(task.openBlockers()).isZero());
        assertThat(store.findTask(deploy.id()).orElseThrow().openBlockers()).isZero();
    }

    @Test
    void aFailedBlockerKeepsItsDependantBlockedUntilTheDependencyIsRemoved() {
        Task build = create("alice", "Build");
        Task deploy = create("alice", "Deploy");
        queue.addDependency(deploy.id(), build.id());
        claimAndFinish("alice", TaskStatus.FAILED);

        assertThat(queue.claimNext("alice")).isEmpty();
        assertThat(queue.blockers(deploy.id())).singleElement().satisfies(blocker -> assertThat(blocker.status())
                .isEqualTo(TaskStatus.FAILED));
        events.clear();

        Task freed = queue.removeDependency(deploy.id(), build.id());

        assertThat(freed.blockedBy()).isEmpty();
        assertThat(events)
                .containsExactly(new TaskEvent.DependencyRemoved(freed, build.id()), new TaskEvent.Unblocked(freed));
        assertThat(queue.claimNext("alice").orElseThrow().id()).isEqualTo(deploy.id());
    }

    @Test
    void refusesSelfEdgesDuplicatesCyclesAndUnknownTasksWritingNothing() {
        Task a = create("alice", "A");
        Task b = create("alice", "B");
        Task c = create("alice", "C");
        queue.addDependency(b.id(), a.id());
        queue.addDependency(c.id(), b.id());
        List<Task> before = store.listTasks(queue.sessionId());
        events.clear();

        assertThatThrownBy(() -> queue.addDependency(a.id(), a.id()))
                .isInstanceOfSatisfying(TaskGraphException.class, e -> assertThat(e.reason())
                        .isEqualTo(TaskGraphException.Reason.SELF_DEPENDENCY));
        assertThatThrownBy(() -> queue.addDependency(b.id(), a.id()))
                .isInstanceOfSatisfying(TaskGraphException.class, e -> assertThat(e.reason())
                        .isEqualTo(TaskGraphException.Reason.DUPLICATE_DEPENDENCY));
        assertThatThrownBy(() -> queue.addDependency(a.id(), c.id()))
                .isInstanceOfSatisfying(TaskGraphException.class, e -> {
                    assertThat(e.reason()).isEqualTo(TaskGraphException.Reason.DEPENDENCY_CYCLE);
                    assertThat(e.tasks()).containsExactly(a.id(), b.id(), c.id(), a.id());
                });
        assertThatThrownBy(() -> queue.addDependency(a.id(), 999)).isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> queue.removeDependency(a.id(), b.id()))
                .isInstanceOfSatisfying(TaskGraphException.class, e -> assertThat(e.reason())
                        .isEqualTo(TaskGraphException.Reason.NO_SUCH_DEPENDENCY));
        assertThatThrownBy(() -> queue.addDependency(0, a.id())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.blockers(999)).isInstanceOf(TaskNotFoundException.class);

        assertThat(store.listTasks(queue.sessionId())).isEqualTo(before);
        assertThat(events).isEmpty();
    }

    @Test
    void laysOutAPlanInOneCallWithEdgesByKey() {
        TaskTree plan = TaskTree.builder(
                        queue.newTask("Release 2.0").tags("release").build())
                .child("deploy", queue.newTask("Deploy").assignee("ops").build(), "test")
                .child("build", queue.newTask("Build").assignee("dev").build())
                .child("test", queue.newTask("Test").assignee("qa").build(), "build")
                .build();

        TaskTree.Created created = queue.createTree(plan);

        Task parent = created.parent();
        assertThat(parent.tags()).containsExactly("release");
        assertThat(created.children().keySet()).containsExactly("deploy", "build", "test");
        Task build = created.child("build");
        Task test = created.child("test");
        Task deploy = created.child("deploy");
        assertThat(List.of(build, test, deploy)).allSatisfy(child -> {
            assertThat(child.parentId()).isEqualTo(parent.id());
            assertThat(child.maxAttempts()).isEqualTo(TaskQueue.DEFAULT_MAX_ATTEMPTS);
        });
        assertThat(build.blockedBy()).isEmpty();
        assertThat(test.blockedBy()).containsExactly(build.id());
        assertThat(deploy.blockedBy()).containsExactly(test.id());
        assertThat(deploy.isBlocked()).isTrue();
        assertThat(queue.children(parent.id()))
                .extracting(Task::id)
                .containsExactly(build.id(), test.id(), deploy.id());
        assertThat(events).hasSize(4).allSatisfy(event -> assertThat(event).isInstanceOf(TaskEvent.Created.class));
        assertThat(queue.claimNext("ops")).isEmpty();
        assertThat(queue.claimNext("qa")).isEmpty();
        assertThat(queue.claimNext("dev")).map(Task::id).contains(build.id());
    }

    @Test
    void aPlanWithAnUnknownBlockerIdWritesNothing() {
        TaskTree plan = TaskTree.builder(queue.newTask("Release").build())
                .child("a", queue.newTask("A").build())
                .child("b", queue.newTask("B").blockedBy(4242).build(), "a")
                .build();

        assertThatThrownBy(() -> queue.createTree(plan)).isInstanceOf(TaskNotFoundException.class);
        assertThat(store.listTasks(queue.sessionId())).isEmpty();
        assertThat(events).isEmpty();
    }

    @Test
    void completingAParentWithOpenChildrenIsRefusedUnlessAskedForExplicitly() {
        TaskTree.Created created = queue.createTree(
                TaskTree.builder(queue.newTask("Parent").assignee("alice").build())
                        .child("child", queue.newTask("Child").assignee("bob").build())
                        .build());
        Task parent = queue.claimNext("alice").orElseThrow();
        assertThat(parent.id()).isEqualTo(created.parent().id());

        assertThatThrownBy(() -> queue.complete(parent.id(), "alice", parent.attempt(), TaskStatus.SUCCESS, null))
                .isInstanceOfSatisfying(TaskGraphException.class, e -> {
                    assertThat(e.reason()).isEqualTo(TaskGraphException.Reason.OPEN_CHILDREN);
                    assertThat(e.tasks()).containsExactly(created.child("child").id());
                });
        assertThat(queue.get(parent.id()).orElseThrow().status()).isEqualTo(TaskStatus.RUNNING);
        assertThatThrownBy(() -> queue.update(
                        TaskUpdate.of(parent.id()).status(TaskStatus.SUCCESS).build()))
                .isInstanceOf(TaskGraphException.class);

        Task done = queue.complete(parent.id(), "alice", parent.attempt(), TaskStatus.SUCCESS, "shipped", true);

        assertThat(done.status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(done.comments()).extracting(comment -> comment.text()).containsExactly("shipped");
    }

    @Test
    void updateChangesTagsMetadataAndParentAndAnUpdateToSuccessUnblocks() {
        Task parent = create("alice", "Parent");
        Task task = create("alice", "Child");
        Task dependant = create("alice", "Later");
        queue.addDependency(dependant.id(), task.id());

        Task updated = queue.update(TaskUpdate.of(task.id())
                .tags(List.of("backend", "urgent"))
                .metadata("{\"issue\":\"PROJ-12\"}")
                .parent(parent.id())
                .build());

        assertThat(updated.tags()).containsExactly("backend", "urgent");
        assertThat(updated.metadata()).isEqualTo("{\"issue\":\"PROJ-12\"}");
        assertThat(updated.parentId()).isEqualTo(parent.id());
        events.clear();
        queue.update(TaskUpdate.of(task.id()).status(TaskStatus.SUCCESS).build());
        List<Class<?>> kinds = new ArrayList<>();
        events.forEach(event -> kinds.add(event.getClass()));
        assertThat(kinds).containsExactly(TaskEvent.StatusChanged.class, TaskEvent.Unblocked.class);
        assertThat(queue.listReady("alice")).extracting(Task::id).contains(dependant.id());
    }

    @Test
    void aWorkerWakesOnTheUnblockedEventOfAnotherAgentsSuccess() throws Exception {
        Task build = queue.create(queue.newTask("Build").assignee("bob").build());
        Task deploy = queue.create(
                queue.newTask("Deploy").assignee("alice").blockedBy(build.id()).build());
        CountDownLatch handled = new CountDownLatch(1);

        try (TaskWorker worker = TaskWorker.builder(queue)
                .agent("alice")
                .handler(task -> handled.countDown())
                .pollInterval(Duration.ofHours(1))
                .start()) {
            Thread.sleep(200); // the worker found nothing ready and waits for the feed
            assertThat(handled.getCount()).isEqualTo(1);

            Task claimed = queue.claimNext("bob").orElseThrow();
            queue.complete(claimed.id(), "bob", claimed.attempt(), TaskStatus.SUCCESS, null);

            assertThat(handled.await(10, TimeUnit.SECONDS))
                    .as("woken by 'unblocked' well before the hour's poll")
                    .isTrue();
            assertThat(worker.agent()).isEqualTo("alice");
        }
        assertThat(store.findTask(deploy.id()).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
    }
}
