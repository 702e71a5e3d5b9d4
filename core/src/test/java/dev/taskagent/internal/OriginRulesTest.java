package dev.taskagent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.internal.OriginRules.Callers;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Host and Origin rules that the MCP server and the task board share. */
class OriginRulesTest {

    @Test
    void aLoopbackServerAcceptsLoopbackHostsOnAnyPortAndRefusesOthers() {
        OriginRules rules = OriginRules.of("127.0.0.1", List.of(), List.of(), Callers.OWN_PAGE);

        assertThat(rules.checksHost()).isTrue();
        assertThat(rules.hostAllowed("localhost:8080")).isTrue();
        assertThat(rules.hostAllowed("LOCALHOST")).isTrue();
        assertThat(rules.hostAllowed("127.0.0.1:1")).isTrue();
        assertThat(rules.hostAllowed("[::1]:8765")).isTrue();
        assertThat(rules.hostAllowed("evil.example:8080")).isFalse();
        assertThat(rules.hostAllowed("localhost.evil.example")).isFalse();
        assertThat(rules.hostAllowed(null)).isFalse();
        assertThat(rules.hostAllowed(" ")).isFalse();
    }

    @Test
    void aMountedServerChecksHostAsOnLoopback() {
        OriginRules rules = OriginRules.of(null, List.of(), List.of(), Callers.LOOPBACK_PAGES);

        assertThat(rules.checksHost()).isTrue();
        assertThat(rules.hostAllowed("localhost:8080")).isTrue();
        assertThat(rules.hostAllowed("tasks.example.com")).isFalse();
    }

    @Test
    void aServerOnAnotherAddressChecksHostOnlyWhenToldWhichHostsItServes() {
        assertThat(OriginRules.of("0.0.0.0", List.of(), List.of(), Callers.OWN_PAGE)
                        .hostAllowed("anything.example"))
                .isTrue();

        OriginRules named = OriginRules.of("0.0.0.0", List.of("tasks.example.com:8443"), List.of(), Callers.OWN_PAGE);
        assertThat(named.hostAllowed("tasks.example.com:8443")).isTrue();
        assertThat(named.hostAllowed("localhost:8443")).isFalse();
        assertThat(named.hostAllowed("tasks.example.com:8444")).isFalse();
    }

    @Test
    void anAllowedHostMatchesExactlyOrOnAnyPortWithAStarWithoutRegardToCase() {
        OriginRules rules = OriginRules.of(
                "127.0.0.1", List.of("Tasks.Example.com:*", "board.internal:8080"), List.of(), Callers.OWN_PAGE);

        assertThat(rules.hostAllowed("tasks.example.com")).isTrue();
        assertThat(rules.hostAllowed("tasks.example.com:1234")).isTrue();
        assertThat(rules.hostAllowed("board.internal:8080")).isTrue();
        assertThat(rules.hostAllowed("board.internal:8081")).isFalse();
        assertThat(rules.hostAllowed("board.internal")).isFalse();
    }

    @Test
    void theHostOfAnAllowedOriginIsAnAllowedHost() {
        OriginRules rules = OriginRules.of(
                "127.0.0.1",
                List.of(),
                List.of("https://board.example.com", "http://dev.example.com:*"),
                Callers.OWN_PAGE);

        assertThat(rules.hostAllowed("board.example.com")).isTrue();
        assertThat(rules.hostAllowed("board.example.com:443")).isTrue();
        assertThat(rules.hostAllowed("board.example.com:8443")).isFalse();
        assertThat(rules.hostAllowed("dev.example.com:3000")).isTrue();
    }

    @Test
    void theBoardAcceptsItsOwnPageAndAllowedOriginsOnly() {
        OriginRules rules =
                OriginRules.of("127.0.0.1", List.of(), List.of("https://board.example.com"), Callers.OWN_PAGE);

        assertThat(rules.originAllowed(null, "localhost:8080")).isTrue();
        assertThat(rules.originAllowed("http://localhost:8080", "localhost:8080"))
                .isTrue();
        assertThat(rules.originAllowed("http://localhost:3000", "localhost:8080"))
                .isFalse();
        assertThat(rules.originAllowed("https://BOARD.example.com:443", "board.example.com"))
                .isTrue();
        assertThat(rules.originAllowed("https://board.example.com.evil", "localhost:8080"))
                .isFalse();
        assertThat(rules.originAllowed("null", "localhost:8080")).isFalse();
    }

    @Test
    void theMcpServerAcceptsPagesOfEveryLoopbackOriginAndAllowedOnes() {
        OriginRules rules =
                OriginRules.of("127.0.0.1", List.of(), List.of("http://dev.example.com:*"), Callers.LOOPBACK_PAGES);

        assertThat(rules.originAllowed("http://localhost:3000", "127.0.0.1:8765"))
                .isTrue();
        assertThat(rules.originAllowed("https://127.0.0.1", "127.0.0.1:8765")).isTrue();
        assertThat(rules.originAllowed("http://[::1]:6274", "127.0.0.1:8765")).isTrue();
        assertThat(rules.originAllowed("http://dev.example.com:5173", "127.0.0.1:8765"))
                .isTrue();
        assertThat(rules.originAllowed("https://dev.example.com", "127.0.0.1:8765"))
                .isFalse();
        assertThat(rules.originAllowed("http://evil.example", "127.0.0.1:8765")).isFalse();
    }

    @Test
    void badAllowedHostsAndOriginsAreRefusedInTheFrontEndsWords() {
        assertThat(OriginRules.allowedHostProblem("tasks.example.com:8443", "allowedHosts(...)"))
                .isEmpty();
        assertThat(OriginRules.allowedHostProblem("[::1]:*", "allowedHosts(...)"))
                .isEmpty();
        assertThat(OriginRules.allowedHostProblem("https://tasks.example.com", "--allowed-host"))
                .contains("--allowed-host takes hosts as a browser sends them in its Host header: a host and an"
                        + " optional port, or :* for any port, e.g. tasks.example.com:8443; was"
                        + " 'https://tasks.example.com'");
        assertThat(OriginRules.allowedHostProblem("", "x")).isPresent();
        assertThat(OriginRules.allowedHostProblem(null, "x"))
                .contains(
                        "x takes hosts as a browser sends them in its"
                                + " Host header: a host and an optional port, or :* for any port, e.g. tasks.example.com:8443; was null");

        assertThat(OriginRules.allowedOriginProblem("https://tasks.example.com:*", "allowedOrigins(...)"))
                .isEmpty();
        for (String bad : List.of(
                "tasks.example.com",
                "https://tasks.example.com/board",
                "ftp://tasks.example.com",
                "",
                "https://a:1:*")) {
            assertThat(OriginRules.allowedOriginProblem(bad, "taskagent.mcp.allowed-origins"))
                    .contains("taskagent.mcp.allowed-origins takes origins as a browser sends them in its Origin"
                            + " header: http or https, a host and an optional port, or :* for any port, e.g."
                            + " https://tasks.example.com; was '" + bad + "'");
        }
    }
}
