package dev.taskagent.taskfile;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.taskfile.Taskfile.TaskDef;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolResult;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** {@code list_user_tasks}: the described, non-internal tasks of the Taskfile. Thread-safe. */
final class ListUserTasksTool implements Tool {
    static final String NAME = "list_user_tasks";

    /** go-task's {@code --list} order: tasks without a ':' namespace first, then by name (bytewise). */
    static final Comparator<String> TASK_ORDER = Comparator.comparing((String name) -> name.contains(":"))
            .thenComparing((a, b) ->
                    Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));

    private static final String SCHEMA = JsonSchema.object().toJson();

    private final TaskfileSource source;

    ListUserTasksTool(TaskfileSource source) {
        this.source = source;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Lists the tasks the user defined for this project (in .agent/Taskfile.yml) with what each does."
                + " Call it to find the right task before calling run_user_task.";
    }

    @Override
    public String parametersSchema() {
        return SCHEMA;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        TaskfileSource.Snapshot snapshot = source.current();
        if (snapshot.problem() != null) {
            return ToolResult.error(unusable(snapshot.problem()));
        }
        List<TaskDef> listed = listed(snapshot.taskfile());
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        ArrayNode tasks = result.putArray("tasks");
        for (TaskDef task : listed) {
            tasks.addObject()
                    .put("name", task.name())
                    .put("description", task.desc().strip());
        }
        result.put(
                "message",
                listed.isEmpty()
                        ? "The Taskfile has no task to offer (only tasks with a desc that are not internal are listed)."
                        : listed.size() + (listed.size() == 1 ? " task" : " tasks")
                                + ". Run one with run_user_task; put extra command-line arguments in args.");
        return ToolResult.ok(result.toString());
    }

    /** @return the tasks list_user_tasks shows, in order */
    static List<TaskDef> listed(Taskfile taskfile) {
        return taskfile.tasks().values().stream()
                .filter(TaskDef::isListed)
                .sorted(Comparator.comparing(TaskDef::name, TASK_ORDER))
                .toList();
    }

    /** @return an error text for a Taskfile that cannot be used */
    static String unusable(String problem) {
        return problem + " The user tasks cannot be used until the file is fixed; tell the user.";
    }
}
