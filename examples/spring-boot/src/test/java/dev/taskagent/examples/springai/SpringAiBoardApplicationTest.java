package dev.taskagent.examples.springai;

import static dev.taskagent.testservers.FakeOpenAiServer.json;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallCompletion;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.spring.ai.SpringAiChatModel;
import dev.taskagent.spring.boot.autoconfigure.DashboardLifecycle;
import dev.taskagent.spring.boot.autoconfigure.McpServerLifecycle;
import dev.taskagent.spring.boot.autoconfigure.WebServerMount;
import dev.taskagent.task.Task;
import dev.taskagent.testservers.FakeOpenAiServer;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One Spring Boot web application, on a random port of a real embedded Tomcat, with Spring AI's OpenAI starter
 * (pointed at the fake OpenAI server) and taskagent's starter: Spring AI's {@code ChatModel} bean is taskagent's
 * model, and the task board (page, JSON API, event stream) and the MCP server answer under their paths on the
 * application's own port, with their security rules, and open no port of their own.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
        classes = SpringAiBoardApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.ai.model.chat=openai",
            "spring.ai.openai.api-key=sk-test-0123456789abcdef",
            "spring.ai.openai.chat.options.model=gpt-test",
            "taskagent.dashboard.enabled=true",
            "taskagent.dashboard.token=" + SpringAiBoardApplicationTest.BOARD_TOKEN,
            "taskagent.dashboard.actions-enabled=true",
            "taskagent.mcp.enabled=true",
            "taskagent.mcp.token=" + SpringAiBoardApplicationTest.MCP_TOKEN,
            "taskagent.queue.session-id=spring-ai-board",
            "taskdesk.offline-model=false"
        })
class SpringAiBoardApplicationTest {
    static final String BOARD_TOKEN = "board-token-0123456789";
    static final String MCP_TOKEN = "mcp-token-0123456789ab";
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"spring-test\",\"version\":\"1\"}}}";

