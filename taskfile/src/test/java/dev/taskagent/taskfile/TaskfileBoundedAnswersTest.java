package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.testkit.queue.BoundedAnswersSuite;
import dev.taskagent.tool.ToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Taskfile tools keep their worst case within the toolset's result budget, counted in real {@code o200k_base}
 * tokens and without the toolbox's last-resort cut: a run that writes megabytes to both streams, a run with the
 * longest arguments allowed, and a Taskfile of thousands of long-described tasks, listed a part at a time.
 */
class TaskfileBoundedAnswersTest {
    private static final Map<String, Integer> WORST_CASES = new TreeMap<>();

    @TempDir
    Path root;

    @AfterAll
    static void printTheWorstCases() {
        System.out.println("TaskfileBoundedAnswersTest worst cases in o200k tokens: " + WORST_CASES);
    }

    @Test
    void aRunThatWritesMegabytesToBothStreamsAnswersWithTheirStartAndEnd() {
        UserTasks.create(root, """
                version: '3'
                tasks:
                  flood:
                    silent: true
                    cmds:
                      - for i in $(seq 1 40000); do echo "error line $i of the flood"; done >&2; for i in $(seq 1 40000); do echo "output line $i of the flood"; done
                """);

        ToolResult result = within("run_user_task", "{\"task_name\":\"flood\"}");

        JsonNode json = UserTasks.parse(result.text());
        assertThat(json.get("stdout").asText())
                .startsWith("output line 1 of the flood\n")
                .endsWith("output line 40000 of the flood\n")
                .containsPattern(
                        "\n\\[\\.\\.\\. [\\d,]+ characters left out here to keep the answer short \\.\\.\\.\\]\n");
        assertThat(json.get("stderr").asText()).startsWith("error line 1 ").endsWith("error line 40000 of the flood\n");
        assertThat(json.get("truncated").asBoolean()).isTrue();
        assertThat(json.get("exit_code").asInt()).isZero();
    }

    @Test
    void aRunWithTheLongestArgumentsAllowedStaysWithinTheBudget() {
        UserTasks.create(root, """
                version: '3'
                tasks:
                  echo:
                    silent: true
                    cmds:
                      - printf '%s\\n' {{.CLI_ARGS}} | wc -c
                """);
        List<String> args = new ArrayList<>(Collections.nCopies(8, "x".repeat(RunUserTaskTool.MAX_ARG_LENGTH)));

        ToolResult result = within("run_user_task", "{\"task_name\":\"echo\",\"args\":" + json(args) + "}");

        JsonNode echoed = UserTasks.parse(result.text()).get("args");
        assertThat(echoed).hasSize(8);
        assertThat(echoed.get(0).asText()).hasSizeLessThan(RunUserTaskTool.MAX_ARG_LENGTH);
    }

    @Test
    void aTaskfileOfThousandsOfTasksIsListedAPartAtATimeEachTaskOnce() {
        StringBuilder taskfile = new StringBuilder("version: '3'\ntasks:\n");
        for (int i = 0; i < 2_000; i++) {
            taskfile.append(String.format(
                    "  task-%04d:%n    desc: Task %d %s%n    cmds:%n      - echo %d%n",
                    i, i, "reconciles the quarterly ledger export and reminds the customer ".repeat(6), i));
        }
        UserTasks.create(root, taskfile.toString());

        List<String> names = new ArrayList<>();
        String after = null;
        int parts = 0;
        while (true) {
            ToolResult part = within("list_user_tasks", after == null ? "{}" : "{\"after\":\"" + after + "\"}");
            parts++;
            JsonNode json = UserTasks.parse(part.text());
            json.get("tasks").forEach(task -> names.add(task.get("name").asText()));
            String message = json.get("message").asText();
            if (!message.contains(" more: call list_user_tasks with after ")) {
                assertThat(message).startsWith("2000 tasks, tasks ").contains(" to 2000 shown.");
                break;
            }
            after = message.replaceFirst("(?s).* with after \"([^\"]+)\" for them\\..*", "$1");
            assertThat(after).isEqualTo(names.get(names.size() - 1));
        }

        assertThat(parts).isGreaterThan(10);
        assertThat(names).hasSize(2_000).doesNotHaveDuplicates();
        assertThat(names.get(0)).isEqualTo("task-0000");
        assertThat(names.get(1_999)).isEqualTo("task-1999");
    }

    @Test
    void tasksWhoseNamesAreShownCutAreListedOnByTheCutName() {
        StringBuilder taskfile = new StringBuilder("version: '3'\ntasks:\n");
        for (int i = 0; i < 40; i++) {
            taskfile.append(String.format(
                    "  task-%02d-%s:%n    desc: %s%n    cmds:%n      - echo %d%n",
                    i, "n".repeat(300), "reconciles the quarterly ledger export ".repeat(14), i));
        }
        UserTasks.create(root, taskfile.toString());

        List<String> names = new ArrayList<>();
        String after = null;
        while (true) {
            ToolResult part = within("list_user_tasks", after == null ? "{}" : "{\"after\":\"" + after + "\"}");
            JsonNode json = UserTasks.parse(part.text());
            json.get("tasks").forEach(task -> names.add(task.get("name").asText()));
            String message = json.get("message").asText();
            if (!message.contains(" more: call list_user_tasks with after ")) {
                break;
            }
            after = message.replaceFirst("(?s).* with after \"([^\"]+)\" for them\\..*", "$1");
            assertThat(after).as("the name is shown cut").hasSizeLessThan(300).endsWith("…");
        }

        assertThat(names).hasSize(40).doesNotHaveDuplicates();
        assertThat(names.get(39)).startsWith("task-39-");
    }

    @Test
    void anAfterThatNamesNoListedTaskIsAClearError() {
        UserTasks tasks = UserTasks.create(root, """
                version: '3'
                tasks:
                  build:
                    desc: Builds it
                    cmds:
                      - echo built
                """);

        ToolResult result = tasks.toolbox.call(new ToolCall("call-1", "list_user_tasks", "{\"after\":\"deploy\"}"));

        assertThat(result.isError()).isTrue();
        assertThat(result.text())
                .isEqualTo("No listed task is named 'deploy'; call list_user_tasks without 'after' to list from the"
                        + " start.");
    }

    private ToolResult within(String tool, String arguments) {
        UserTasks tasks = UserTasks.create(root, null);
        ToolResult result = tasks.toolbox.call(new ToolCall("worst-case", tool, arguments));
        assertThat(result.isError())
                .as(tool + " " + arguments + ": " + result.text())
                .isFalse();
        WORST_CASES.merge(
                tool, BoundedAnswersSuite.assertWithinBudget(tasks.toolbox, tool, arguments, result), Math::max);
        return result;
    }

    private static String json(List<String> args) {
        return args.stream().map(arg -> "\"" + arg + "\"").collect(java.util.stream.Collectors.joining(",", "[", "]"));
    }
}
