package dev.taskagent.taskfile;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The configuration of the Taskfile tools, as built by {@link TaskfileTools.Builder}.
 *
 * @param projectRoot the folder that holds {@code .agent/}, absolute and normalised
 * @param timeout how long one {@code run_user_task} call may take
 * @param killGracePeriod how long processes have between SIGTERM and SIGKILL
 * @param outputLimitBytes how many bytes of stdout (and of stderr) a result keeps
 * @param environment the host variables passed to every command (already filtered by the allow-list)
 * @param clock the clock durations are measured with
 */
record Settings(
        Path projectRoot,
        Duration timeout,
        Duration killGracePeriod,
        int outputLimitBytes,
        Map<String, String> environment,
        Clock clock) {
    Settings {
        Objects.requireNonNull(projectRoot, "projectRoot");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(killGracePeriod, "killGracePeriod");
        environment = Map.copyOf(environment);
        Objects.requireNonNull(clock, "clock");
    }

    /** @return the Taskfile's path */
    Path taskfilePath() {
        return projectRoot.resolve(".agent").resolve("Taskfile.yml");
    }
}
