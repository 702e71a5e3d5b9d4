package dev.taskagent.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.AddressInUseException;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DashboardBuilderTest {
    private static final String TOKEN = "a-token-of-24-characters";
    private final InMemoryTaskStore store = new InMemoryTaskStore();

    @Test
    void anAddressOtherThanLoopbackWithoutATokenIsRefusedNamingTheFix() {
        assertThatThrownBy(() -> TaskDashboard.builder(store).bind("0.0.0.0", 0).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Listening on 0.0.0.0, which is not a loopback address, needs a token: set token(...)"
                        + " (at least 16 characters), or listen on 127.0.0.1 with bind(address, port)");
    }

    @Test
    void anAddressOtherThanLoopbackWithATokenIsAccepted() {
        try (TaskDashboard board = TaskDashboard.builder(store)
                .bind("0.0.0.0", 0)
                .token(TOKEN)
                .build()
                .start()) {
            assertThat(board.port()).isPositive();
            assertThat(board.uri().toString()).isEqualTo("http://127.0.0.1:" + board.port() + "/");
        }
    }

    @Test
    void actionsWithoutATokenAreRefused() {
        assertThatThrownBy(
                        () -> TaskDashboard.builder(store).actionsEnabled(true).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Actions need a token: set token(...) (at least 16 characters), which every action"
                        + " must carry in its Authorization header, or call actionsEnabled(false)");
        assertThat(TaskDashboard.builder(store)
                        .actionsEnabled(true)
                        .actionsEnabled(false)
                        .build()
                        .toString())
                .contains("actions=off");
    }

    @Test
    @SuppressWarnings("deprecation")
    void theOldNamesOfTheActionsAndOriginsSettersStillWork() {
        assertThatThrownBy(() -> TaskDashboard.builder(store).enableActions().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageEndingWith("or call actionsEnabled(false)");
        assertThat(TaskDashboard.builder(store)
                        .token(TOKEN)
                        .enableActions()
                        .build()
                        .toString())
                .contains("actions=on");
        assertThatThrownBy(() -> TaskDashboard.builder(store).publicOrigins("board.example.com"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("allowedOrigins(...) takes origins");
    }

    @Test
    void shortTokensAndTokensWithWhiteSpaceAreRefused() {
        assertThatThrownBy(() -> TaskDashboard.builder(store).token("short"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("token(...) must have at least 16 characters and no white space (got 5 characters)");
        assertThatThrownBy(() -> TaskDashboard.builder(store).token("with space in the middle"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBoardWithoutAStoreOrQueueIsRefused() {
        assertThatThrownBy(() -> TaskDashboard.builder((TaskStore) null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("store");
        assertThatThrownBy(() -> TaskDashboard.builder((TaskQueue) null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("queue");
    }

    @Test
    void eventStreamsThatCouldTakeEveryConnectionAreRefusedNamingBothLimits() {
        assertThatThrownBy(() -> TaskDashboard.builder(store)
                        .maxConnections(8)
                        .maxEventClients(8)
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("maxEventClients (8) must be below maxConnections (8): each event stream holds a"
                        + " connection, and the page needs more for its requests; raise maxConnections(...) or"
                        + " lower maxEventClients(...)");
    }

    @Test
    void connectionLimitsAndRequestTimeoutsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> TaskDashboard.builder(store).maxConnections(1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxConnections must be 2-10000, was 1");
        assertThatThrownBy(() -> TaskDashboard.builder(store).requestTimeout(Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("requestTimeout must be 100 ms to 5 minutes, was PT0.01S");
    }

    @Test
    void anAllowedOriginOrHostThatIsNotOneIsRefusedWithTheMcpServersMessage() {
        for (String origin :
                List.of("board.example.com", "https://board.example.com/board", "ftp://board.example.com")) {
            assertThatThrownBy(() -> TaskDashboard.builder(store).allowedOrigins(origin))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("allowedOrigins(...) takes origins as a browser sends them in its Origin header: http"
                            + " or https, a host and an optional port, or :* for any port, e.g."
                            + " https://tasks.example.com; was '" + origin + "'");
        }
        assertThatThrownBy(() -> TaskDashboard.builder(store).allowedHosts("https://board.example.com"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allowedHosts(...) takes hosts as a browser sends them in its Host header: a host and an"
                        + " optional port, or :* for any port, e.g. tasks.example.com:8443; was"
                        + " 'https://board.example.com'");
    }

    @Test
    void portsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> TaskDashboard.builder(store).bind("127.0.0.1", 70_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Port 70000 is out of range: set bind(address, port) to 0-65535 (0 picks a free port)");
    }

    @Test
    void portZeroPicksAFreePortAndTheBoardStartsOnlyOnce() {
        TaskDashboard board =
                TaskDashboard.builder(store).bind("127.0.0.1", 0).build().start();
        try {
            assertThat(board.port()).isPositive();
            assertThat(new BoardClient(board).get("/").status()).isEqualTo(200);
            assertThatThrownBy(board::start).isInstanceOf(IllegalStateException.class);
        } finally {
            board.close();
        }
        board.close(); // idempotent
        assertThatThrownBy(board::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The task board was already started and closed");
    }

    @Test
    void aPortInUseIsATypedExceptionNamingTheAddressAndTheFix() throws Exception {
        try (ServerSocket occupied = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = occupied.getLocalPort();
            TaskDashboard board =
                    TaskDashboard.builder(store).bind("127.0.0.1", port).build();

            assertThatThrownBy(board::start)
                    .isInstanceOf(AddressInUseException.class)
                    .hasMessage("127.0.0.1:" + port + " is already in use: choose another port with bind(address,"
                            + " port) (0 picks a free port), or stop the process that listens there")
                    .satisfies(thrown -> {
                        AddressInUseException inUse = (AddressInUseException) thrown;
                        assertThat(inUse.host()).isEqualTo("127.0.0.1");
                        assertThat(inUse.port()).isEqualTo(port);
                    });
            board.close();
        }
    }
}