    private static final FakeOpenAiServer OPENAI = FakeOpenAiServer.start();
    private static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.ai.openai.base-url", OPENAI::baseUrl);
        registry.add("spring.datasource.url", () -> "jdbc:h2:mem:springai-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    }

    @AfterAll
    static void stopOpenAi() {
        OPENAI.close();
    }

    @Autowired
    private ApplicationContext context;

    @Autowired
    private Environment environment;

    @Autowired
    private TaskQueue queue;

    @Autowired
    private TaskAgent agent;

    @Autowired
    @Qualifier("taskAgentDashboardMount")
    private WebServerMount boardMount;

    @Autowired
    @Qualifier("taskAgentMcpMount")
    private WebServerMount mcpMount;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void springAisChatModelIsTaskagentsModelAndTheAgentCallsItOverTheWire() {
        assertThat(context.getBean(ChatModel.class)).isInstanceOf(SpringAiChatModel.class);
        assertThat(context.getBeansOfType(org.springframework.ai.chat.model.ChatModel.class))
                .hasSize(1);
        OPENAI.enqueue(json(
                200,
                toolCallCompletion(
                        120,
                        20,
                        new String[] {
                            "call_1",
                            "insert_task",
                            "{\"after_task_order\": 0, \"task_description\": \"Renew the" + " certificate\"}"
                        },
                        new String[] {"call_2", "finish", "{}"})));
        String session = "chat-" + UUID.randomUUID();

        AgentRun run = agent.run(session, List.of(ConversationMessage.user("m1", "Renew the certificate, please")));

        assertThat(run.createdTasks()).extracting(Task::description).containsExactly("Renew the certificate");
        FakeOpenAiServer.RecordedRequest request = OPENAI.takeRequest();
        assertThat(request.path()).endsWith("/chat/completions");
        assertThat(request.json().path("model").asText()).isEqualTo("gpt-test");
        assertThat(request.header("Authorization")).isEqualTo("Bearer sk-test-0123456789abcdef");
    }

    @Test
    void theBoardAnswersUnderItsPathOnTheApplicationsPort() throws Exception {
        Task task = queue.create(queue.newTask("Shown on the mounted board").build());

        HttpResponse<String> bare = get("/taskagent/board", Map.of());
        assertThat(bare.statusCode()).isEqualTo(302);
        assertThat(bare.headers().firstValue("Location").orElseThrow()).endsWith("/taskagent/board/");
        HttpResponse<String> page = get("/taskagent/board/", Map.of());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .contains("default-src 'self'");
        // Below the path, the page names its files relative to itself.
        assertThat(page.body())
                .contains("<script src=\"board.js\" defer></script>")
                .doesNotContain("=\"/");
        assertThat(get("/taskagent/board/board.js", Map.of()).statusCode()).isEqualTo(200);

        // The API needs the token; with it, it shows the queue's tasks.
        HttpResponse<String> anonymous = get("/taskagent/board/api/sessions", Map.of());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        HttpResponse<String> sessions = get("/taskagent/board/api/sessions", board());
        assertThat(sessions.statusCode()).as(sessions.body()).isEqualTo(200);
        assertThat(sessions.body()).contains("spring-ai-board");
        HttpResponse<String> tasks = get("/taskagent/board/api/sessions/spring-ai-board/tasks", board());
        assertThat(tasks.body()).contains("Shown on the mounted board");

        // Another site's page is refused, and so is a Host header that names another host.
        Map<String, String> foreign = new HashMap<>(board());
        foreign.put("Origin", "http://evil.example");
        assertThat(get("/taskagent/board/api/sessions", foreign).statusCode()).isEqualTo(403);
        Map<String, String> own = new HashMap<>(board());
        own.put("Origin", "http://localhost:" + port());
        assertThat(get("/taskagent/board/api/sessions", own).statusCode()).isEqualTo(200);
        assertThat(statusWithHost("GET", "/taskagent/board/", "evil.example:" + port(), Map.of(), ""))
                .isEqualTo(421);

        // An action carries the token and the version the caller saw.
        HttpResponse<String> archived = post(
                "/taskagent/board/api/tasks/" + task.id() + "/archive",
                "{\"version\": " + task.version() + "}",
                board());
        assertThat(archived.statusCode()).as(archived.body()).isEqualTo(200);
        assertThat(queue.store().findTask(task.id()).orElseThrow().archived()).isTrue();
    }

    @Test
    void theBoardsEventStreamSendsAWriteLive() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri("/taskagent/board/api/events"))
                .header("Authorization", "Bearer " + BOARD_TOKEN)
                .header("Accept", "text/event-stream")
                .GET()
                .build();
        HttpResponse<InputStream> stream = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/event-stream");
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            assertThat(lines.readLine()).isEqualTo("retry: 1000");
            CompletableFuture<String> taskEvent = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        if (line.startsWith("data: ") && line.contains("\"kind\":\"created\"")) {
                            return line;
                        }
                    }
                    return null;
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            Task task = queue.create(queue.newTask("Streamed to the board").build());
            String data = taskEvent.get(20, TimeUnit.SECONDS);
            JsonNode event = JSON.readTree(data.substring("data: ".length()));
            assertThat(event.path("task_id").asLong()).isEqualTo(task.id());
            assertThat(event.path("kind").asText()).isEqualTo("created");
        }
    }

    @Test
    void theMcpServerAnswersUnderItsPathWithItsSecurityRules() throws Exception {
        assertThat(mcp(INITIALIZE, Map.of()).statusCode()).isEqualTo(401);
        Map<String, String> foreign = new HashMap<>(mcpToken());
        foreign.put("Origin", "http://evil.example");
        assertThat(mcp(INITIALIZE, foreign).statusCode()).isEqualTo(403);
        assertThat(statusWithHost(
                        "POST",
                        "/taskagent/mcp",
                        "evil.example:" + port(),
                        Map.of(
                                "Authorization", "Bearer " + MCP_TOKEN,
                                "Content-Type", "application/json",
                                "Accept", "application/json, text/event-stream"),
                        INITIALIZE))
                .isEqualTo(421);

        HttpResponse<String> initialized = mcp(INITIALIZE, mcpToken());
        assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
        assertThat(message(initialized)
                        .path("result")
                        .path("serverInfo")
                        .path("name")
                        .asText())
                .isEqualTo("taskagent");
        Map<String, String> session = new HashMap<>(mcpToken());
        session.put(
                "Mcp-Session-Id",
                initialized.headers().firstValue("Mcp-Session-Id").orElseThrow());
        assertThat(mcp("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session)
                        .statusCode())
                .isEqualTo(202);

        JsonNode tools = message(mcp("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", session));
        List<String> names = tools.path("result").path("tools").findValuesAsText("name");
        assertThat(names).contains("create_task", "get_task", "get_my_queue");

        JsonNode created = message(mcp(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"create_task\","
                        + "\"arguments\":{\"description\":\"Filed over MCP\",\"assignee\":\"mcp-agent\"}}}",
                session));
        assertThat(created.path("result").path("isError").asBoolean())
                .as(created.toString())
                .isFalse();
        assertThat(queue.store().listTasks("spring-ai-board")).anySatisfy(task -> {
            assertThat(task.description()).isEqualTo("Filed over MCP");
            assertThat(task.assignee()).isEqualTo("mcp-agent");
        });
    }

    @Test
    void nothingListensOnAPortOfItsOwnAndTheStartupLogNamesTheAddresses(CapturedOutput output) {
        assertThat(context.getBeansOfType(DashboardLifecycle.class)).isEmpty();
        assertThat(context.getBeansOfType(McpServerLifecycle.class)).isEmpty();
        // The standalone servers' threads (the board's JDK server, the MCP server's Jetty) never started.
        assertThat(Thread.getAllStackTraces().keySet())
                .extracting(Thread::getName)
                .noneMatch(name -> name.startsWith("taskagent-board") || name.startsWith("taskagent-mcp-http"));
        assertThat(boardMount.uri()).isEqualTo(URI.create("http://localhost:" + port() + "/taskagent/board/"));
        assertThat(mcpMount.uri()).isEqualTo(URI.create("http://localhost:" + port() + "/taskagent/mcp"));
        assertThat(output.getAll())
                .contains("taskagent task board: http://localhost:" + port() + "/taskagent/board/")
                .contains("taskagent MCP server: http://localhost:" + port() + "/taskagent/mcp")
                // Spring AI 2.0 brings json-schema-validator 3, where the MCP SDK's Jackson 2 validator needs 2.
                .contains("taskagent's MCP server goes on without the SDK's schema checks");
    }

    private static Map<String, String> board() {
        return Map.of("Authorization", "Bearer " + BOARD_TOKEN);
    }

    private static Map<String, String> mcpToken() {
        return Map.of("Authorization", "Bearer " + MCP_TOKEN);
    }

    private int port() {
        return Integer.parseInt(environment.getProperty("local.server.port"));
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port() + path);
    }

    private HttpResponse<String> get(String path, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(20))
                .GET();
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> mcp(String body, Map<String, String> headers)
            throws IOException, InterruptedException {
        Map<String, String> all = new HashMap<>(headers);
        all.put("Accept", "application/json, text/event-stream");
        return post("/taskagent/mcp", body, all);
    }

    /** The JSON-RPC message of an answer, sent as JSON or as one server-sent event. */
    private static JsonNode message(HttpResponse<String> response) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String body = response.body();
        if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
            StringBuilder data = new StringBuilder();
            for (String line : body.split("\n")) {
                if (line.startsWith("data:")) {
                    data.append(line.substring(5).strip());
                }
            }
            body = data.toString();
        }
        return JSON.readTree(body);
    }

    /** A request over a plain socket with the given Host header (the JDK's client refuses to set one). */
    private int statusWithHost(String method, String path, String host, Map<String, String> headers, String body)
            throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.setSoTimeout(20_000);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
            headers.forEach((name, value) ->
                    head.append(name).append(": ").append(value).append("\r\n"));
            head.append("Content-Length: ").append(bytes.length).append("\r\nConnection: close\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            for (int next = in.read(); next != -1 && next != '\n'; next = in.read()) {
                line.write(next);
            }
            return Integer.parseInt(line.toString(StandardCharsets.US_ASCII).split(" ")[1]);
        }
    }
}
