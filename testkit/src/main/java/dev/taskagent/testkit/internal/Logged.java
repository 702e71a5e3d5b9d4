package dev.taskagent.testkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * What an action returned, and what the library logged on standard error (where slf4j-simple writes by
 * default) while it ran. For the kit's suites; not API.
 *
 * @param value what the action returned
 * @param log what was written to standard error meanwhile
 * @param <T> the action's result
 */
public record Logged<T>(T value, String log) {

    /**
     * Runs an action and keeps what was logged meanwhile. Not thread-safe: it swaps {@code System.err}.
     *
     * @param action the action
     * @param <T> its result
     * @return its result and the log
     */
    public static <T> Logged<T> of(Supplier<T> action) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            return new Logged<>(action.get(), log.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(originalErr);
        }
    }

    /**
     * Checks that a failed run was logged once, at WARN, in one line, without a stack trace. Checked when
     * slf4j-simple is the logging backend; another backend logs elsewhere.
     *
     * @param message how the warning line ends
     */
    public void assertOneWarning(String message) {
        if (!LoggerFactory.getILoggerFactory().getClass().getName().startsWith("org.slf4j.simple")) {
            return;
        }
        assertThat(log.lines().filter(line -> line.contains("WARN")))
                .singleElement()
                .satisfies(line -> assertThat(line).endsWith(message));
        assertThat(log.lines()).noneMatch(line -> line.startsWith("\tat "));
    }
}
