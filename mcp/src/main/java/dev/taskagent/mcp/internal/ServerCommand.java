package dev.taskagent.mcp.internal;

import dev.taskagent.AddressInUseException;
import dev.taskagent.internal.OriginRules;
import dev.taskagent.internal.SettingRules;
import dev.taskagent.mcp.TaskMcpServer;
import dev.taskagent.mcp.Toolset;
import dev.taskagent.queue.LeaseReaper;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runnable jar's command: {@code java -jar taskagent-mcp-<version>-all.jar --store URL (--stdio |
 * --http [HOST:]PORT) [options]}. Exit codes: 0 when the server stopped normally (stdio input ended, or
 * a signal), 1 when it could not run (store unreachable, address in use), 2 for a bad command line.
 *
 * <p>In stdio mode standard output carries protocol messages only: everything else, logs included, goes
 * to standard error.
 */
public final class ServerCommand {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;

    static final String TOKEN_VARIABLE = "TASKAGENT_MCP_TOKEN";

    /** How the command line names the server's settings in its messages. */
    static final SettingRules.ServerNames NAMES =
            new SettingRules.ServerNames("--http HOST:PORT", "--http [HOST:]PORT", "--token or " + TOKEN_VARIABLE);

    static final String USAGE = """
            Usage: java -jar taskagent-mcp-all.jar --store URL (--stdio | --http [HOST:]PORT) [options]

            Serves taskagent's task queue over MCP (Model Context Protocol), so that agents in any
            language share it.

              --store URL                the task store: a JDBC URL (jdbc:postgresql://...,
                                         jdbc:mariadb://..., jdbc:h2:file:./tasks) or "memory" (lost when
                                         the server stops)
              --stdio                    speak MCP on standard input and output (a client starts the server)
              --http [HOST:]PORT         serve Streamable HTTP at http://HOST:PORT/mcp; HOST is 127.0.0.1
                                         unless given; any non-loopback HOST needs a token
              --toolsets LIST            comma-separated, from queue, worker, taskfile, tasks, graph,
                                         todo, claude-tasks (default: queue)
              --taskfile-project DIR     the project whose .agent/Taskfile.yml the taskfile toolset runs
              --token TOKEN              bearer token every HTTP request must carry (at least 16
                                         characters); prefer the TASKAGENT_MCP_TOKEN environment variable,
                                         which ps cannot show
              --session-id ID            the session that holds tasks made with create_task (default: queue)
              --reclaim-interval TIME    how often claims whose lease expired go back to their queue, e.g.
                                         30s, 5m; "off" to leave that to another process (default: 30s)
              --allowed-origin ORIGIN    also accept requests from this browser origin (repeatable)
              --allowed-host HOST        also accept this Host header, e.g. tasks.internal:8765 (repeatable)
              --max-request-bytes N      largest request accepted (default: 8388608)
              --http-session-idle-timeout TIME
                                         end an HTTP session after this long without requests, e.g. 30m,
                                         2h (default: 30m)
              --max-http-sessions N      most HTTP sessions live at once; more are refused with 503
                                         (default: 1000)
              --help                     print this help
              --version                  print the version

            Exit codes: 0 stopped normally, 1 could not run, 2 bad command line.
            """;

    private ServerCommand() {}

