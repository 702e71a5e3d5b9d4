package dev.taskagent.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runnable jar's command line: help, clear errors and exit codes. */
class ServerCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(Map<String, String> environment, String... args) {
        return ServerCommand.run(
                args,
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                environment);
    }

    private int run(String... args) {
        return run(Map.of(), args);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpPrintsTheUsageAndExitsWithZero() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo(ServerCommand.USAGE)
                .contains("--stdio", "--http");
    }

    @Test
    void aMissingStoreIsAUsageError() {
        assertThat(run("--stdio")).isEqualTo(2);
        assertThat(err()).isEqualTo("taskagent-mcp: --store is required (a JDBC URL, or memory)\nTry --help.\n");
    }

    @Test
    void oneTransportMustBeChosen() {
        assertThat(run("--store", "memory")).isEqualTo(2);
        assertThat(err()).startsWith("taskagent-mcp: choose one transport: --stdio or --http [HOST:]PORT");
        err.reset();
        assertThat(run("--store", "memory", "--stdio", "--http", "8765")).isEqualTo(2);
        assertThat(err()).startsWith("taskagent-mcp: choose one transport");
    }

    @Test
    void anUnknownOptionOrToolsetIsNamed() {
        assertThat(run("--store", "memory", "--stdio", "--verbose")).isEqualTo(2);
        assertThat(err()).startsWith("taskagent-mcp: unknown option '--verbose'");
        err.reset();
        assertThat(run("--store", "memory", "--stdio", "--toolsets", "queue,admin"))
                .isEqualTo(2);
        assertThat(err())
                .startsWith(
                        "taskagent-mcp: Unknown toolset 'admin'; choose from queue, worker, taskfile, tasks, graph, todo, claude-tasks");
    }

    @Test
    void aBadPortOrDurationIsNamed() {
        assertThat(run("--store", "memory", "--http", "localhost:http")).isEqualTo(2);
        assertThat(err())
                .startsWith("taskagent-mcp: --http needs [HOST:]PORT with a numeric port, got 'localhost:http'");
        err.reset();
        assertThat(run("--store", "memory", "--stdio", "--reclaim-interval", "soon"))
                .isEqualTo(2);
        assertThat(err()).startsWith("taskagent-mcp: --reclaim-interval needs a duration such as 30s, 5m, 1h or off");
    }

    @Test
    void listeningBeyondLoopbackWithoutATokenIsRefused() {
        assertThat(run("--store", "memory", "--http", "0.0.0.0:0")).isEqualTo(2);
        assertThat(err())
                .isEqualTo("taskagent-mcp: Listening on 0.0.0.0, which is not a loopback address, needs a token: set"
                        + " --token or TASKAGENT_MCP_TOKEN (at least 16 characters), or listen on 127.0.0.1 with"
                        + " --http HOST:PORT\nTry --help.\n");
    }

    @Test
    void aPortInUseIsOneLineNamingTheAddressAndTheFlagAndExitsWithOne() throws Exception {
        try (ServerSocket occupied = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = occupied.getLocalPort();

            assertThat(run("--store", "memory", "--http", "127.0.0.1:" + port)).isEqualTo(1);
            assertThat(err())
                    .isEqualTo("taskagent-mcp: 127.0.0.1:" + port + " is already in use: choose another port with"
                            + " --http [HOST:]PORT (0 picks a free port), or stop the process that listens there\n");
        }
    }

    @Test
    void aShortTokenIsRefusedInTheCommandLinesWords() {
        assertThat(run("--store", "memory", "--http", "0", "--token", "short")).isEqualTo(2);
        assertThat(err())
                .isEqualTo("taskagent-mcp: --token or TASKAGENT_MCP_TOKEN must have at least 16 characters and no"
                        + " white space (got 5 characters)\nTry --help.\n");
    }

    @Test
    void anAllowedOriginOrHostThatIsNotOneIsRefusedInTheCommandLinesWords() {
        assertThat(run("--store", "memory", "--http", "0", "--allowed-origin", "tasks.example.com"))
                .isEqualTo(2);
        assertThat(err())
                .isEqualTo("taskagent-mcp: --allowed-origin takes origins as a browser sends them in its Origin"
                        + " header: http or https, a host and an optional port, or :* for any port, e.g."
                        + " https://tasks.example.com; was 'tasks.example.com'\nTry --help.\n");
        err.reset();
        assertThat(run("--store", "memory", "--http", "0", "--allowed-host", "https://tasks.example.com"))
                .isEqualTo(2);
        assertThat(err()).startsWith("taskagent-mcp: --allowed-host takes hosts as a browser sends them");
    }

    @Test
    void theTaskfileToolsetWithoutAProjectIsRefused() {
        assertThat(run("--store", "memory", "--stdio", "--toolsets", "taskfile"))
                .isEqualTo(2);
        assertThat(err()).startsWith("taskagent-mcp: The taskfile toolset runs a project's Taskfile");
    }

    @Test
    void anUnreachableStoreExitsWithOne() {
        assertThat(run("--store", "jdbc:postgresql://127.0.0.1:1/none?user=x&connectTimeout=2", "--stdio"))
                .isEqualTo(1);
        assertThat(err()).startsWith("taskagent-mcp: could not open the store: ");
    }

    @Test
    void sessionLimitsAreReadForHttpAndRefusedForStdio() throws Exception {
        ServerCommand.Options http = ServerCommand.Options.parse(
                new String[] {
                    "--store", "memory", "--http", "0", "--http-session-idle-timeout", "5m", "--max-http-sessions", "50"
                },
                Map.of());

        assertThat(http.sessionIdle).isEqualTo(Duration.ofMinutes(5));
        assertThat(http.maxSessions).isEqualTo(50);
        assertThat(run("--store", "memory", "--stdio", "--max-http-sessions", "5"))
                .isEqualTo(2);
        assertThat(err())
                .startsWith(
                        "taskagent-mcp: --http-session-idle-timeout and --max-http-sessions apply to --http; a --stdio"
                                + " server has one session");
        err.reset();
        assertThat(run("--store", "memory", "--http", "0", "--http-session-idle-timeout", "off"))
                .isEqualTo(2);
        assertThat(err())
                .startsWith(
                        "taskagent-mcp: --http-session-idle-timeout needs a duration such as 30s, 5m, 1h, got 'off'");
    }

    @Test
    void aTokenFromTheEnvironmentIsUsedOverHttpAndIgnoredOnStdio() throws Exception {
        ServerCommand.Options http = ServerCommand.Options.parse(
                new String[] {"--store", "memory", "--http", "0.0.0.0:0"},
                Map.of(ServerCommand.TOKEN_VARIABLE, "from-the-environment-0123"));
        ServerCommand.Options stdio = ServerCommand.Options.parse(
                new String[] {"--store", "memory", "--stdio"},
                Map.of(ServerCommand.TOKEN_VARIABLE, "from-the-environment-0123"));

        assertThat(http.token).isEqualTo("from-the-environment-0123");
        assertThat(stdio.token).isNull();
    }

    @Test
    void aStdioServerOnAnEmptyInputExitsWithZero() {
        assertThat(run("--store", "memory", "--stdio")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
