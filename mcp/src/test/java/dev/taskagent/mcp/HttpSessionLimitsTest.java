package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.inmemory.InMemoryTaskStore;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP sessions end after their idle time and are capped in number, so that clients that never delete
 * their sessions (a flood of initialize, agents that crashed) cannot hold the server's memory.
 */
class HttpSessionLimitsTest {
    private static final int MAX_SESSIONS = 20;
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";

    private final InMemoryTaskStore store = new InMemoryTaskStore();
    private final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private TaskMcpServer server;
    private URI endpoint;

    @BeforeEach
    void start() {
        server = TaskMcpServer.builder(store)
                .bind("127.0.0.1", 0)
                .maxHttpSessions(MAX_SESSIONS)
                .httpSessionIdleTimeout(Duration.ofMinutes(30))
                .clock(clock)
                .build()
                .start();
        endpoint = server.endpoint();
    }

    @AfterEach
    void stop() {
        server.close();
        store.close();
    }

    @Test
    void aFloodOfInitializeWithoutDeleteStaysAtTheCapAndTheRestAreRefusedWith503() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        HttpResponse<String> refused = null;
        for (int i = 0; i < 3 * MAX_SESSIONS; i++) {
            HttpResponse<String> response = RawHttp.post(endpoint, RawHttp.INITIALIZE, Map.of());
            statuses.add(response.statusCode());
            if (response.statusCode() != 200) {
                refused = response;
            }
        }

        assertThat(statuses.subList(0, MAX_SESSIONS)).containsOnly(200);
        assertThat(statuses.subList(MAX_SESSIONS, statuses.size())).containsOnly(503);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1800");
        assertThat(refused.body())
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,\"message\":\"The server"
                        + " already holds its limit of 20 MCP sessions; end sessions you no longer use (HTTP DELETE"
                        + " with their Mcp-Session-Id) or try again when idle ones expire (after 30 min).\"}}");
    }

    @Test
    void aDeletedSessionMakesRoomForANewOne() throws Exception {
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < MAX_SESSIONS; i++) {
            sessions.add(RawHttp.initialize(endpoint, Map.of()));
        }
        assertThat(RawHttp.post(endpoint, RawHttp.INITIALIZE, Map.of()).statusCode())
                .isEqualTo(503);

        assertThat(RawHttp.delete(endpoint, sessions.get(0)).statusCode()).isEqualTo(200);

        assertThat(RawHttp.post(endpoint, RawHttp.INITIALIZE, Map.of()).statusCode())
                .isEqualTo(200);
    }

    @Test
    void anIdleSessionExpiresAndItsClientIsToldToInitializeAgain() throws Exception {
        String session = RawHttp.initialize(endpoint, Map.of());
        clock.advance(Duration.ofMinutes(29));
        assertThat(RawHttp.post(endpoint, PING, Map.of("Mcp-Session-Id", session))
                        .statusCode())
                .as("a request within the idle time keeps the session")
                .isEqualTo(200);
        clock.advance(Duration.ofMinutes(29));
        assertThat(RawHttp.post(endpoint, PING, Map.of("Mcp-Session-Id", session))
                        .statusCode())
                .as("the idle time counts from the last request")
                .isEqualTo(200);

        clock.advance(Duration.ofMinutes(31));
        HttpResponse<String> expired = RawHttp.post(endpoint, PING, Map.of("Mcp-Session-Id", session));

        assertThat(expired.statusCode()).isEqualTo(404);
        assertThat(expired.body())
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Session"
                        + " expired after 30 min without requests; send initialize to start a new session.\"}}");
        assertThat(RawHttp.delete(endpoint, session).statusCode())
                .as("the SDK's session is gone too")
                .isEqualTo(404);
        String next = RawHttp.initialize(endpoint, Map.of());
        assertThat(RawHttp.post(endpoint, PING, Map.of("Mcp-Session-Id", next)).statusCode())
                .isEqualTo(200);
    }

    @Test
    void expiredSessionsAreEndedWhenNewSessionsNeedTheRoom() throws Exception {
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < MAX_SESSIONS; i++) {
            sessions.add(RawHttp.initialize(endpoint, Map.of()));
        }
        clock.advance(Duration.ofMinutes(31));

        for (int i = 0; i < MAX_SESSIONS; i++) {
            assertThat(RawHttp.post(endpoint, RawHttp.INITIALIZE, Map.of()).statusCode())
                    .isEqualTo(200);
        }

        assertThat(sessions)
                .allSatisfy(old -> assertThat(RawHttp.delete(endpoint, old).statusCode())
                        .as("old session %s ended in the SDK", old)
                        .isEqualTo(404));
    }

    /** A clock the test moves forward. */
    private static final class SettableClock extends Clock {
        private final AtomicReference<Instant> now;

        SettableClock(Instant start) {
            now = new AtomicReference<>(start);
        }

        void advance(Duration duration) {
            now.updateAndGet(instant -> instant.plus(duration));
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("a fixed zone is enough here");
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    }
}
