package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.h2.tools.Server;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The event feed across processes: two writer JVMs work tasks through the queue and a step executor (claim,
 * move, claim again, tick two steps, complete) while a subscriber JVM follows the feed;
 * the subscriber is killed with SIGKILL mid-run and started again from the last position it printed, and
 * on PostgreSQL the server terminates its listening connection. Together the two subscribers must see every
 * committed change exactly once, positions one after the other, each task's changes in the order they
 * committed. Runs on PostgreSQL and MariaDB when their URLs are set, and on H2 in server mode.
 */
class FeedProcessTest {
    private static final int TASKS_PER_WRITER = 150;
    /** What the writers do to each task, in order, as the feed names it. */
    private static final List<String> KINDS =
            List.of("created", "claimed", "moved", "claimed", "step_completed", "step_completed", "completed");

    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @TempDir
    Path folder;

    static Stream<String> databases() {
        List<String> names = new ArrayList<>(List.of("h2-server"));
        if (TestDatabase.POSTGRES.isConfigured()) {
            names.add("postgresql");
        }
        if (TestDatabase.MARIADB.isConfigured()) {
            names.add("mariadb");
        }
        return names.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aSubscriberInAnotherProcessSeesEveryChangeOnceInOrderAcrossAKillAndALostConnection(String database)
            throws Exception {
        Server h2 = null;
        String url;
        String listenerName = "feed-test-" + UUID.randomUUID().toString().substring(0, 8);
        switch (database) {
            case "postgresql" -> url = TestDatabase.POSTGRES.newUrl() + "&ApplicationName=" + listenerName;
            case "mariadb" -> url = TestDatabase.MARIADB.newUrl();
            default -> {
                h2 = Server.createTcpServer("-tcpPort", "0", "-baseDir", folder.toString(), "-ifNotExists")
                        .start();
                url = "jdbc:h2:tcp://localhost:" + h2.getPort() + "/feed";
            }
        }
        List<ChildJvm> processes = new ArrayList<>();
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            ChildJvm first = start(processes, "listener-1", url, "listen", "0");
            ChildJvm writer1 = start(processes, "writer-1", url, "write", "writer-1", String.valueOf(TASKS_PER_WRITER));
            ChildJvm writer2 = start(processes, "writer-2", url, "write", "writer-2", String.valueOf(TASKS_PER_WRITER));

            first.awaitLine(line -> first.count(printed -> printed.startsWith("EVENT ")) >= 200, DEADLINE);
            first.kill9();
            List<Event> seenByFirst = events(first);
            long resumeAfter = seenByFirst.get(seenByFirst.size() - 1).position();
            ChildJvm second = start(processes, "listener-2", url, "listen", String.valueOf(resumeAfter));

            if (database.equals("postgresql")) {
                second.awaitLine(line -> line.startsWith("EVENT "), DEADLINE);
                assertThat(terminateListeningBackends(listenerName))
                        .as("listening connections the server terminated")
                        .isEqualTo(1);
                awaitListening(listenerName);
            }

            writer1.awaitExit(DEADLINE);
            writer2.awaitExit(DEADLINE);
            long last = store.eventFeed().lastPosition();
            assertThat(last).isEqualTo(2L * TASKS_PER_WRITER * KINDS.size());
            second.awaitLine(line -> line.startsWith("EVENT " + last + " "), DEADLINE);

            List<Event> seen = new ArrayList<>(seenByFirst);
            seen.addAll(events(second));
            assertThat(seen.stream().map(Event::position))
                    .as("positions seen by the two subscribers, in the order they saw them")
                    .containsExactlyElementsOf(
                            LongStream.rangeClosed(1, last).boxed().toList());
            Map<Long, List<Event>> byTask = new HashMap<>();
            for (Event event : seen) {
                byTask.computeIfAbsent(event.taskId(), id -> new ArrayList<>()).add(event);
            }
            assertThat(byTask).hasSize(2 * TASKS_PER_WRITER);
            byTask.forEach((taskId, events) -> {
                assertThat(events)
                        .as("task %d's changes, in the order they committed", taskId)
                        .extracting(Event::kind)
                        .containsExactlyElementsOf(KINDS);
                assertThat(events)
                        .as("task %d's versions", taskId)
                        .extracting(Event::version)
                        .isSorted()
                        .doesNotHaveDuplicates()
                        .last()
                        .isEqualTo(store.findTask(taskId).orElseThrow().version());
            });
        } finally {
            for (ChildJvm process : processes) {
                process.close();
            }
            if (h2 != null) {
                h2.stop();
            }
        }
    }

    private ChildJvm start(List<ChildJvm> processes, String name, String url, String... arguments) throws Exception {
        List<String> all = new ArrayList<>(List.of(url));
        all.addAll(List.of(arguments));
        ChildJvm process = ChildJvm.start(name, folder, FeedProcessMain.class, all.toArray(String[]::new));
        processes.add(process);
        process.awaitLine("READY"::equals, DEADLINE);
        return process;
    }

    /** An event as a subscriber printed it. */
    private record Event(long position, long taskId, long version, String kind) {}

    /** The events a subscriber printed. */
    private static List<Event> events(ChildJvm listener) {
        return listener.lines().stream()
                .filter(line -> line.startsWith("EVENT "))
                .map(line -> {
                    String[] fields = line.split(" ");
                    return new Event(
                            Long.parseLong(fields[1]), Long.parseLong(fields[2]), Long.parseLong(fields[3]), fields[4]);
                })
                .toList();
    }

    private static int terminateListeningBackends(String applicationName) throws Exception {
        try (Connection connection = DriverManager.getConnection(TestDatabase.POSTGRES.url());
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))"
                        + " FROM pg_stat_activity WHERE application_name = '" + applicationName + "'"
                        + " AND query LIKE 'LISTEN%'")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** Waits until the subscriber listens again on a new connection. */
    private static void awaitListening(String applicationName) throws Exception {
        Instant end = Instant.now().plus(DEADLINE);
        try (Connection connection = DriverManager.getConnection(TestDatabase.POSTGRES.url());
                Statement statement = connection.createStatement()) {
            while (Instant.now().isBefore(end)) {
                try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE application_name = '" + applicationName + "' AND query LIKE 'LISTEN%'")) {
                    rows.next();
                    if (rows.getInt(1) == 1) {
                        return;
                    }
                }
                Thread.sleep(50);
            }
        }
        throw new AssertionError("The subscriber did not listen again within " + DEADLINE);
    }
}
