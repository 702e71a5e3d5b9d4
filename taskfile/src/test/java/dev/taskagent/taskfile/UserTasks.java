package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/** A project folder with a Taskfile and the tools over it, for tests with real bash processes. */
final class UserTasks {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    final Path root;
    final Toolbox toolbox;
    final List<String> warnings;

    private UserTasks(Path root, Toolbox toolbox, List<String> warnings) {
        this.root = root;
        this.toolbox = toolbox;
        this.warnings = warnings;
    }

    /** Writes the Taskfile into {@code root/.agent/} and builds the tools with test-friendly settings. */
    static UserTasks create(Path root, String taskfile) {
        return create(root, taskfile, builder -> builder);
    }

    static UserTasks create(Path root, String taskfile, UnaryOperator<TaskfileTools.Builder> settings) {
        if (taskfile != null) {
            write(root.resolve(".agent/Taskfile.yml"), taskfile);
        }
        List<String> warnings = new CopyOnWriteArrayList<>();
        Map<String, String> environment = new HashMap<>();
        for (String name : List.of("PATH", "HOME", "LANG", "TMPDIR", "USER")) {
            String value = System.getenv(name);
            if (value != null) {
                environment.put(name, value);
            }
        }
        TaskfileTools.Builder builder = TaskfileTools.builder(root)
                .timeout(Duration.ofSeconds(30))
                .killGracePeriod(Duration.ofMillis(300))
                .environment(environment)
                .warnings(warnings::add);
        return new UserTasks(root, settings.apply(builder).build(), warnings);
    }

    static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void rewrite(String taskfile) {
        write(root.resolve(".agent/Taskfile.yml"), taskfile);
    }

    ToolResult list() {
        return toolbox.call(new ToolCall("call-1", "list_user_tasks", "{}"));
    }

    List<String> listedNames() {
        ToolResult result = list();
        assertThat(result.isError()).as(result.text()).isFalse();
        List<String> names = new ArrayList<>();
        parse(result.text())
                .get("tasks")
                .forEach(task -> names.add(task.get("name").asText()));
        return names;
    }

    Run run(String task, String... args) {
        ObjectNode arguments = JsonNodeFactory.instance.objectNode().put("task_name", task);
        ArrayNode array = arguments.putArray("args");
        for (String arg : args) {
            array.add(arg);
        }
        return runJson(arguments.toString());
    }

    Run runJson(String argumentsJson) {
        ToolResult result = toolbox.call(new ToolCall("call-1", "run_user_task", argumentsJson));
        return new Run(result);
    }

    static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    /** A run_user_task result. */
    record Run(ToolResult result) {
        boolean isError() {
            return result.isError();
        }

        String text() {
            return result.text();
        }

        JsonNode json() {
            return parse(result.text());
        }

        String stdout() {
            return json().get("stdout").asText();
        }

        String stderr() {
            return json().get("stderr").asText();
        }

        Integer exitCode() {
            JsonNode code = json().get("exit_code");
            return code.isNull() ? null : code.asInt();
        }

        boolean isTimedOut() {
            return json().get("timed_out").asBoolean();
        }

        boolean isTruncated() {
            return json().get("truncated").asBoolean();
        }

        String message() {
            return json().get("message").asText();
        }

        @Override
        public String toString() {
            return result.text();
        }
    }
}
