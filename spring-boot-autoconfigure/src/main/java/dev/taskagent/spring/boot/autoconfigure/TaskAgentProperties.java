package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.internal.OriginRules;
import dev.taskagent.internal.SettingRules;
import dev.taskagent.queue.Backoff;
import dev.taskagent.queue.LeaseReaper;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.task.NewTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code taskagent.*} properties of the Spring Boot starter. Checked once bound: a value out of range or
 * two that contradict each other stop the application context with a message that names the property.
 *
 * <p>Not thread-safe while Spring binds it; read-only afterwards.
 */
@ConfigurationProperties(prefix = TaskAgentProperties.PREFIX)
public class TaskAgentProperties implements InitializingBean {

    /** The prefix of every property. */
    public static final String PREFIX = "taskagent";

    /** Where tasks live. */
    private final Store store = new Store();

    /** The OpenAI adapter, used when the application has no ChatModel bean of its own. */
    private final OpenAi openai = new OpenAi();

    /** The extraction agent. */
    private final Agent agent = new Agent();

    /** The work queue. */
    private final Queue queue = new Queue();

    /** The step executor. */
    private final Steps steps = new Steps();

    /** The lease reaper, which takes back the tasks of workers whose lease expired. */
    private final Reaper reaper = new Reaper();

    /** {@code taskagent.worker.*}: the worker run for a {@code TaskHandler} bean. */
    private final Worker worker = new Worker();

    /** The MCP server over HTTP. */
    private final Mcp mcp = new Mcp();

    /** The task board in the browser. */
    private final Dashboard dashboard = new Dashboard();

    /** Micrometer observations and metrics. */
    private final Observations observations = new Observations();

    /** @return the store's properties */
    public Store getStore() {
        return store;
    }

    /** @return the OpenAI adapter's properties */
    public OpenAi getOpenai() {
        return openai;
    }

    /** @return the agent's properties */
    public Agent getAgent() {
        return agent;
    }

    /** @return the queue's properties */
    public Queue getQueue() {
        return queue;
    }

    /** @return the step executor's properties */
    public Steps getSteps() {
        return steps;
    }

    /** @return the reaper's properties */
    public Reaper getReaper() {
        return reaper;
    }

    /** @return the worker's properties */
    public Worker getWorker() {
        return worker;
    }

    /** @return the MCP server's properties */
    public Mcp getMcp() {
        return mcp;
    }

    /** @return the task board's properties */
    public Dashboard getDashboard() {
        return dashboard;
    }

    /** @return the observations' properties */
    public Observations getObservations() {
        return observations;
    }

    /**
     * Checks every property and the rules between them, once Spring bound them.
     *
     * @throws IllegalStateException naming every property that is wrong, and why
     */
    @Override
    public void afterPropertiesSet() {
        List<String> problems = new ArrayList<>();
        openai.check(problems);
        agent.check(problems);
        queue.check(problems);
        steps.check(problems);
        reaper.check(problems);
        worker.check(problems);
        mcp.check(problems);
        dashboard.check(problems);
        if (observations.gaugeRefresh == null || observations.gaugeRefresh.isNegative()) {
            problems.add(PREFIX + ".observations.gauge-refresh must not be negative, was " + observations.gaugeRefresh);
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Invalid taskagent configuration: " + String.join("; ", problems));
        }
    }

