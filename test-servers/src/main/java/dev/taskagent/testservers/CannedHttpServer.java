package dev.taskagent.testservers;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.taskagent.testservers.FakeOpenAiServer.CannedResponse;
import dev.taskagent.testservers.FakeOpenAiServer.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The part the fake provider servers share: a loopback HTTP server that answers each request with the next
 * queued {@link CannedResponse} and records every request. What a server answers when nothing is queued is
 * its provider's error. Thread-safe.
 */
final class CannedHttpServer implements AutoCloseable {
    private final String name;
    private final IntFunction<CannedResponse> nothingQueued;
    private final HttpServer server;
    private final ExecutorService executor;
    private final BlockingQueue<CannedResponse> responses = new LinkedBlockingQueue<>();
    private final BlockingQueue<RecordedRequest> unread = new LinkedBlockingQueue<>();
    private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();

    /**
     * Starts a server on 127.0.0.1 and a free port.
     *
     * @param name the fake's name, for thread names and messages ({@code fake-openai-server})
     * @param nothingQueued the answer to the n-th request (1-based) when no response is queued
     */
    CannedHttpServer(String name, IntFunction<CannedResponse> nothingQueued) {
        this.name = name;
        this.nothingQueued = nothingQueued;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + name + " on 127.0.0.1", e);
        }
        executor = Executors.newFixedThreadPool(4, runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** @return {@code http://127.0.0.1:<port>} */
    String origin() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void enqueue(CannedResponse response) {
        responses.add(response);
    }

    List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    /** Waits (up to 10 s) for the next request not taken yet. */
    RecordedRequest takeRequest() {
        try {
            RecordedRequest request = unread.poll(10, TimeUnit.SECONDS);
            if (request == null) {
                throw new AssertionError("The " + name + " received no request within 10 s");
            }
            return request;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting for a request", e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            RecordedRequest request = new RecordedRequest(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    Map.copyOf(exchange.getRequestHeaders()),
                    body);
            requests.add(request);
            unread.add(request);
            CannedResponse response = responses.poll();
            if (response == null) {
                response = nothingQueued.apply(requests.size());
            }
            response.writeTo(exchange);
        }
    }
}
