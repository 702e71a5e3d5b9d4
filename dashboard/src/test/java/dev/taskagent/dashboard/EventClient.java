package dev.taskagent.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Reads a board's event stream with the JDK's HTTP client, line by line, into events. */
final class EventClient implements AutoCloseable {
    /** One server-sent event. */
    record Event(String id, String type, JsonNode data) {}

    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<String> comments = new LinkedBlockingQueue<>();
    private final CompletableFuture<HttpResponse<Stream<String>>> response;
    private volatile int status;

    EventClient(BoardClient client, Map<String, String> headers) {
        HttpRequest request = client.request("/api/events", headers).GET().build();
        response = client.client().sendAsync(request, HttpResponse.BodyHandlers.ofLines());
        response.thenAcceptAsync(reply -> {
            status = reply.statusCode();
            read(reply.body());
        });
    }

    private void read(Stream<String> lines) {
        String id = null;
        String type = "message";
        StringBuilder data = new StringBuilder();
        for (String line : (Iterable<String>) lines::iterator) {
            if (line.isEmpty()) {
                if (data.length() > 0) {
                    try {
                        events.add(new Event(id, type, BoardClient.MAPPER.readTree(data.toString())));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                id = null;
                type = "message";
                data.setLength(0);
            } else if (line.startsWith(":")) {
                comments.add(line);
            } else if (line.startsWith("id: ")) {
                id = line.substring(4);
            } else if (line.startsWith("event: ")) {
                type = line.substring(7);
            } else if (line.startsWith("data: ")) {
                data.append(line.substring(6));
            }
        }
    }

    int status(Duration timeout) throws Exception {
        response.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return response.get().statusCode();
    }

    /** Waits for the next event. */
    Event next(Duration timeout) throws InterruptedException {
        Event event = events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (event == null) {
            throw new AssertionError("No event within " + timeout + " (status " + status + ")");
        }
        return event;
    }

    /** Waits for a number of events. */
    List<Event> next(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Event> received = new ArrayList<>();
        while (received.size() < count) {
            Event event = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (event == null) {
                throw new AssertionError("Received " + received.size() + " of " + count + " events within " + timeout);
            }
            received.add(event);
        }
        return received;
    }

    String nextComment(Duration timeout) throws InterruptedException {
        String comment = comments.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (comment == null) {
            throw new AssertionError("No comment within " + timeout);
        }
        return comment;
    }

    @Override
    public void close() {
        response.thenAccept(reply -> reply.body().close());
        response.cancel(true);
    }
}