    private static void positive(List<String> problems, String property, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            problems.add(PREFIX + "." + property + " must be a positive duration (e.g. 30s), was " + value);
        }
    }

    private static void atLeast(List<String> problems, String property, int value, int minimum) {
        if (value < minimum) {
            problems.add(PREFIX + "." + property + " must be at least " + minimum + ", was " + value);
        }
    }

    /** Which store the starter creates when the application has no {@code TaskStore} bean. */
    public enum StoreType {
        /** A JDBC store on the application's DataSource when it has one, else the in-memory store. */
        AUTO,
        /** A JDBC store on the application's DataSource; the context fails without one. */
        JDBC,
        /** The in-memory store, even when there is a DataSource: nothing is persisted. */
        IN_MEMORY
    }

    /** {@code taskagent.store.*}. */
    public static class Store {
        /** Whether the starter creates a TaskStore bean (when the application has none). */
        private boolean enabled = true;

        /** Which store to create: auto (JDBC on the DataSource if there is one, else in memory), jdbc, in-memory. */
        private StoreType type = StoreType.AUTO;

        /** @return whether the store bean is created */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether the store bean is created */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the store to create */
        public StoreType getType() {
            return type;
        }

        /** @param type the store to create */
        public void setType(StoreType type) {
            this.type = type;
        }
    }

    /** {@code taskagent.openai.*}. */
    public static class OpenAi {
        /** Whether the starter creates an OpenAI ChatModel (when the application has none and an API key is set). */
        private boolean enabled = true;

        /** The API key; the ChatModel bean is created when it or base-url is set (an empty value counts as unset). */
        private String apiKey;

        /** The server's base URL, for OpenAI-compatible servers; OpenAI's own when unset. */
        private String baseUrl;

        /** The model every request asks for; required with base-url, gpt-4o-mini by default otherwise. */
        private String model;

        /** How long one attempt of a request may take. */
        private Duration timeout = Duration.ofMinutes(10);

        /** How often a failed request is retried. */
        private int maxRetries = 2;

        void check(List<String> problems) {
            if (!enabled) {
                return;
            }
            if (present(baseUrl) && !present(model)) {
                problems.add(PREFIX + ".openai.base-url is set (" + baseUrl + ") but " + PREFIX
                        + ".openai.model is not: name the model that server serves");
            }
            positive(problems, "openai.timeout", timeout);
            atLeast(problems, "openai.max-retries", maxRetries, 0);
        }

        /** @return whether the adapter is created */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether the adapter is created */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the API key, or null */
        public String getApiKey() {
            return apiKey;
        }

        /** @param apiKey the API key */
        public void setApiKey(String apiKey) {
            this.apiKey = apiKey;
        }

        /** @return the base URL, or null */
        public String getBaseUrl() {
            return baseUrl;
        }

        /** @param baseUrl the base URL */
        public void setBaseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
        }

        /** @return the model, or null */
        public String getModel() {
            return model;
        }

        /** @param model the model */
        public void setModel(String model) {
            this.model = model;
        }

        /** @return the timeout of one attempt */
        public Duration getTimeout() {
            return timeout;
        }

        /** @param timeout the timeout of one attempt */
        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        /** @return how often a failed request is retried */
        public int getMaxRetries() {
            return maxRetries;
        }

        /** @param maxRetries how often a failed request is retried */
        public void setMaxRetries(int maxRetries) {
            this.maxRetries = maxRetries;
        }
    }

    /** {@code taskagent.agent.*}. */
    public static class Agent {
        /** Whether the starter creates a TaskAgent bean (when there is a store and a chat model). */
        private boolean enabled = true;

        /** How many times one extraction run may call the model. */
        private int maxIterations = TaskAgent.Builder.DEFAULT_MAX_ITERATIONS;

        /** Whether the model is offered set_task_steps, which gives a task a Markdown checklist. */
        private boolean stepsTool;

        void check(List<String> problems) {
            atLeast(problems, "agent.max-iterations", maxIterations, 1);
        }

        /** @return whether the agent is created */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether the agent is created */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the model calls one run may make */
        public int getMaxIterations() {
            return maxIterations;
        }

        /** @param maxIterations the model calls one run may make */
        public void setMaxIterations(int maxIterations) {
            this.maxIterations = maxIterations;
        }

        /** @return whether set_task_steps is offered */
        public boolean isStepsTool() {
            return stepsTool;
        }

        /** @param stepsTool whether set_task_steps is offered */
        public void setStepsTool(boolean stepsTool) {
            this.stepsTool = stepsTool;
        }
    }

    /** {@code taskagent.queue.*}. */
    public static class Queue {
        /** Whether the starter creates a TaskQueue bean (when there is a store). */
        private boolean enabled = true;

        /** The session that holds the tasks created through the queue. */
        private String sessionId = TaskQueue.DEFAULT_SESSION_ID;

        /** How long a claim holds its task without a heartbeat before a reclaim may take it back. */
        private Duration leaseDuration = TaskQueue.DEFAULT_LEASE;

        /** How many claims a task may use before an expired lease fails it (a dead letter). */
        private int maxAttempts = TaskQueue.DEFAULT_MAX_ATTEMPTS;

        /**
         * How long a task waits after its first failed attempt (an expired lease, a worker's handler that threw)
         * before it may be claimed again; doubled after each further one, with jitter. 0 for no wait.
         */
        private Duration backoffFirst = Duration.ofSeconds(10);

        /** The longest wait between attempts. */
        private Duration backoffMax = Duration.ofHours(1);

        void check(List<String> problems) {
            positive(problems, "queue.lease-duration", leaseDuration);
            if (backoffFirst == null || backoffFirst.isNegative()) {
                problems.add(PREFIX + ".queue.backoff-first must be 0 or a positive duration (e.g. 10s), was "
                        + backoffFirst);
            } else if (backoffMax == null
                    || backoffMax.compareTo(backoffFirst) < 0
                    || backoffMax.compareTo(NewTask.MAX_SCHEDULE_AHEAD) > 0) {
                problems.add(PREFIX + ".queue.backoff-max must be between backoff-first (" + backoffFirst
                        + ") and 3660d, was " + backoffMax);
            }
            if (leaseDuration != null && leaseDuration.compareTo(Duration.ofDays(1)) > 0) {
                problems.add(PREFIX + ".queue.lease-duration must be at most 1 day, was " + leaseDuration);
            }
            atLeast(problems, "queue.max-attempts", maxAttempts, 1);
            if (sessionId == null || sessionId.isBlank()) {
                problems.add(PREFIX + ".queue.session-id must not be blank");
            }
        }

        /** @return whether the queue is created */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether the queue is created */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the queue's session */
        public String getSessionId() {
            return sessionId;
        }

        /** @param sessionId the queue's session */
        public void setSessionId(String sessionId) {
            this.sessionId = sessionId;
        }

        /** @return the lease of a claim */
        public Duration getLeaseDuration() {
            return leaseDuration;
        }

        /** @param leaseDuration the lease of a claim */
        public void setLeaseDuration(Duration leaseDuration) {
            this.leaseDuration = leaseDuration;
        }

        /** @return the claims a task may use */
        public int getMaxAttempts() {
            return maxAttempts;
        }

        /** @param maxAttempts the claims a task may use */
        public void setMaxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        /** @return the wait after the first failed attempt; 0 for none */
        public Duration getBackoffFirst() {
            return backoffFirst;
        }

        /** @param backoffFirst the wait after the first failed attempt; 0 for none */
        public void setBackoffFirst(Duration backoffFirst) {
            this.backoffFirst = backoffFirst;
        }

        /** @return the longest wait between attempts */
        public Duration getBackoffMax() {
            return backoffMax;
        }

        /** @param backoffMax the longest wait between attempts */
        public void setBackoffMax(Duration backoffMax) {
            this.backoffMax = backoffMax;
        }

        /** @return the backoff these properties describe */
        Backoff backoff() {
            return backoffFirst.isZero() ? Backoff.none() : Backoff.exponential(backoffFirst, backoffMax);
        }
    }

    /** {@code taskagent.steps.*}. */
    public static class Steps {
        /** Whether the starter creates a StepExecutor bean (when there is a store and a chat model). */
        private boolean enabled = true;

        /** How many model calls one step execution may make. */
        private int maxModelCalls = StepExecutor.DEFAULT_MAX_MODEL_CALLS;

        void check(List<String> problems) {
            atLeast(problems, "steps.max-model-calls", maxModelCalls, 1);
        }

        /** @return whether the executor is created */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether the executor is created */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the model calls one run may make */
        public int getMaxModelCalls() {
            return maxModelCalls;
        }

        /** @param maxModelCalls the model calls one run may make */
        public void setMaxModelCalls(int maxModelCalls) {
            this.maxModelCalls = maxModelCalls;
        }
    }

    /** {@code taskagent.worker.*}: the {@link dev.taskagent.queue.TaskWorker} run for a {@code TaskHandler} bean. */
    public static class Worker {
        /** Whether a TaskHandler bean is run by a worker while the application context runs. */
        private boolean enabled = true;

        /** The agent whose tasks the worker claims; required when there is a TaskHandler bean. */
        private String agent;

        /** How many tasks the worker handles at once, each on a thread of its own; 1 to 1024. */
        private int concurrency = dev.taskagent.queue.TaskWorker.DEFAULT_CONCURRENCY;

        /** How long an idle worker waits before it claims again when the event feed told it of nothing; 10ms to 1h. */
        private Duration pollInterval = dev.taskagent.queue.TaskWorker.DEFAULT_POLL_INTERVAL;

        /** How long stopping waits for running handlers before it releases their claims; 0 to 1h. */
        private Duration drainTimeout = dev.taskagent.queue.TaskWorker.DEFAULT_DRAIN_TIMEOUT;

        void check(List<String> problems) {
            if (concurrency < 1 || concurrency > 1_024) {
                problems.add(PREFIX + ".worker.concurrency must be between 1 and 1024, was " + concurrency);
            }
            if (pollInterval == null
                    || pollInterval.compareTo(Duration.ofMillis(10)) < 0
                    || pollInterval.compareTo(Duration.ofHours(1)) > 0) {
                problems.add(PREFIX + ".worker.poll-interval must be between 10ms and 1h, was " + pollInterval);
            }
            if (drainTimeout == null || drainTimeout.isNegative() || drainTimeout.compareTo(Duration.ofHours(1)) > 0) {
                problems.add(PREFIX + ".worker.drain-timeout must be between 0s and 1h, was " + drainTimeout);
            }
        }

        /** @return whether a TaskHandler bean is run by a worker */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether a TaskHandler bean is run by a worker */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the agent whose tasks the worker claims, or null */
        public String getAgent() {
            return agent;
        }

        /** @param agent the agent whose tasks the worker claims */
        public void setAgent(String agent) {
            this.agent = agent;
        }

        /** @return how many tasks the worker handles at once */
        public int getConcurrency() {
            return concurrency;
        }

        /** @param concurrency how many tasks the worker handles at once */
        public void setConcurrency(int concurrency) {
            this.concurrency = concurrency;
        }

        /** @return how long an idle worker waits before it claims again */
        public Duration getPollInterval() {
            return pollInterval;
        }

        /** @param pollInterval how long an idle worker waits before it claims again */
        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }

        /** @return how long stopping waits for running handlers */
        public Duration getDrainTimeout() {
            return drainTimeout;
        }

        /** @param drainTimeout how long stopping waits for running handlers */
        public void setDrainTimeout(Duration drainTimeout) {
            this.drainTimeout = drainTimeout;
        }
    }

    /** {@code taskagent.reaper.*}. */
    public static class Reaper {
        /** Whether the lease reaper runs while the application context runs (when there is a queue). */
        private boolean enabled = true;

        /** The pause between two reclaims of expired leases; 10ms to 1d. */
        private Duration reclaimInterval = LeaseReaper.DEFAULT_RECLAIM_INTERVAL;

        void check(List<String> problems) {
            SettingRules.reclaimIntervalProblem(reclaimInterval, PREFIX + ".reaper.reclaim-interval")
                    .ifPresent(problems::add);
        }

        /** @return whether the reaper runs */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether the reaper runs */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the pause between two reclaims */
        public Duration getReclaimInterval() {
            return reclaimInterval;
        }

        /** @param reclaimInterval the pause between two reclaims */
        public void setReclaimInterval(Duration reclaimInterval) {
            this.reclaimInterval = reclaimInterval;
        }
    }

    /**
     * What the MCP server and the task board share: whether they run, where (under a path of the application's
     * own web server, or on a port of their own), their token and the hosts and origins they accept.
     */
    public abstract static class Server {
        /** Whether it runs (needs its module on the class path). */
        private boolean enabled;

        /**
         * The path it is served under on the application's own web server, in a servlet web application that does
         * not set {@code standalone}; after the context path, if any.
         */
        private String path;

        /**
         * Whether it listens on a port of its own ({@code bind-address}, {@code port}) even in a servlet web
         * application, instead of under {@code path} on the application's web server. Applications that are not
         * servlet web applications always get their own port.
         */
        private boolean standalone;

        /**
         * Whether, served under {@code path}, it needs {@code token} when the application's web server does not
         * listen on loopback only ({@code server.address} unset or not a loopback address). Turn off only when
         * something else guards the path, e.g. Spring Security.
         */
        private boolean requireToken = true;

        /** The address it listens on on its own port; any address other than a loopback one needs a token. */
        private String bindAddress = SettingRules.LOOPBACK_ADDRESS;

        /** The port it listens on on its own (standalone); 0 lets the system choose. */
        private int port;

        /** The bearer token every request must carry; at least 16 characters, no white space. */
        private String token;

        /**
         * Host headers accepted besides loopback ones, e.g. {@code tasks.example.com:443}; {@code name:*} allows any
         * port. Under {@code path}, a host the application is reached by must be listed (or be an allowed origin's).
         * The builders' {@code allowedHosts(...)}.
         */
        private List<String> allowedHosts = new ArrayList<>();

        /**
         * Browser origins accepted besides the server's own, e.g. {@code https://tasks.example.com} behind a
         * TLS-terminating proxy; {@code :*} allows any port. Their hosts are accepted Host headers too. The builders'
         * {@code allowedOrigins(...)}.
         */
        private List<String> allowedOrigins = new ArrayList<>();

        private final String name;

        Server(String name, int defaultPort, String defaultPath) {
            this.name = name;
            this.port = defaultPort;
            this.path = defaultPath;
        }

        void check(List<String> problems) {
            if (!enabled) {
                return;
            }
            SettingRules.ServerNames names = names();
            SettingRules.portProblem(port, names).ifPresent(problems::add);
            SettingRules.addressProblem(bindAddress, names).ifPresent(problems::add);
            SettingRules.tokenProblem(token, names).ifPresent(problems::add);
            SettingRules.exposureProblem(bindAddress, present(token), names).ifPresent(problems::add);
            String property = PREFIX + "." + name + ".path";
            if (path == null
                    || !path.matches("(/[A-Za-z0-9._~!$&'()+,;=:@-]+)+")
                    || path.contains("/./")
                    || path.contains("/../")
                    || path.endsWith("/.")
                    || path.endsWith("/..")) {
                problems.add(property + " must be a path of its own below the application's root, without a trailing"
                        + " slash or wildcards, e.g. /taskagent/" + name + "; was '" + path + "'");
            }
            allowedHosts.stream()
                    .flatMap(host -> OriginRules.allowedHostProblem(host, prefix() + ".allowed-hosts").stream())
                    .findFirst()
                    .ifPresent(problems::add);
            allowedOrigins.stream()
                    .flatMap(origin -> OriginRules.allowedOriginProblem(origin, prefix() + ".allowed-origins").stream())
                    .findFirst()
                    .ifPresent(problems::add);
        }

        /** @return the name of the {@code path} property, for messages */
        String pathProperty() {
            return PREFIX + "." + name + ".path";
        }

        /** @return the prefix of its properties, e.g. {@code taskagent.mcp} */
        String prefix() {
            return PREFIX + "." + name;
        }

        /** @return the path it is served under on the application's web server */
        public String getPath() {
            return path;
        }

        /** @param path the path it is served under on the application's web server */
        public void setPath(String path) {
            this.path = path;
        }

        /** @return whether it listens on a port of its own even in a servlet web application */
        public boolean isStandalone() {
            return standalone;
        }

        /** @param standalone whether it listens on a port of its own even in a servlet web application */
        public void setStandalone(boolean standalone) {
            this.standalone = standalone;
        }

        /** @return whether, mounted on a web server that is not loopback only, it needs a token */
        public boolean isRequireToken() {
            return requireToken;
        }

        /** @param requireToken whether, mounted on a web server that is not loopback only, it needs a token */
        public void setRequireToken(boolean requireToken) {
            this.requireToken = requireToken;
        }

        /** @return the Host headers accepted besides loopback ones */
        public List<String> getAllowedHosts() {
            return allowedHosts;
        }

        /** @param allowedHosts the Host headers accepted besides loopback ones */
        public void setAllowedHosts(List<String> allowedHosts) {
            this.allowedHosts = allowedHosts;
        }

        /** @return the browser origins accepted besides the server's own */
        public List<String> getAllowedOrigins() {
            return allowedOrigins;
        }

        /** @param allowedOrigins the browser origins accepted besides the server's own */
        public void setAllowedOrigins(List<String> allowedOrigins) {
            this.allowedOrigins = allowedOrigins;
        }

        /** How these properties are named in messages. */
        SettingRules.ServerNames names() {
            String prefix = PREFIX + "." + name;
            return new SettingRules.ServerNames(prefix + ".bind-address", prefix + ".port", prefix + ".token");
        }

        /** @return whether it runs */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether it runs */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the address to listen on */
        public String getBindAddress() {
            return bindAddress;
        }

        /** @param bindAddress the address to listen on */
        public void setBindAddress(String bindAddress) {
            this.bindAddress = bindAddress;
        }

        /** @return the port */
        public int getPort() {
            return port;
        }

        /** @param port the port */
        public void setPort(int port) {
            this.port = port;
        }

        /** @return the bearer token, or null */
        public String getToken() {
            return token;
        }

        /** @param token the bearer token */
        public void setToken(String token) {
            this.token = token;
        }

        /** @return whether a token is set */
        boolean hasToken() {
            return present(token);
        }
    }

    /**
     * {@code taskagent.mcp.*}: the MCP server over HTTP, at {@code /taskagent/mcp} on the application's web server
     * (a servlet web application), else on port 8765, unless told otherwise.
     */
    public static class Mcp extends Server {
        /**
         * The toolsets served: queue, worker, tasks, graph, todo, claude-tasks (taskfile runs commands and is not
         * offered here).
         */
        private List<String> toolsets = new ArrayList<>(List.of("queue", "tasks"));

        /** The toolsets the starter serves: every one but taskfile, which runs commands. */
        private static final List<String> SERVED_TOOLSETS =
                List.of("queue", "worker", "tasks", "graph", "todo", "claude-tasks");

        /** Creates the defaults. */
        public Mcp() {
            super("mcp", 8765, "/taskagent/mcp");
        }

        @Override
        void check(List<String> problems) {
            super.check(problems);
            if (!isEnabled()) {
                return;
            }
            if (getPath() != null && !getPath().endsWith("/mcp")) {
                problems.add(pathProperty() + " must end in /mcp, the name of the MCP endpoint, e.g. /taskagent/mcp;"
                        + " was '" + getPath() + "'");
            }
            for (String toolset : toolsets) {
                if (!SERVED_TOOLSETS.contains(toolset)) {
                    problems.add(
                            PREFIX + ".mcp.toolsets has '" + toolset + "'; use " + String.join(", ", SERVED_TOOLSETS));
                }
            }
        }

        /** @return the toolsets served */
        public List<String> getToolsets() {
            return toolsets;
        }

        /** @param toolsets the toolsets served */
        public void setToolsets(List<String> toolsets) {
            this.toolsets = toolsets;
        }
    }

    /**
     * {@code taskagent.dashboard.*}: the task board, at {@code /taskagent/board/} on the application's web server (a
     * servlet web application), else on port 8080, unless told otherwise.
     */
    public static class Dashboard extends Server {
        /** Whether the actions (requeue, archive, move) are on; they need a token. */
        private boolean actionsEnabled;

        /** Creates the defaults. */
        public Dashboard() {
            super("dashboard", 8080, "/taskagent/board");
        }

        @Override
        void check(List<String> problems) {
            super.check(problems);
            if (isEnabled()) {
                SettingRules.actionsProblem(
                                actionsEnabled,
                                hasToken(),
                                names(),
                                "set " + PREFIX + ".dashboard.actions-enabled=false")
                        .ifPresent(problems::add);
            }
        }

        /** @return whether the actions are on */
        public boolean isActionsEnabled() {
            return actionsEnabled;
        }

        /** @param actionsEnabled whether the actions are on */
        public void setActionsEnabled(boolean actionsEnabled) {
            this.actionsEnabled = actionsEnabled;
        }
    }

    /** {@code taskagent.observations.*}. */
    public static class Observations {
        /** Whether model calls, tool executions, claims and runs are observed (when Micrometer is present). */
        private boolean enabled = true;

        /**
         * Whether prompts, answers, tool arguments and tool results are added to observations (high-cardinality
         * key values, seen by tracing). Off: they can hold personal data.
         */
        private boolean includeContent;

        /** How long the task counts behind the gauges are reused before the store is asked again. */
        private Duration gaugeRefresh = Duration.ofSeconds(10);

        /** @return whether observations are recorded */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether observations are recorded */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return whether content is recorded */
        public boolean isIncludeContent() {
            return includeContent;
        }

        /** @param includeContent whether content is recorded */
        public void setIncludeContent(boolean includeContent) {
            this.includeContent = includeContent;
        }

        /** @return how long gauge counts are reused */
        public Duration getGaugeRefresh() {
            return gaugeRefresh;
        }

        /** @param gaugeRefresh how long gauge counts are reused */
        public void setGaugeRefresh(Duration gaugeRefresh) {
            this.gaugeRefresh = gaugeRefresh;
        }
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }
}
