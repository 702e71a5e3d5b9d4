package dev.taskagent.examples;

import dev.taskagent.AddressInUseException;
import dev.taskagent.dashboard.TaskDashboard;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.openai.OpenAiChatModel;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The flagship demo: a family-trip conversation becomes a tracked task, a worker agent claims it from the
 * shared queue, executes its steps with live ticks, hands a follow-up to a second agent, and a
 * user-defined Taskfile task runs; a task board is printed at each stage.
 *
 * <p>It runs on the embedded default store, an H2 file under {@code .taskagent-demo/} of the working
 * directory, so the tasks persist between runs: a second run goes on with them instead of creating them
 * again, and {@code --reset} starts afresh. Without {@code OPENAI_API_KEY} or {@code OPENAI_BASE_URL} it
 * uses a scripted model and says so; with either set it uses the real model for extraction and step
 * execution, and a failed model call ends the demo with one line that says what to do.
 */
public final class FlagshipDemo {
    static final String SESSION = "family-trip";
    static final String RESEARCHER = "researcher";
    static final String CONCIERGE = "concierge";

    /** The exit code when the demo stopped on a failure it explained (a model call, {@code --reset}). */
    static final int EXIT_FAILED = 1;

    /** The exit code for arguments the demo does not understand. */
    static final int EXIT_USAGE = 2;

    static final String USAGE = """
            Usage: java -jar taskagent-demo.jar [--reset] [--data DIR] [--dashboard [PORT]]

            Runs the taskagent flagship demo: a conversation becomes a tracked task that a worker agent
            claims, executes step by step and follows up with a second agent.

            Options:
              --reset      remove the demo's tasks (its H2 database in DIR) first and start afresh
              --data DIR   keep the demo's tasks in DIR (default: .taskagent-demo)
              --dashboard [PORT]
                           serve the live task board on 127.0.0.1:PORT (default 8080; 0 picks a free
                           port), tick the steps slowly enough to watch, and wait for Enter at the end
              -h, --help   print this help and exit

            Environment:
              OPENAI_API_KEY, OPENAI_BASE_URL   use a real model (OpenAI or a compatible server); with both
                                                unset the demo runs offline on a scripted model
              OPENAI_MODEL                      the model to ask (default: gpt-4o-mini)

            Exit status: 0 when the demo ran, 1 when it stopped on a failure (such as a model call),
            2 for unknown arguments.
            """;

    private static final String API_KEY = "OPENAI_API_KEY";
    private static final String BASE_URL = "OPENAI_BASE_URL";
    private static final String MODEL = "OPENAI_MODEL";

    private FlagshipDemo() {}

