package dev.taskagent.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DashboardEventStreamTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final InMemoryTaskStore store = new InMemoryTaskStore();
    private final TaskQueue queue = TaskQueue.builder(store).build();
    private TaskDashboard board;
    private BoardClient client;

    @BeforeEach
    void startBoard() {
        board = TaskDashboard.builder(store)
                .bind("127.0.0.1", 0)
                .heartbeatInterval(Duration.ofMillis(100))
                .stallTimeout(Duration.ofSeconds(2))
                .build()
                .start();
        client = new BoardClient(board);
    }

    @AfterEach
    void stopBoard() {
        board.close();
    }

    @Test
    void aCommittedChangeArrivesAsAnEventWithItsPosition() throws Exception {
        try (EventClient events = new EventClient(client, Map.of())) {
            assertThat(events.status(WAIT)).isEqualTo(200);
            Task task = queue.create(
                    NewTask.builder("trip", "Book flights").assignee("ann").build());

            EventClient.Event event = events.next(WAIT);

            assertThat(event.type()).isEqualTo("task");
            assertThat(event.data().get("kind").asText()).isEqualTo("created");
            assertThat(event.data().get("task_id").asLong()).isEqualTo(task.id());
            assertThat(event.data().get("session_id").asText()).isEqualTo("trip");
            assertThat(event.id()).isEqualTo(String.valueOf(store.eventFeed().lastPosition()));
        }
    }

    @Test
    void aClientThatComesBackWithLastEventIdGetsWhatItMissedInOrder() throws Exception {
        Task task = queue.create(NewTask.of("trip", "Book flights"));
        long seen = store.eventFeed().lastPosition();
        for (int i = 1; i <= 5; i++) {
            queue.comment(task.id(), "ann", "note " + i);
        }

        try (EventClient events = new EventClient(client, Map.of("Last-Event-ID", String.valueOf(seen)))) {
            List<EventClient.Event> missed = events.next(5, WAIT);

            assertThat(missed)
                    .extracting(event -> Long.parseLong(event.id()))
                    .containsExactly(seen + 1, seen + 2, seen + 3, seen + 4, seen + 5);
            queue.comment(task.id(), "ann", "live again");
            assertThat(Long.parseLong(events.next(WAIT).id())).isEqualTo(seen + 6);
        }
    }

    @Test
    void aClientTooFarBehindIsToldToReload() throws Exception {
        Task task = queue.create(NewTask.of("trip", "Book flights"));
        for (int i = 0; i <= EventStream.MAX_CATCH_UP; i++) {
            store.inTransaction(tx -> tx.appendProgress(task.id(), "p"));
        }

        try (EventClient events = new EventClient(client, Map.of("Last-Event-ID", "0"))) {
            EventClient.Event reset = events.next(WAIT);

            assertThat(reset.type()).isEqualTo("reset");
            assertThat(reset.data().get("position").asLong())
                    .isEqualTo(store.eventFeed().lastPosition());
        }
    }

    @Test
    void anIdleStreamSendsHeartbeats() throws Exception {
        try (EventClient events = new EventClient(client, Map.of())) {
            assertThat(events.nextComment(WAIT)).isEqualTo(": connected");
            assertThat(events.nextComment(WAIT)).isEqualTo(": heartbeat");
        }
    }

    @Test
    void aClientThatNeverReadsIsDroppedWhileAnotherKeepsGettingEveryEvent() throws Exception {
        Task task = queue.create(NewTask.of("trip", "Book flights"));
        int count = 15_000;
        String text = "x".repeat(450);
        try (Socket stuck = new Socket();
                EventClient reader = new EventClient(client, Map.of())) {
            stuck.setReceiveBufferSize(4096);
            stuck.connect(new InetSocketAddress("127.0.0.1", board.port()));
            OutputStream out = stuck.getOutputStream();
            out.write(("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:" + board.port() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(reader.status(WAIT)).isEqualTo(200);
            waitUntil(() -> streamsOpen() == 2);
            long first;

            // Comment events carry their text (up to 500 characters): some 9 MB in all, more than the
            // socket buffers of the client that does not read can hold.
            List<Task> tasks = new java.util.ArrayList<>(List.of(task));
            for (int i = 1; i < 100; i++) {
                tasks.add(queue.create(NewTask.of("trip", "task " + i)));
            }
            first = store.eventFeed().lastPosition() + 1;
            for (int i = 0; i < count; i++) {
                queue.comment(tasks.get(i % tasks.size()).id(), "ann", text);
            }

            reader.next(99, WAIT); // the tasks created above
            List<EventClient.Event> received = reader.next(count, Duration.ofSeconds(60));
            assertThat(received.get(0).id()).isEqualTo(String.valueOf(first));
            assertThat(received.get(count - 1).id()).isEqualTo(String.valueOf(first + count - 1));
            waitUntil(() -> board.droppedEventClients() == 1); // after its write stalled for 2 s
            assertThat(streamsOpen()).isEqualTo(1);
            // The dropped client's connection was closed: it reads what was buffered, then the end.
            stuck.setSoTimeout(20_000);
            long bytes = drain(stuck.getInputStream());
            assertThat(bytes).isLessThan((long) count * text.length());
            assertThat(client.get("/api/sessions").status()).isEqualTo(200);
        }
    }

    @Test
    void theSlotOfAClientThatClosedItsStreamIsFreeForTheNextOneAtOnce() throws Exception {
        try (TaskDashboard small = TaskDashboard.builder(store)
                .bind("127.0.0.1", 0)
                .maxEventClients(2)
                .heartbeatInterval(Duration.ofMinutes(5)) // no heartbeat would notice the closed client
                .build()
                .start()) {
            BoardClient smallClient = new BoardClient(small);
            EventClient leaving = new EventClient(smallClient, Map.of());
            try (EventClient staying = new EventClient(smallClient, Map.of())) {
                assertThat(leaving.status(WAIT)).isEqualTo(200);
                assertThat(staying.status(WAIT)).isEqualTo(200);
                try (EventClient refused = new EventClient(smallClient, Map.of())) {
                    assertThat(refused.status(WAIT)).isEqualTo(503);
                }

                leaving.close();
                try (EventClient next = new EventClient(smallClient, Map.of())) {
                    assertThat(next.status(WAIT)).isEqualTo(200);
                    Task task = queue.create(NewTask.of("trip", "Book flights"));
                    assertThat(next.next(WAIT).data().get("task_id").asLong()).isEqualTo(task.id());
                    assertThat(staying.next(WAIT).data().get("task_id").asLong())
                            .isEqualTo(task.id());
                }
            }
        }
    }

    private int streamsOpen() {
        return board.openEventStreams();
    }

    private static long drain(InputStream in) throws Exception {
        byte[] buffer = new byte[65_536];
        long total = 0;
        for (int read; (read = in.read(buffer)) >= 0; ) {
            total += read;
        }
        return total;
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("The condition did not hold within " + WAIT);
            }
            Thread.sleep(10);
        }
    }
}
