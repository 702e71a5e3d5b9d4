package dev.taskagent.taskfile;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of one {@code run_user_task} call.
 *
 * @param task the task's name
 * @param args the arguments, as passed
 * @param isSuccess whether the task succeeded (or was up to date)
 * @param exitCode the exit status: 0 on success, the failing command's status, 124 on timeout, or null
 *     when the run stopped without a failing command (a missing variable, a refused dir)
 * @param isTimedOut whether the deadline stopped it
 * @param duration how long it took
 * @param stdout the kept stdout, neutralised
 * @param stderr the kept stderr, neutralised
 * @param stdoutDroppedBytes how many stdout bytes were dropped
 * @param stderrDroppedBytes how many stderr bytes were dropped
 * @param message a sentence for the model about what happened
 */
record RunResult(
        String task,
        List<String> args,
        boolean isSuccess,
        Integer exitCode,
        boolean isTimedOut,
        Duration duration,
        String stdout,
        String stderr,
        long stdoutDroppedBytes,
        long stderrDroppedBytes,
        String message) {
    RunResult {
        Objects.requireNonNull(task, "task");
        args = List.copyOf(args);
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(stdout, "stdout");
        Objects.requireNonNull(stderr, "stderr");
        Objects.requireNonNull(message, "message");
    }

    /** @return whether some output was dropped */
    boolean isTruncated() {
        return stdoutDroppedBytes > 0 || stderrDroppedBytes > 0;
    }
}