    /**
     * Runs the server until its input ends (stdio) or the process is stopped (HTTP).
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        defaultLogLevels();
        PrintStream protocolOut = System.out;
        // Whatever a library prints must not reach a stdio client as a broken protocol message.
        System.setOut(System.err);
        int code = run(args, System.in, protocolOut, System.err, System.getenv());
        System.exit(code);
    }

    /**
     * Runs the command with the given streams and environment.
     *
     * @param args the command line
     * @param in the stdio transport's input
     * @param out the stdio transport's output, and where help goes
     * @param err where messages go
     * @param environment the environment variables
     * @return the exit code
     */
    static int run(String[] args, InputStream in, PrintStream out, PrintStream err, Map<String, String> environment) {
        Options options;
        try {
            options = Options.parse(args, environment);
        } catch (UsageException e) {
            err.println("taskagent-mcp: " + e.getMessage());
            err.println("Try --help.");
            return EXIT_USAGE;
        }
        if (options.help) {
            out.print(USAGE);
            out.flush();
            return EXIT_OK;
        }
        if (options.version) {
            out.println("taskagent-mcp " + version());
            out.flush();
            return EXIT_OK;
        }
        TaskStore store;
        try {
            store = openStore(options.store);
        } catch (RuntimeException e) {
            err.println("taskagent-mcp: could not open the store: " + e.getMessage());
            return EXIT_FAILED;
        }
        TaskMcpServer server;
        try {
            server = configure(options, store, in, out).build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            store.close();
            err.println("taskagent-mcp: " + e.getMessage());
            err.println("Try --help.");
            return EXIT_USAGE;
        }
        try {
            server.start();
        } catch (AddressInUseException e) {
            store.close();
            err.println("taskagent-mcp: " + e.messageNaming(NAMES.port()));
            return EXIT_FAILED;
        } catch (IllegalStateException e) {
            store.close();
            err.println("taskagent-mcp: " + e.getMessage());
            return EXIT_FAILED;
        }
        Thread stopper = new Thread(() -> stop(server, store), "taskagent-mcp-shutdown");
        Runtime.getRuntime().addShutdownHook(stopper);
        if (options.stdio) {
            err.println("taskagent-mcp " + version() + ": serving " + server.toolNames() + " on stdio");
        } else {
            err.println("taskagent-mcp " + version() + ": serving " + server.toolNames() + " at " + server.endpoint());
        }
        try {
            server.awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stop(server, store);
        return EXIT_OK;
    }

    private static void stop(TaskMcpServer server, TaskStore store) {
        try {
            server.close();
        } finally {
            store.close();
        }
    }

    private static TaskMcpServer.Builder configure(Options options, TaskStore store, InputStream in, PrintStream out) {
        TaskQueue.Builder queue = TaskQueue.builder(store);
        if (options.session != null) {
            queue.sessionId(options.session);
        }
        TaskMcpServer.Builder builder = TaskMcpServer.builder(queue.build()).toolsets(options.toolsets);
        if (options.project != null) {
            builder.taskfileProject(options.project);
        }
        if (options.stdio) {
            builder.stdio(in, out);
        } else {
            builder.bind(options.host, options.port);
        }
        if (options.token != null) {
            builder.token(options.token);
        }
        if (options.reclaimInterval != null) {
            builder.reclaimInterval(options.reclaimInterval);
        }
        builder.allowedOrigins(options.origins.toArray(String[]::new));
        builder.allowedHosts(options.hosts.toArray(String[]::new));
        if (options.maxRequestBytes > 0) {
            builder.maxRequestBytes(options.maxRequestBytes);
        }
        if (options.sessionIdle != null) {
            builder.httpSessionIdleTimeout(options.sessionIdle);
        }
        if (options.maxSessions > 0) {
            builder.maxHttpSessions(options.maxSessions);
        }
        return builder;
    }

    private static TaskStore openStore(String url) {
        if (url.equals("memory")) {
            return new InMemoryTaskStore();
        }
        return JdbcTaskStore.open(url);
    }

    private static String version() {
        String version = ServerCommand.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }

    /** Quiet, stderr-only logging unless the user configured slf4j-simple. */
    private static void defaultLogLevels() {
        setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "info");
        setIfAbsent("org.slf4j.simpleLogger.log.io.modelcontextprotocol", "warn");
        setIfAbsent("org.slf4j.simpleLogger.log.org.eclipse.jetty", "warn");
        setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    /** A command line that cannot be run; the message says what was wrong. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** The parsed command line. */
    static final class Options {
        private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

        String store;
        boolean stdio;
        String host;
        int port = -1;
        List<Toolset> toolsets = List.of(Toolset.QUEUE);
        Path project;
        String token;
        String session;
        Duration reclaimInterval = LeaseReaper.DEFAULT_RECLAIM_INTERVAL;
        final List<String> origins = new ArrayList<>();
        final List<String> hosts = new ArrayList<>();
        int maxRequestBytes;
        Duration sessionIdle;
        int maxSessions;
        boolean help;
        boolean version;

        static Options parse(String[] args, Map<String, String> environment) throws UsageException {
            Options options = new Options();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "--help", "-h" -> options.help = true;
                    case "--version" -> options.version = true;
                    case "--stdio" -> options.stdio = true;
                    case "--store" -> options.store = value(args, ++i, arg);
                    case "--http" -> options.http(value(args, ++i, arg));
                    case "--toolsets" -> options.toolsets = toolsets(value(args, ++i, arg));
                    case "--taskfile-project" -> options.project = Path.of(value(args, ++i, arg));
                    case "--token" -> options.token = value(args, ++i, arg);
                    case "--session-id" -> options.session = value(args, ++i, arg);
                    case "--reclaim-interval" -> options.reclaimInterval = durationOrOff(value(args, ++i, arg), arg);
                    case "--http-session-idle-timeout" -> options.sessionIdle = duration(value(args, ++i, arg), arg);
                    case "--max-http-sessions" -> options.maxSessions = positive(value(args, ++i, arg), arg);
                    case "--allowed-origin" ->
                        options.origins.add(checked(value(args, ++i, arg), arg, OriginRules::allowedOriginProblem));
                    case "--allowed-host" ->
                        options.hosts.add(checked(value(args, ++i, arg), arg, OriginRules::allowedHostProblem));
                    case "--max-request-bytes" -> options.maxRequestBytes = positive(value(args, ++i, arg), arg);
                    default -> throw new UsageException("unknown option '" + arg + "'");
                }
            }
            if (options.help || options.version) {
                return options;
            }
            if (options.store == null) {
                throw new UsageException("--store is required (a JDBC URL, or memory)");
            }
            if (options.stdio == (options.host != null)) {
                throw new UsageException("choose one transport: --stdio or --http [HOST:]PORT");
            }
            if (options.stdio && (options.sessionIdle != null || options.maxSessions > 0)) {
                throw new UsageException(
                        "--http-session-idle-timeout and --max-http-sessions apply to --http; a --stdio server has one session");
            }
            if (options.token == null
                    && environment.get(TOKEN_VARIABLE) != null
                    && !environment.get(TOKEN_VARIABLE).isBlank()) {
                options.token = environment.get(TOKEN_VARIABLE);
            }
            if (options.stdio && options.token != null) {
                // The variable may be set for another server of the same user; a stdio server has no use for it.
                if (environment.get(TOKEN_VARIABLE) != null && options.token.equals(environment.get(TOKEN_VARIABLE))) {
                    options.token = null;
                } else {
                    throw new UsageException("--token protects HTTP; a --stdio server has no use for it");
                }
            }
            if (!options.stdio) {
                options.checkHttp();
            }
            return options;
        }