    /**
     * Runs the demo and exits with its status: 0 when it ran, 1 when it stopped on a failure it explained
     * in one line on standard error, 2 for unknown arguments.
     *
     * @param args {@code --reset} to delete the demo's database first; {@code --data DIR} to keep it
     *     elsewhere than {@code .taskagent-demo}; {@code --help} for the usage
     */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(args, System.getenv(), System.in, out, err));
    }

    /**
     * Runs the demo as {@link #main(String[])} does, without exiting.
     *
     * @param args the command-line arguments
     * @param environment where {@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL} and {@code OPENAI_MODEL} are
     *     read
     * @param out where the demo and the usage asked for go
     * @param err where failures and the usage after an unknown argument go
     * @return the exit status
     */
    static int run(String[] args, Map<String, String> environment, PrintStream out, PrintStream err) {
        return run(args, environment, InputStream.nullInputStream(), out, err);
    }

    /**
     * Runs the demo as {@link #main(String[])} does, without exiting, reading Enter from {@code in}.
     *
     * @param args the command-line arguments
     * @param environment where the model settings are read
     * @param in where {@code --dashboard} waits for Enter before it stops the board (the end of input counts)
     * @param out where the demo and the usage asked for go
     * @param err where failures and the usage after an unknown argument go
     * @return the exit status
     */
    static int run(String[] args, Map<String, String> environment, InputStream in, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("taskagent demo: " + e.getMessage());
            err.println();
            err.print(USAGE);
            return EXIT_USAGE;
        }
        if (options.help()) {
            out.print(USAGE);
            return 0;
        }
        try {
            run(options, realModel(environment), in, out);
            return 0;
        } catch (DemoFailure e) {
            err.println("taskagent demo: " + e.getMessage());
            return EXIT_FAILED;
        } catch (AddressInUseException e) {
            err.println("taskagent demo: " + e.messageNaming("--dashboard PORT"));
            return EXIT_FAILED;
        }
    }

    private static void run(Options options, ChatModel realModel, InputStream in, PrintStream out) {
        DemoData data = new DemoData(options.dataDirectory());
        out.println("taskagent flagship demo");
        if (options.reset()) {
            out.println("  reset: " + data.reset(SESSION));
        }
        out.println("  store: H2 file database " + data.jdbcUrl() + " (persists between runs; --reset starts afresh)");
        if (realModel == null) {
            out.println("  model: scripted model (offline, replays a fixed script). Set OPENAI_API_KEY or"
                    + " OPENAI_BASE_URL to use a real model.");
        } else {
            out.println("  model: " + realModel + " (from OPENAI_API_KEY / OPENAI_BASE_URL)");
        }
        try (JdbcTaskStore store = openStore(data)) {
            if (options.dashboardPort() == null) {
                new FlagshipRun(out, store, realModel, Duration.ZERO).run();
                return;
            }
            try (TaskDashboard board = TaskDashboard.builder(store)
                    .bind(TaskDashboard.DEFAULT_HOST, options.dashboardPort())
                    .build()
                    .start()) {
                out.println("  task board: " + board.uri() + "?session=" + SESSION
                        + " (open it now; the steps tick slowly so that you can watch)");
                new FlagshipRun(out, store, realModel, DASHBOARD_TICK_PAUSE).run();
                out.println("Task board: " + board.uri() + "?session=" + SESSION + " - press Enter to stop it.");
                waitForEnter(in);
            }
        }
    }

    // The store's message already says what failed and what to do (another process on the H2 file, most often).
    private static JdbcTaskStore openStore(DemoData data) {
        try {
            return JdbcTaskStore.open(data.jdbcUrl());
        } catch (TaskStoreException e) {
            throw DemoFailure.storeUnavailable(e);
        }
    }

    /** How long the demo pauses before and after each step when the board is on, so that people can watch. */
    static final Duration DASHBOARD_TICK_PAUSE = Duration.ofSeconds(3);

    private static void waitForEnter(InputStream in) {
        try {
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            throw new UncheckedIOException("Reading Enter from standard input failed", e);
        }
    }

    // OpenAiChatModel.fromEnvironment() reads the process's environment; this reads the map it is given,
    // so that a test can point the demo at a local server the way a user points it with the variables.
    private static ChatModel realModel(Map<String, String> environment) {
        String apiKey = setting(environment, API_KEY);
        String baseUrl = setting(environment, BASE_URL);
        String model = setting(environment, MODEL);
        if (apiKey == null && baseUrl == null) {
            return null;
        }
        OpenAiChatModel.Builder builder = OpenAiChatModel.builder();
        try {
            if (apiKey != null) {
                builder.apiKey(apiKey);
            }
            if (baseUrl != null) {
                builder.baseUrl(baseUrl);
            }
            if (model != null) {
                builder.model(model);
            }
            return builder.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw DemoFailure.modelConfiguration(e);
        }
    }

    private static String setting(Map<String, String> environment, String name) {
        String value = environment.get(name);
        return value == null || value.isBlank() ? null : value.strip();
    }

    /**
     * The command line, parsed.
     *
     * @param help whether the usage was asked for
     * @param reset whether to delete the demo's database first
     * @param dataDirectory where the database lives
     * @param dashboardPort the task board's port, or null when the board is not asked for
     */
    record Options(boolean help, boolean reset, Path dataDirectory, Integer dashboardPort) {
        static final Path DEFAULT_DATA_DIRECTORY = Path.of(".taskagent-demo");

        /**
         * Parses the arguments.
         *
         * @param args the command-line arguments
         * @return the options
         * @throws IllegalArgumentException naming the argument that is unknown or incomplete
         */
        static Options parse(String... args) {
            boolean help = false;
            boolean reset = false;
            Path dataDirectory = DEFAULT_DATA_DIRECTORY;
            Integer dashboardPort = null;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "-h", "--help" -> help = true;
                    case "--reset" -> reset = true;
                    case "--data" -> {
                        if (i + 1 >= args.length || args[i + 1].startsWith("-")) {
                            throw new IllegalArgumentException("--data needs a directory, e.g. --data /tmp/demo");
                        }
                        dataDirectory = Path.of(args[++i]);
                    }
                    case "--dashboard" -> {
                        dashboardPort = TaskDashboard.DEFAULT_PORT;
                        if (i + 1 < args.length && !args[i + 1].startsWith("-")) {
                            dashboardPort = port(args[++i]);
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
                }
            }
            return new Options(help, reset, dataDirectory, dashboardPort);
        }

        private static int port(String text) {
            try {
                int port = Integer.parseInt(text);
                if (port >= 0 && port <= 65_535) {
                    return port;
                }
            } catch (NumberFormatException e) {
                // the message below says what is expected
            }
            throw new IllegalArgumentException(
                    "--dashboard takes a port from 0 to 65535 (0 picks a free one), not '" + text + "'");
        }
    }
}
