package dev.taskagent.examples;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Two agents share one queue: alice claims her next task with {@code signup_for_task}, works on it and
 * hands it to bob with {@code move_task}; bob claims it and reads alice's comment. The tools are called
 * the way a model would call them, and every result is printed.
 */
public final class QueueHandoffExample {
    private QueueHandoffExample() {}

    /**
     * Runs the example and prints to standard output.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(new PrintStream(System.out, true, StandardCharsets.UTF_8));
    }

    /**
     * Runs the example.
     *
     * @param out where to print
     * @return the tool results, in order
     */
    public static List<ToolResult> run(PrintStream out) {
        TaskQueue queue = TaskQueue.builder(new InMemoryTaskStore()).build();
        Task task = queue.create(queue.newTask("Fix the login redirect loop")
                .assignee("alice")
                .createdBy("pm")
                .priority(2)
                .build());
        queue.create(queue.newTask("Update the changelog").assignee("alice").build());
        queue.link(task.id(), "https://example.com/issues/42", "bug report", "pm");

        Toolbox tools = queue.tools();
        List<ToolResult> results = new ArrayList<>();
        results.add(call(out, tools, "signup_for_task", "{\"agent_name\":\"alice\"}"));
        results.add(call(
                out,
                tools,
                "add_comment",
                "{\"task_id\":" + task.id()
                        + ",\"author\":\"alice\",\"comment\":\"Reproduced: the cookie path is /app\"}"));
        results.add(call(
                out,
                tools,
                "move_task",
                "{\"task_id\":" + task.id() + ",\"current_agent\":\"alice\",\"new_agent\":\"bob\","
                        + "\"comment\":\"Backend fix needed in SessionFilter; repro steps above\"}"));
        results.add(call(out, tools, "signup_for_task", "{\"agent_name\":\"bob\"}"));
        results.add(call(
                out,
                tools,
                "move_task",
                "{\"task_id\":" + task.id() + ",\"current_agent\":\"alice\",\"new_agent\":\"carol\","
                        + "\"comment\":\"Taking it back\"}"));
        return results;
    }

    private static ToolResult call(PrintStream out, Toolbox tools, String name, String arguments) {
        out.println("> " + name + " " + arguments);
        ToolResult result = tools.call(new ToolCall("call-" + name, name, arguments));
        out.println((result.isError() ? "< error: " : "< ") + result.text());
        out.println();
        return result;
    }
}
