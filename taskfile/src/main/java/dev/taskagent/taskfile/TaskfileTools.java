package dev.taskagent.taskfile;

import dev.taskagent.tool.Toolbox;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code list_user_tasks} and {@code run_user_task} tools over a project's {@code .agent/Taskfile.yml}
 * (go-task format, a documented subset run in Java with {@code bash}).
 *
 * <pre>{@code
 * Toolbox userTasks = TaskfileTools.forProject(Path.of("/path/to/project"));
 * Toolbox all = agentTools.with(userTasks); // empty when the project has no Taskfile
 * }</pre>
 *
 * <p>When the Taskfile is missing or malformed, the toolbox is empty and one warning is logged (with the
 * line and column of the problem); everything else keeps working. Once registered, the tools re-read the
 * file whenever it changes; if it breaks later, they return an error result naming the line and column.
 * The Taskfile and the {@code dotenv} files it names are only read when they are regular files (symbolic
 * links are followed) of at most 1 MiB, so a file replaced by a named pipe or a link to a device gives an
 * error, not a hang.
 *
 * <p>Each result keeps to {@link Toolbox#DEFAULT_RESULT_BUDGET} tokens: {@code list_user_tasks} lists as many tasks
 * as fit and says how to list the next ones ({@code after}), and {@code run_user_task} shows the start and the end of
 * a long output with a line that counts what was left out between them.
 *
 * <p><b>Trust:</b> a Taskfile is code. Its commands run with the rights of the agent's process; only the
 * arguments a model passes are treated as untrusted (each reaches the command as one literal word).
 *
 * <p>Thread-safe: the tools may serve concurrent runs.
 */
public final class TaskfileTools {
    /** The default timeout of one {@code run_user_task} call. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

    /** The default time processes get between SIGTERM and SIGKILL. */
    public static final Duration DEFAULT_KILL_GRACE_PERIOD = Duration.ofSeconds(2);

    /** The default number of bytes kept of stdout, and of stderr, per run (1 MiB). */
    public static final int DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;

    /** The host environment variables every command gets (when the host has them). */
    public static final List<String> DEFAULT_PASSED_ENV = List.of("PATH", "HOME", "LANG", "TMPDIR", "USER");

    /** Name parts that mark a variable as a secret; such variables are only passed by {@code passSecretEnv}. */
    public static final List<String> SECRET_NAME_PARTS = List.of("KEY", "SECRET", "TOKEN", "PASSWORD", "CREDENTIAL");

    private static final Logger LOG = LoggerFactory.getLogger(TaskfileTools.class);

    private TaskfileTools() {}

    /**
     * Returns the tools for a project, with the default settings.
     *
     * @param projectRoot the folder that holds {@code .agent/Taskfile.yml}; commands run there
     * @return the two tools, or an empty toolbox when the Taskfile is missing, malformed, not a regular file
     *     or larger than 1 MiB, or bash cannot be found (a warning says why)
     * @throws NullPointerException if projectRoot is null
     */
    public static Toolbox forProject(Path projectRoot) {
        return builder(projectRoot).build();
    }

    /**
     * Starts configuring the tools for a project.
     *
     * @param projectRoot the folder that holds {@code .agent/Taskfile.yml}; commands run there
     * @return a builder with the defaults
     * @throws NullPointerException if projectRoot is null
     */
    public static Builder builder(Path projectRoot) {
        return new Builder(projectRoot);
    }

    /**
     * Tells whether a variable name looks like it holds a secret: it contains KEY, SECRET, TOKEN, PASSWORD or
     * CREDENTIAL, in any case.
     *
     * @param name a variable name
     * @return true when it is only passed through {@link Builder#passSecretEnv(String...)}
     */
    public static boolean looksSecret(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return SECRET_NAME_PARTS.stream().anyMatch(upper::contains);
    }

    /**
     * Configures the Taskfile tools. Each setter checks its value at once.
     *
     * <p>Not thread-safe; the toolbox it builds is.
     */
    public static final class Builder {
        private static final Duration MAX_TIMEOUT = Duration.ofHours(24);
        private static final Duration MAX_GRACE = Duration.ofMinutes(1);
        private static final int MIN_OUTPUT_LIMIT = 1024;
        private static final int MAX_OUTPUT_LIMIT = 64 * 1024 * 1024;

        private final Path projectRoot;
        private Duration timeout = DEFAULT_TIMEOUT;
        private Duration killGracePeriod = DEFAULT_KILL_GRACE_PERIOD;
        private int outputLimitBytes = DEFAULT_OUTPUT_LIMIT_BYTES;
        private final Set<String> passedEnv = new LinkedHashSet<>(DEFAULT_PASSED_ENV);
        private Map<String, String> environment;
        private Clock clock = Clock.systemUTC();
        private Consumer<String> warnings = LOG::warn;

        private Builder(Path projectRoot) {
            this.projectRoot = Objects.requireNonNull(projectRoot, "projectRoot");
        }

        /**
         * Sets how long one {@code run_user_task} call may take, deps and defers included; then every
         * process of the run is stopped and the result says it timed out (exit code 124).
         *
         * @param timeout more than zero, at most 24 hours; default 10 minutes
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(MAX_TIMEOUT) > 0) {
                throw new IllegalArgumentException(
                        "timeout must be more than zero and at most 24 hours, not " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets how long the processes of a command get between SIGTERM and SIGKILL.
         *
         * @param killGracePeriod zero to one minute; default 2 seconds
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder killGracePeriod(Duration killGracePeriod) {
            Objects.requireNonNull(killGracePeriod, "killGracePeriod");
            if (killGracePeriod.isNegative() || killGracePeriod.compareTo(MAX_GRACE) > 0) {
                throw new IllegalArgumentException(
                        "killGracePeriod must be between zero and one minute, not " + killGracePeriod);
            }
            this.killGracePeriod = killGracePeriod;
            return this;
        }

        /**
         * Sets how many bytes of stdout, and of stderr, a result keeps: the first and the last half, with a
         * marker that says how many bytes were dropped in between.
         *
         * @param outputLimitBytes 1 KiB to 64 MiB; default 1 MiB
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder outputLimitBytes(int outputLimitBytes) {
            if (outputLimitBytes < MIN_OUTPUT_LIMIT || outputLimitBytes > MAX_OUTPUT_LIMIT) {
                throw new IllegalArgumentException("outputLimitBytes must be between " + MIN_OUTPUT_LIMIT + " and "
                        + MAX_OUTPUT_LIMIT + ", not " + outputLimitBytes);
            }
            this.outputLimitBytes = outputLimitBytes;
            return this;
        }

        /**
         * Passes more host environment variables to the commands, besides PATH, HOME, LANG, TMPDIR and USER.
         *
         * @param names variable names
         * @return this builder
         * @throws IllegalArgumentException if a name is invalid or looks like a secret (see
         *     {@link TaskfileTools#looksSecret(String)}); pass those with {@link #passSecretEnv(String...)}
         */
        public Builder passEnv(String... names) {
            for (String name : names) {
                checkName(name);
                if (looksSecret(name)) {
                    throw new IllegalArgumentException("'" + name + "' looks like a secret (its name contains one of "
                            + SECRET_NAME_PARTS + "), so it is not passed by default. If the tasks really need it,"
                            + " use passSecretEnv(\"" + name + "\").");
                }
            }
            passedEnv.addAll(List.of(names));
            return this;
        }

        /**
         * Passes host environment variables whose names look like secrets (API keys, tokens) to the commands.
         * A model can then make a task print them; pass only what the tasks need.
         *
         * @param names variable names
         * @return this builder
         * @throws IllegalArgumentException if a name is invalid
         */
        public Builder passSecretEnv(String... names) {
            for (String name : names) {
                checkName(name);
            }
            passedEnv.addAll(List.of(names));
            return this;
        }

        /**
         * Sets the host environment the passed variables are taken from.
         *
         * @param environment variables by name; default {@link System#getenv()}
         * @return this builder
         */
        public Builder environment(Map<String, String> environment) {
            this.environment = Map.copyOf(environment);
            return this;
        }

        /**
         * Sets the clock that run durations are measured with.
         *
         * @param clock the clock; default the system clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Receives the warnings instead of the log (for tests). */
        Builder warnings(Consumer<String> warnings) {
            this.warnings = Objects.requireNonNull(warnings, "warnings");
            return this;
        }

        /**
         * Reads the Taskfile once and returns the tools.
         *
         * @return {@code list_user_tasks} and {@code run_user_task}, or an empty toolbox (with one warning
         *     logged) when {@code .agent/Taskfile.yml} is missing, malformed, not a regular file or larger than
         *     1 MiB, or bash cannot be found
         */
        public Toolbox build() {
            Path root = projectRoot.toAbsolutePath().normalize();
            Settings settings = new Settings(root, timeout, killGracePeriod, outputLimitBytes, passed(), clock);
            Path file = settings.taskfilePath();
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                warnings.accept("No .agent/Taskfile.yml in " + root + ": the tools list_user_tasks and run_user_task"
                        + " are not registered.");
                return Toolbox.empty();
            }
            TaskfileSource source = new TaskfileSource(file);
            TaskfileSource.Snapshot snapshot = source.current();
            if (snapshot.problem() != null) {
                warnings.accept(snapshot.problem() + " The tools list_user_tasks and run_user_task are not"
                        + " registered; fix the file and restart.");
                return Toolbox.empty();
            }
            ShellLauncher launcher;
            try {
                launcher = new ShellLauncher(System.getenv("PATH"), killGracePeriod);
            } catch (IllegalStateException e) {
                warnings.accept(e.getMessage() + ". The tools list_user_tasks and run_user_task are not registered.");
                return Toolbox.empty();
            }
            return Toolbox.of(
                            ListUserTasksTool.tool(source, settings), RunUserTaskTool.tool(source, settings, launcher))
                    .withResultBudget(Toolbox.DEFAULT_RESULT_BUDGET);
        }

        private Map<String, String> passed() {
            Map<String, String> source = environment == null ? System.getenv() : environment;
            Map<String, String> passed = new LinkedHashMap<>();
            for (String name : passedEnv) {
                String value = source.get(name);
                if (value != null) {
                    passed.put(name, value);
                }
            }
            return passed;
        }

        private static void checkName(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isEmpty() || name.contains("=") || name.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("'" + name + "' is not a valid environment variable name");
            }
        }
    }
}
