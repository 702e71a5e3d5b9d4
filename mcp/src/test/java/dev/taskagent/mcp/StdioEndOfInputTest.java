package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that sends its calls and closes the server's standard input at once, as a script piping
 * requests in does: the server answers every call it read, then closes its store and exits with 0.
 */
class StdioEndOfInputTest {
    private static final int CALLS = 100;
    private static final Pattern ID = Pattern.compile("^\\{\"jsonrpc\":\"2.0\",\"id\":(\\d+),");

    @TempDir
    Path directory;

    @Test
    void everyCallSentBeforeTheInputEndsIsAnsweredAndTheServerExitsCleanly() throws Exception {
        Set<Long> before = ChildProcesses.descendants();
        Path stderr = directory.resolve("stderr.txt");
        Process server = new ProcessBuilder(ChildProcesses.serverCommand(
                        "--store", "jdbc:h2:file:" + directory.resolve("tasks"), "--stdio"))
                .redirectError(stderr.toFile())
                .start();
        try {
            StringBuilder requests = new StringBuilder();
            requests.append("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n");
            requests.append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
            for (int id = 2; id < CALLS + 2; id++) {
                requests.append("{\"jsonrpc\":\"2.0\",\"id\":")
                        .append(id)
                        .append(",\"method\":\"tools/call\",\"params\":{\"name\":\"create_task\",\"arguments\":"
                                + "{\"description\":\"task ")
                        .append(id)
                        .append("\"}}}\n");
            }
            CompletableFuture<List<String>> replies = CompletableFuture.supplyAsync(() -> readAll(server));
            try (OutputStream in = server.getOutputStream()) {
                in.write(requests.toString().getBytes(StandardCharsets.UTF_8));
            }

            List<String> lines = replies.get(60, TimeUnit.SECONDS);
            assertThat(server.waitFor(60, TimeUnit.SECONDS))
                    .as("the server exits")
                    .isTrue();
            assertThat(server.exitValue()).isZero();
            Set<Integer> answered = lines.stream()
                    .map(ID::matcher)
                    .filter(Matcher::find)
                    .map(matcher -> Integer.parseInt(matcher.group(1)))
                    .collect(Collectors.toSet());
            assertThat(answered)
                    .containsExactlyInAnyOrderElementsOf(
                            IntStream.range(1, CALLS + 2).boxed().toList());
            assertThat(lines)
                    .filteredOn(line -> line.contains("\"error\"") || line.contains("\"isError\":true"))
                    .isEmpty();
            assertThat(Files.readString(stderr))
                    .doesNotContain("Exception", "\tat ")
                    .doesNotContainIgnoringCase("error");
        } finally {
            ChildProcesses.stop(server);
            ChildProcesses.assertNoneLeftBesides(before);
        }
    }

    private static List<String> readAll(Process server) {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            return out.lines().toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
