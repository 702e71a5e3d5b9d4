package dev.taskagent.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.jdbc.JdbcDialect;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Boots the help desk as a user runs it, on PostgreSQL when {@code TASKAGENT_TEST_POSTGRES_URL} names one (CI
 * does), on H2 otherwise; files a task from a message, claims and completes one through the web API, and reads
 * the metrics and health that Actuator shows.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TaskDeskApplicationTest {
    private static final String POSTGRES_URL = System.getenv("TASKAGENT_TEST_POSTGRES_URL");

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        if (POSTGRES_URL != null && !POSTGRES_URL.isBlank()) {
            registry.add("spring.datasource.url", () -> POSTGRES_URL);
        }
    }

    @Autowired
    private Environment environment;

    @Autowired
    private TaskStore store;

    @Autowired
    private MeterRegistry meters;

    private final HttpClient http = HttpClient.newHttpClient();

    /** Jackson 3, as Spring MVC uses it, reads what the web API writes. */
    private final JsonMapper jackson3 = JsonMapper.builder().build();

    @Test
    void theTasksLiveInTheConfiguredDatabase() {
        assertThat(store).isInstanceOf(JdbcTaskStore.class);
        JdbcDialect expected = POSTGRES_URL == null || POSTGRES_URL.isBlank() ? JdbcDialect.H2 : JdbcDialect.POSTGRESQL;
        assertThat(((JdbcTaskStore) store).dialect()).isEqualTo(expected);
    }

    @Test
    void aMessageBecomesATaskThatAWorkerClaimsAndCompletesAndTheMetricsShowIt() throws Exception {
        String session = "s-" + UUID.randomUUID();
        String worker = "worker-" + UUID.randomUUID();

        JsonNode filed = post(
                "/conversations/" + session + "/messages",
                "{\"id\": \"m1\", \"text\": \"Renew the TLS" + " certificate of shop.example\"}");
        assertThat(filed).hasSize(1);
        assertThat(filed.get(0).get("description").asString()).isEqualTo("Renew the TLS certificate of shop.example");

        JsonNode created = post("/tasks", "{\"description\": \"Deploy the fix\", \"assignee\": \"" + worker + "\"}");
        JsonNode claimed = post("/tasks/claim?agent=" + worker, "");
        assertThat(claimed.get("id").asLong()).isEqualTo(created.get("id").asLong());
        assertThat(claimed.get("status").asString()).isEqualTo("running");
        JsonNode completed = post(
                "/tasks/" + claimed.get("id").asLong() + "/complete",
                "{\"agent\": \"" + worker + "\", \"attempt\": "
                        + claimed.get("attempt").asInt() + ", \"status\": \"success\", \"comment\": \"Deployed\"}");
        assertThat(completed.get("status").asString()).isEqualTo("success");

        // The queue's own tool writes its JSON with Jackson 2, in the same application.
        String toolJson =
                get("/tasks/" + claimed.get("id").asLong() + "/as-tool-result").body();
        assertThat(new ObjectMapper().readTree(toolJson).path("status").asText())
                .isEqualTo("success");

        assertThat(meters.get("taskagent.queue.claims")
                        .tag("outcome", "claimed")
                        .timer()
                        .count())
                .isGreaterThanOrEqualTo(1);
        assertThat(meters.get("taskagent.queue.completions")
                        .tag("status", "success")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(1.0);
        assertThat(meters.get("gen_ai.client.operation")
                        .tag("gen_ai.operation.name", "chat")
                        .tag("gen_ai.provider.name", "taskdesk")
                        .tag("gen_ai.request.model", "one-task-per-message")
                        .timer()
                        .count())
                .isGreaterThanOrEqualTo(2);
        assertThat(meters.get("execute_tool")
                        .tag("gen_ai.tool.name", "insert_task")
                        .timer()
                        .count())
                .isGreaterThanOrEqualTo(1);

        JsonNode tokens = getJson("/actuator/metrics/gen_ai.client.token.usage?tag=gen_ai.token.type:input");
        assertThat(tokens.get("name").asString()).isEqualTo("gen_ai.client.token.usage");
        assertThat(tokens.get("baseUnit").asString()).isEqualTo("tokens");
        assertThat(measurement(tokens, "TOTAL")).isGreaterThanOrEqualTo(110.0); // 50 + 60 for the one message
        JsonNode claims = getJson("/actuator/metrics/taskagent.queue.claims?tag=outcome:claimed");
        assertThat(measurement(claims, "COUNT")).isGreaterThanOrEqualTo(1.0);
        JsonNode pending = getJson("/actuator/metrics/taskagent.tasks?tag=status:pending&tag=store:taskStore");
        assertThat(measurement(pending, "VALUE")).isGreaterThanOrEqualTo(1.0); // the task filed from the message

        JsonNode health = getJson("/actuator/health/taskagent");
        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.get("details").has("expiredLeases")).isTrue();
    }

    private static double measurement(JsonNode metric, String statistic) {
        for (JsonNode measurement : metric.get("measurements")) {
            if (measurement.get("statistic").asString().equals(statistic)) {
                return measurement.get("value").asDouble();
            }
        }
        throw new AssertionError("no " + statistic + " in " + metric);
    }

    private JsonNode post(String path, String json) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return jackson3.readTree(response.body());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return response;
    }

    private JsonNode getJson(String path) throws IOException, InterruptedException {
        return jackson3.readTree(get(path).body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + path);
    }
}