        /** The rules every front end of the server applies, in the command line's words. */
        private void checkHttp() throws UsageException {
            Optional<String> problem = SettingRules.tokenProblem(token, NAMES)
                    .or(() -> SettingRules.exposureProblem(host, token != null, NAMES));
            if (problem.isPresent()) {
                throw new UsageException(problem.get());
            }
        }

        private void http(String address) throws UsageException {
            int colon = address.lastIndexOf(':');
            String portText = colon < 0 ? address : address.substring(colon + 1);
            host = colon < 0 ? TaskMcpServer.DEFAULT_HOST : address.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (host.isBlank()) {
                throw new UsageException("--http needs [HOST:]PORT, got '" + address + "'");
            }
            try {
                port = Integer.parseInt(portText);
            } catch (NumberFormatException e) {
                throw new UsageException("--http needs [HOST:]PORT with a numeric port, got '" + address + "'");
            }
            Optional<String> problem = SettingRules.portProblem(port, NAMES);
            if (problem.isPresent()) {
                throw new UsageException(problem.get());
            }
        }

        private static String checked(String value, String option, BiFunction<String, String, Optional<String>> rule)
                throws UsageException {
            Optional<String> problem = rule.apply(value, option);
            if (problem.isPresent()) {
                throw new UsageException(problem.get());
            }
            return value;
        }

        private static String value(String[] args, int index, String option) throws UsageException {
            if (index >= args.length || args[index].startsWith("--")) {
                throw new UsageException(option + " needs a value");
            }
            return args[index];
        }

        private static List<Toolset> toolsets(String list) throws UsageException {
            List<Toolset> chosen = new ArrayList<>();
            for (String name : list.split(",")) {
                try {
                    chosen.add(Toolset.fromWireName(name));
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            }
            return chosen;
        }

        private static Duration durationOrOff(String text, String option) throws UsageException {
            return text.strip().equalsIgnoreCase("off") ? null : duration(text, option);
        }

        private static Duration duration(String text, String option) throws UsageException {
            String value = text.strip().toLowerCase(Locale.ROOT);
            Matcher matcher = DURATION.matcher(value);
            Duration duration;
            if (matcher.matches()) {
                long amount = Long.parseLong(matcher.group(1));
                duration = switch (matcher.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    default -> Duration.ofHours(amount);
                };
            } else {
                try {
                    duration = Duration.parse(text.strip().toUpperCase(Locale.ROOT));
                } catch (DateTimeParseException e) {
                    throw new UsageException(option + " needs a duration such as 30s, 5m, 1h" + offHint(option)
                            + ", got '" + text + "'");
                }
            }
            if (duration.isZero() || duration.isNegative()) {
                throw new UsageException(option + " must be positive" + offHint(option) + ", got '" + text + "'");
            }
            return duration;
        }

        private static String offHint(String option) {
            return option.equals("--reclaim-interval") ? " or off" : "";
        }

        private static int positive(String text, String option) throws UsageException {
            try {
                int value = Integer.parseInt(text);
                if (value > 0) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new UsageException(option + " needs a positive whole number, got '" + text + "'");
        }
    }
}
