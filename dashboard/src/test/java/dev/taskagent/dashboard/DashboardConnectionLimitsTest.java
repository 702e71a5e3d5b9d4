package dev.taskagent.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.NewTask;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Slowloris against the board: raw sockets to 127.0.0.1 that send a request a byte at a time, or never
 * finish it. The board's threads stay within its connection limit, slow connections are closed after the
 * request timeout, and a normal client is served all the while.
 */
class DashboardConnectionLimitsTest {
    private static final int MAX_CONNECTIONS = 8;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
    /** A request's first line and part of its headers; the blank line that would end them never comes. */
    private static final byte[] UNFINISHED =
            "GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);

    private final InMemoryTaskStore store = new InMemoryTaskStore();
    private final List<Socket> slow = new ArrayList<>();
    private TaskDashboard board;
    private BoardClient client;

    @BeforeEach
    void startBoard() {
        TaskQueue.builder(store).build().create(NewTask.of("trip", "Book flights"));
        board = TaskDashboard.builder(store)
                .bind("127.0.0.1", 0)
                .maxConnections(MAX_CONNECTIONS)
                .maxEventClients(2)
                .requestTimeout(REQUEST_TIMEOUT)
                .build()
                .start();
        client = new BoardClient(board);
    }

    @AfterEach
    void stopBoardAndSockets() throws IOException {
        for (Socket socket : slow) {
            socket.close();
        }
        board.close();
        assertThat(boardThreads()).as("the board's threads after close").isZero();
    }

    @Test
    void aClientThatSendsItsHeadersAByteAtATimeIsClosedAfterTheRequestTimeout() throws Exception {
        for (int i = 0; i < 4; i++) {
            slow.add(connect());
        }
        long started = System.nanoTime();
        for (Socket socket : slow) {
            socket.getOutputStream().write(UNFINISHED, 0, 1);
        }

        // Each round sends one more byte on every connection still open, then waits up to 50 ms on each
        // for the server to close it; the rounds end when all are closed or after 10 s.
        int[] sent = new int[slow.size()];
        boolean[] closed = new boolean[slow.size()];
        long deadline = started + Duration.ofSeconds(10).toNanos();
        while (!allTrue(closed) && System.nanoTime() < deadline) {
            for (int i = 0; i < slow.size(); i++) {
                if (!closed[i]) {
                    closed[i] = !sendByte(slow.get(i), 1 + sent[i] % (UNFINISHED.length - 1))
                            || closedByServer(slow.get(i), 50);
                    sent[i]++;
                }
            }
        }
        long elapsedMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();

        assertThat(closed).as("every slow connection closed by the server").containsOnly(true);
        assertThat(Arrays.stream(sent).min().orElseThrow())
                .as("the fewest bytes one sent before it was closed")
                .isGreaterThan(3);
        assertThat(elapsedMillis).isBetween(REQUEST_TIMEOUT.toMillis() - 100, REQUEST_TIMEOUT.toMillis() + 5_000);
        assertThat(board.timedOutConnections()).isEqualTo(4);
        assertThat(client.get("/api/sessions").status()).isEqualTo(200);
    }

    @Test
    void fiveHundredSlowClientsHoldNoMoreThreadsThanTheLimitAndANormalClientIsServedMeanwhile() throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assertThat(client.get("/api/sessions").status()).isEqualTo(200); // the client's own threads exist
        int before = threads.getThreadCount();
        threads.resetPeakThreadCount();

        // Ten rounds, each opening 50 more slow connections (500 in all) and sending one more byte on every
        // one still open, then asking as a normal client would.
        List<Integer> served = new ArrayList<>();
        int mostBoardThreads = 0;
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 50; i++) {
                slow.add(connect());
            }
            for (Socket socket : slow) {
                sendByte(socket, round);
            }
            BoardClient.Reply reply = client.get("/api/sessions");
            served.add(reply.status());
            assertThat(reply.json().get("sessions").get(0).asText()).isEqualTo("trip");
            mostBoardThreads = Math.max(mostBoardThreads, boardThreads());
        }

        assertThat(served).as("the normal client's answers").containsOnly(200);
        // The exchanges' threads, and the one that closes slow requests.
        assertThat(mostBoardThreads).isLessThanOrEqualTo(MAX_CONNECTIONS + 1);
        assertThat(threads.getPeakThreadCount() - before)
                .as("threads the JVM gained at its peak (was %d)", before)
                .isLessThanOrEqualTo(MAX_CONNECTIONS + 5);
        long deadline = System.nanoTime() + REQUEST_TIMEOUT.plusSeconds(10).toNanos();
        for (Socket socket : slow) {
            long left =
                    Math.max(1, Duration.ofNanos(deadline - System.nanoTime()).toMillis());
            assertThat(closedByServer(socket, (int) left))
                    .as("a slow connection is closed by the server")
                    .isTrue();
        }
        assertThat(board.timedOutConnections() + board.displacedConnections()).isGreaterThanOrEqualTo(500);
        assertThat(client.get("/api/sessions").status()).isEqualTo(200);
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", board.port());
        socket.setTcpNoDelay(true);
        return socket;
    }

    /** Sends the byte of {@link #UNFINISHED} at this index; false when the server has closed the socket. */
    private static boolean sendByte(Socket socket, int index) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(UNFINISHED[index % UNFINISHED.length]);
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Waits up to the timeout for the server to close the socket: true when it reads the end or a reset. */
    private static boolean closedByServer(Socket socket, int timeoutMillis) {
        try {
            socket.setSoTimeout(timeoutMillis);
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset by the server
        }
    }

    private static boolean allTrue(boolean[] values) {
        for (boolean value : values) {
            if (!value) {
                return false;
            }
        }
        return true;
    }

    private static int boardThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().startsWith("taskagent-board-"))
                .count();
    }
}
