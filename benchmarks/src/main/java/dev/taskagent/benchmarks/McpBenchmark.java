package dev.taskagent.benchmarks;

import dev.taskagent.mcp.TaskMcpServer;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.Task;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The MCP server's cost: {@code signup_for_task} through Streamable HTTP (the official Java SDK client
 * against {@link TaskMcpServer} on loopback, in-memory store) beside the same claim as a direct Java call
 * ({@link TaskQueue#claimNext(String)}) — the difference is the overhead of MCP; and 50 MCP sessions
 * claiming at once, each from its own agent's queue, for the throughput, with every claimed task checked
 * to be claimed exactly once and every call checked to succeed.
 *
 * <p>An agent whose queue runs dry gets 2,000 new tasks inside the measured call (one call in 2,000,
 * beyond the 99th percentile), so that no stock has to be sized in advance for a rate not known yet.
 *
 * <p>The fork sets the common pool's parallelism to 2. On a 2-core machine it is 1, and then the JDK's HTTP
 * client, the benchmark's side of the wire, completes each response on a new thread (CompletableFuture's
 * thread-per-task fallback, seen with JFR's thread-start events): a cost of the measuring client, not of
 * the server, which would add some 100 µs to every call.
 *
 * <p>The clients wait up to {@value #CLIENT_TIMEOUT_SECONDS} s for a connection as for an answer, not the
 * SDK's default of 10 s for a connection: the 50 sessions hold some 150 connections to the server and open
 * more while they run (147 growing to 165 over a 5 s run, counted with {@code ss}), and on a 2-core machine,
 * in the test suite's JVM (forks(0)), one such connection once took longer than 10 s. A failed call names
 * its session, what it was doing and how long it waited.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2")
public class McpBenchmark {
    static final int REFILL = 2_000;
    static final int SESSIONS = 50;
    static final int CLIENT_TIMEOUT_SECONDS = 30;

    /** The server, its store, and the record of every claim. */
    @State(Scope.Benchmark)
    public static class Server {
        InMemoryTaskStore store;
        TaskQueue queue;
        TaskMcpServer server;
        final Set<Long> claimed = ConcurrentHashMap.newKeySet();
        final AtomicLong doubleClaims = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final AtomicInteger agents = new AtomicInteger();
        final Set<McpSyncClient> clients = ConcurrentHashMap.newKeySet();

        /** Starts the server on a loopback port. */
        @Setup(Level.Trial)
        public void start() {
            store = new InMemoryTaskStore();
            queue = TaskQueue.builder(store).build();
            server = TaskMcpServer.builder(queue)
                    .toolsets(dev.taskagent.mcp.Toolset.WORKER)
                    .bind("127.0.0.1", 0)
                    .build()
                    .start();
        }

        /** Stops the server; fails the trial on a double claim or an error. */
        @TearDown(Level.Trial)
        public void stop() {
            // JMH may tear this down before the threads' sessions: close those still open first.
            clients.removeIf(client -> {
                disconnect(client);
                return true;
            });
            server.close();
            store.close();
            if (doubleClaims.get() > 0 || errors.get() > 0) {
                throw new IllegalStateException("MCP claims went wrong: " + doubleClaims.get()
                        + " tasks claimed more than once, " + errors.get() + " error results");
            }
        }

        static void disconnect(McpSyncClient client) {
            try {
                client.closeGracefully();
            } catch (RuntimeException e) {
                // The server went first; the session ends with it.
            }
        }

        void refill(String agent) {
            for (int index = 0; index < REFILL; index++) {
                queue.create(queue.newTask(Fixtures.description(index))
                        .assignee(agent)
                        .build());
            }
        }

        void record(long taskId) {
            if (!claimed.add(taskId)) {
                doubleClaims.incrementAndGet();
            }
        }
    }

    /** One agent with an MCP session of its own. */
    @State(Scope.Thread)
    public static class Session {
        String agent;
        McpSyncClient client;
        McpSchema.CallToolRequest signup;

        /** Connects and initializes. */
        @Setup(Level.Trial)
        public void connect(Server server) {
            agent = "agent-" + server.agents.incrementAndGet();
            URI endpoint = server.server.endpoint();
            Duration timeout = Duration.ofSeconds(CLIENT_TIMEOUT_SECONDS);
            client = McpClient.sync(HttpClientStreamableHttpTransport.builder(
                                    endpoint.getScheme() + "://" + endpoint.getAuthority())
                            .endpoint(endpoint.getPath())
                            .connectTimeout(timeout)
                            .build())
                    .requestTimeout(timeout)
                    .build();
            long started = System.nanoTime();
            try {
                client.initialize();
            } catch (RuntimeException e) {
                throw failed("initialize", started, e);
            }
            server.clients.add(client);
            signup = McpSchema.CallToolRequest.builder("signup_for_task")
                    .arguments(Map.of("agent_name", agent))
                    .build();
            server.refill(agent);
        }

        /** Closes the session, unless the server's teardown did already. */
        @TearDown(Level.Trial)
        public void disconnect(Server server) {
            if (server.clients.remove(client)) {
                Server.disconnect(client);
            }
        }

        /** Claims over MCP, refilling the agent's queue when it ran dry; returns the task's id. */
        long claim(Server server) {
            long started = System.nanoTime();
            McpSchema.CallToolResult result;
            try {
                result = client.callTool(signup);
            } catch (RuntimeException e) {
                throw failed("signup_for_task", started, e);
            }
            if (Boolean.TRUE.equals(result.isError())) {
                server.errors.incrementAndGet();
                return -1;
            }
            Map<?, ?> structured = (Map<?, ?>) result.structuredContent();
            Object task = structured == null ? null : structured.get("task");
            if (task == null) {
                server.refill(agent);
                return claim(server);
            }
            long id = ((Number) ((Map<?, ?>) task).get("id")).longValue();
            server.record(id);
            return id;
        }

        private IllegalStateException failed(String call, long started, RuntimeException cause) {
            return new IllegalStateException(
                    agent + "'s " + call + " failed after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)
                            + " ms: " + cause,
                    cause);
        }

        /** Claims with a direct Java call, refilling likewise. */
        long claimDirectly(Server server) {
            Optional<Task> task = server.queue.claimNext(agent);
            if (task.isEmpty()) {
                server.refill(agent);
                return claimDirectly(server);
            }
            return task.get().id();
        }
    }

    /** {@code signup_for_task} through Streamable HTTP: one session, one call at a time. */
    @Benchmark
    public long signupOverHttp(Server server, Session session) {
        return session.claim(server);
    }

    /** The same claim as a direct Java call: the floor the MCP overhead is measured against. */
    @Benchmark
    public long signupDirect(Server server, Session session) {
        return session.claimDirectly(server);
    }

    /** 50 MCP sessions claiming at once, each from its own agent's queue: the throughput. */
    @Benchmark
    @Threads(SESSIONS)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long signupOverHttpBy50Sessions(Server server, Session session) {
        return session.claim(server);
    }
}
