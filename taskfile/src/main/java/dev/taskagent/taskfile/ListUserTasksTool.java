package dev.taskagent.taskfile;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.taskfile.Taskfile.TaskDef;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code list_user_tasks}: the described, non-internal tasks of the Taskfile, with their {@code desc} rendered
 * as {@code task --list} renders it: with the variables a run would see (dotenv files included, no
 * arguments), except that no command runs, so {@code sh:} values are empty. Thread-safe.
 */
final class ListUserTasksTool {
    static final String NAME = "list_user_tasks";

    /** go-task's {@code --list} order: tasks without a ':' namespace first, then by name (bytewise). */
    static final Comparator<String> TASK_ORDER = Comparator.comparing((String name) -> name.contains(":"))
            .thenComparing((a, b) ->
                    Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));

    private static final String DESCRIPTION =
            "Lists the tasks the user defined for this project (in .agent/Taskfile.yml) with what each does."
                    + " Call it to find the right task before calling run_user_task.";

    private final TaskfileSource source;
    private final Settings settings;

    private ListUserTasksTool(TaskfileSource source, Settings settings) {
        this.source = source;
        this.settings = settings;
    }

    /**
     * Builds the tool over a Taskfile.
     *
     * @param source the Taskfile, read again when it changes
     * @param settings the project root and the run settings
     * @return {@code list_user_tasks}, which takes no arguments
     */
    static Tool tool(TaskfileSource source, Settings settings) {
        ListUserTasksTool listing = new ListUserTasksTool(source, settings);
        return Tool.of(NAME, DESCRIPTION, JsonSchema.object(), arguments -> listing.list())
                .withHints(ToolHints.readOnly("List the project's user tasks"));
    }

    private ToolResult list() {
        TaskfileSource.Snapshot snapshot = source.current();
        if (snapshot.problem() != null) {
            return ToolResult.error(unusable(snapshot.problem()));
        }
        List<TaskDef> listed = listed(snapshot.taskfile());
        Map<String, String> descriptions;
        try {
            descriptions = descriptions(snapshot.taskfile(), listed);
        } catch (TaskFailure e) {
            return ToolResult.error(unusable(e.getMessage()));
        } catch (IOException e) {
            return ToolResult.error(
                    "The project root " + settings.projectRoot() + " cannot be read: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResult.error("Listing the user tasks was interrupted.");
        }
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        ArrayNode tasks = result.putArray("tasks");
        for (TaskDef task : listed) {
            tasks.addObject().put("name", task.name()).put("description", descriptions.get(task.name()));
        }
        result.put(
                "message",
                listed.isEmpty()
                        ? "The Taskfile has no task to offer (only tasks with a desc that are not internal are listed)."
                        : listed.size() + (listed.size() == 1 ? " task" : " tasks")
                                + ". Run one with run_user_task; put extra command-line arguments in args.");
        return ToolResult.ok(result.toString());
    }

    /** Renders each task's desc with its variables, as a run without arguments would have them. */
    private Map<String, String> descriptions(Taskfile taskfile, List<TaskDef> tasks)
            throws TaskFailure, IOException, InterruptedException {
        Map<String, String> descriptions = new LinkedHashMap<>();
        Path root = settings.projectRoot();
        Variables variables = Variables.load(
                taskfile,
                settings,
                List.of(),
                root.toRealPath(),
                Variables.NOT_RUN,
                System.nanoTime() + SmallFile.READ_TIMEOUT.toNanos());
        for (TaskDef task : tasks) {
            Variables.Values values = variables.taskfileValues(task, Variables.NOT_RUN);
            variables.addVars(task.vars(), values, root, Variables.NOT_RUN);
            descriptions.put(
                    task.name(), variables.render(task.desc(), values.vars()).strip());
        }
        return descriptions;
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
