package dev.taskagent.taskfile;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.internal.Texts;
import dev.taskagent.taskfile.Taskfile.TaskDef;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    static final String AFTER = "after";

    /**
     * The most tokens (estimated) a listing takes: three quarters of the toolset's budget, for the estimate's error
     * and the toolbox's own margin.
     */
    static final int RESULT_TOKENS = Toolbox.DEFAULT_RESULT_BUDGET * 3 / 4;

    /** Kept free for the message at the end of a listing. */
    private static final int MESSAGE_TOKENS = 120;

    /** A task's description is cut here in the listing. */
    static final int DESCRIPTION_CHARS = 500;

    /** A task's name is cut here in the listing (run_user_task needs it whole: such names are unusable anyway). */
    static final int NAME_CHARS = 200;

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
     * @return {@code list_user_tasks}, which takes an optional {@code after}
     */
    static Tool tool(TaskfileSource source, Settings settings) {
        ListUserTasksTool listing = new ListUserTasksTool(source, settings);
        return Tool.of(
                        NAME,
                        DESCRIPTION,
                        JsonSchema.object()
                                .optionalString(
                                        AFTER,
                                        "Only the tasks after this one in the list: the last name an answer showed"
                                                + " when it said more follow"),
                        arguments -> listing.list(arguments.optionalString(AFTER)))
                .withHints(ToolHints.readOnly("List the project's user tasks"));
    }

    private ToolResult list(Optional<String> after) {
        TaskfileSource.Snapshot snapshot = source.current();
        if (snapshot.problem() != null) {
            return ToolResult.error(unusable(snapshot.problem()));
        }
        List<TaskDef> listed = listed(snapshot.taskfile());
        int from = 0;
        if (after.isPresent()) {
            // A name longer than NAME_CHARS is shown, and so sent back, cut: either form names it.
            List<String> names = listed.stream().map(TaskDef::name).toList();
            int index = names.indexOf(after.get());
            for (int i = 0; index < 0 && i < names.size(); i++) {
                if (Texts.abbreviate(names.get(i), NAME_CHARS).equals(after.get())) {
                    index = i;
                }
            }
            if (index < 0) {
                return ToolResult.error("No listed task is named '" + Texts.abbreviate(after.get(), 100)
                        + "'; call list_user_tasks without '" + AFTER + "' to list from the start.");
            }
            from = index + 1;
        }
        List<TaskDef> page = listed.subList(from, listed.size());
        Map<String, String> descriptions;
        try {
            descriptions = descriptions(snapshot.taskfile(), page);
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
        int used = MESSAGE_TOKENS;
        int shown = 0;
        for (TaskDef task : page) {
            ObjectNode entry = JsonNodeFactory.instance
                    .objectNode()
                    .put("name", Texts.abbreviate(task.name(), NAME_CHARS))
                    .put("description", Texts.abbreviate(descriptions.get(task.name()), DESCRIPTION_CHARS));
            int cost = Texts.estimateTokens(entry.toString()) + 1;
            if (shown > 0 && used + cost > RESULT_TOKENS) {
                break;
            }
            tasks.add(entry);
            used += cost;
            shown++;
        }
        result.put("message", message(listed.size(), from, shown, shown == 0 ? null : page.get(shown - 1)));
        return ToolResult.ok(result.toString());
    }

    /** What the listing holds, and how to ask for the rest when not all of it is shown. */
    private static String message(int total, int from, int shown, TaskDef last) {
        if (total == 0) {
            return "The Taskfile has no task to offer (only tasks with a desc that are not internal are listed).";
        }
        String all = total + (total == 1 ? " task" : " tasks");
        if (from == 0 && shown == total) {
            return all + ". Run one with run_user_task; put extra command-line arguments in args.";
        }
        int following = total - from - shown;
        String here = shown == 0 ? "none after that one" : "tasks " + (from + 1) + " to " + (from + shown) + " shown";
        return all + ", " + here
                + (following == 0
                        ? "."
                        : "; " + following + " more: call list_user_tasks with " + AFTER + " \""
                                + Texts.abbreviate(last.name(), NAME_CHARS) + "\" for them.")
                + " Run one with run_user_task; put extra command-line arguments in args.";
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
