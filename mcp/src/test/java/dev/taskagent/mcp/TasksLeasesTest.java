package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.event.EventFeed;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskCounts;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leases of the MCP tasks a server runs, on an H2 file store: judged on the store's clock, never the
 * server's, and renewed all together in one transaction per round.
 */
class TasksLeasesTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path data;

    @TempDir
    Path project;

    private JdbcTaskStore store;
    private RenewalCountingStore counting;
    private final List<TaskMcpServer> servers = new ArrayList<>();
    private Set<Long> childrenBefore;

    @BeforeEach
    void start() throws IOException {
        childrenBefore = ChildProcesses.descendants();
        Files.createDirectories(project.resolve(".agent"));
        Files.writeString(project.resolve(".agent/Taskfile.yml"), """
                version: '3'
                tasks:
                  gated:
                    desc: Waits for the file go
                    cmds: ['while [ ! -f go ]; do sleep 0.1; done; echo through the gate']
                  slow-1:
                    desc: Sleeps, leaving its pid in 1.pid
                    cmds: ['sleep 300 & echo $! > 1.pid; wait']
                  slow-2:
                    desc: Sleeps, leaving its pid in 2.pid
                    cmds: ['sleep 300 & echo $! > 2.pid; wait']
                  slow-3:
                    desc: Sleeps, leaving its pid in 3.pid
                    cmds: ['sleep 300 & echo $! > 3.pid; wait']
                """);
        store = JdbcTaskStore.open("jdbc:h2:file:" + data.resolve("tasks").toAbsolutePath());
        counting = new RenewalCountingStore(store);
    }

    @AfterEach
    void stop() {
        servers.forEach(TaskMcpServer::close);
        store.close();
        ChildProcesses.assertNoneLeftBesides(childrenBefore);
    }

    private TasksWire server(TaskStore on, Clock clock) {
        TaskMcpServer server = TaskMcpServer.builder(TaskQueue.builder(on).build())
                .toolsets(Toolset.TASKFILE)
                .taskfileProject(project)
                .bind("127.0.0.1", 0)
                .clock(clock)
                .build()
                .start();
        servers.add(server);
        return new TasksWire(server.endpoint(), true);
    }

    @Test
    void serversWhoseClockIsAnHourAheadOfTheStoresKeepARunningTaskWorkingAndCompleteIt() throws IOException {
        Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofHours(1));
        TasksWire runner = server(store, ahead);
        TasksWire reader = server(store, ahead);

        String taskId = runner.startRun("gated");
        // Read through the server that does not run it: the task's lease is the store's, and it holds.
        for (TasksWire client : List.of(reader, runner, reader)) {
            JsonNode read = client.tasks("tasks/get", taskId).path("result");
            assertThat(read.path("status").asText()).as(read.toString()).isEqualTo("working");
        }
        assertThat(store.findTask(Long.parseLong(taskId)).orElseThrow().status())
                .isEqualTo(TaskStatus.RUNNING);

        Files.writeString(project.resolve("go"), "");
        JsonNode ended = reader.awaitEnd(taskId, TIMEOUT);
        assertThat(ended.path("status").asText()).as(ended.toString()).isEqualTo("completed");
        assertThat(ended.path("result").path("content").get(0).path("text").asText())
                .contains("through the gate");
        assertThat(store.findTask(Long.parseLong(taskId)).orElseThrow().status())
                .isEqualTo(TaskStatus.SUCCESS);
    }

    @Test
    void theLeasesOfAllRunningTasksAreRenewedInOneTransactionAndALostOneStopsOnlyItsRun() {
        TasksWire client = server(counting, Clock.systemUTC());
        List<Long> ids = new ArrayList<>();
        List<Long> sleeps = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            ids.add(Long.parseLong(client.startRun("slow-" + i)));
        }
        for (int i = 1; i <= 3; i++) {
            sleeps.add(awaitPid(project.resolve(i + ".pid")));
        }

        counting.renewals.clear();
        McpClients.await(
                "two rounds that renew the three leases in one transaction each",
                TIMEOUT,
                () -> counting.renewals.stream()
                                .filter(round -> round.equals(new Renewal(3, 3, true)))
                                .count()
                        >= 2);
        // Every round after the first that may have begun before the clear renews all three at once.
        assertThat(counting.renewals.subList(1, counting.renewals.size()))
                .allSatisfy(round -> assertThat(round).isEqualTo(new Renewal(3, 3, true)));

        // Another process cancels the second: this server learns it at its next renewal.
        Map<Long, Instant> leases = Map.of(
                ids.get(0), lease(ids.get(0)),
                ids.get(2), lease(ids.get(2)));
        counting.renewals.clear();
        TaskQueue.builder(store).build().cancel(ids.get(1), "someone-else", "no longer needed");

        McpClients.await("the cancelled run's sleep to be killed", TIMEOUT, () -> ProcessHandle.of(sleeps.get(1))
                .map(process -> !process.isAlive())
                .orElse(true));
        McpClients.await(
                "a round that renews the two others in one transaction",
                TIMEOUT,
                () -> counting.renewals.contains(new Renewal(2, 2, true)));
        // The round that met the lost claim renewed the two others in the same, committed transaction.
        assertThat(counting.renewals).contains(new Renewal(3, 2, true)).doesNotContain(new Renewal(3, 2, false));
        for (long id : List.of(ids.get(0), ids.get(2))) {
            Task task = store.findTask(id).orElseThrow();
            assertThat(task.status()).isEqualTo(TaskStatus.RUNNING);
            assertThat(task.leaseExpiresAt()).isAfter(leases.get(id));
        }
        assertThat(ProcessHandle.of(sleeps.get(0)).map(ProcessHandle::isAlive)).contains(true);
        assertThat(ProcessHandle.of(sleeps.get(2)).map(ProcessHandle::isAlive)).contains(true);
        assertThat(store.findTask(ids.get(1)).orElseThrow().status()).isEqualTo(TaskStatus.CANCELLED);
    }

    private Instant lease(long id) {
        return store.findTask(id).orElseThrow().leaseExpiresAt();
    }

    private static long awaitPid(Path file) {
        McpClients.await(
                "the run to write " + file, TIMEOUT, () -> readPid(file).isPresent());
        return readPid(file).orElseThrow();
    }

    private static Optional<Long> readPid(Path file) {
        try {
            String text = Files.exists(file) ? Files.readString(file).strip() : "";
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * A unit of work that renewed leases.
     *
     * @param heartbeats the renewals it asked for
     * @param renewed those the store granted
     * @param committed whether the unit of work committed
     */
    record Renewal(int heartbeats, int renewed, boolean committed) {}

    /** A store that records each of its units of work that renews a lease. */
    private static final class RenewalCountingStore implements TaskStore {
        final List<Renewal> renewals = new CopyOnWriteArrayList<>();
        private final TaskStore delegate;

        RenewalCountingStore(TaskStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public <R> R inTransaction(TransactionWork<R> work) {
            AtomicInteger heartbeats = new AtomicInteger();
            AtomicInteger renewed = new AtomicInteger();
            R result;
            try {
                result = delegate.inTransaction(transaction -> {
                    heartbeats.set(0);
                    renewed.set(0);
                    return work.execute(counted(transaction, heartbeats, renewed));
                });
            } catch (RuntimeException e) {
                if (heartbeats.get() > 0) {
                    renewals.add(new Renewal(heartbeats.get(), renewed.get(), false));
                }
                throw e;
            }
            if (heartbeats.get() > 0) {
                renewals.add(new Renewal(heartbeats.get(), renewed.get(), true));
            }
            return result;
        }

        private static TaskTransaction counted(
                TaskTransaction transaction, AtomicInteger heartbeats, AtomicInteger renewed) {
            return (TaskTransaction) Proxy.newProxyInstance(
                    TaskTransaction.class.getClassLoader(),
                    new Class<?>[] {TaskTransaction.class},
                    (proxy, method, args) -> {
                        boolean heartbeat = method.getName().equals("heartbeat");
                        if (heartbeat) {
                            heartbeats.incrementAndGet();
                        }
                        Object answer;
                        try {
                            answer = method.invoke(transaction, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                        if (heartbeat) {
                            renewed.incrementAndGet();
                        }
                        return answer;
                    });
        }

        @Override
        public Optional<Task> findTask(long taskId) {
            return delegate.findTask(taskId);
        }

        @Override
        public Optional<Task> claimNext(String assignee, Duration lease) {
            return delegate.claimNext(assignee, lease);
        }

        @Override
        public List<Task> claimUpTo(String assignee, Duration lease, int limit) {
            return delegate.claimUpTo(assignee, lease, limit);
        }

        @Override
        public EventFeed eventFeed() {
            return delegate.eventFeed();
        }

        @Override
        public TaskCounts countTasks() {
            return delegate.countTasks();
        }
    }
}
