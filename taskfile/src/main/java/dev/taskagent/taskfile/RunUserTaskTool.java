package dev.taskagent.taskfile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.internal.Texts;
import dev.taskagent.taskfile.Taskfile.TaskDef;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArgumentException;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.text.NumberFormat;
import java.util.List;
import java.util.Locale;

/** {@code run_user_task}: runs one task of the Taskfile with literal arguments. Thread-safe. */
final class RunUserTaskTool {
    static final String NAME = "run_user_task";
    static final String TASK_NAME = "task_name";
    static final String ARGS = "args";

    /** At most this many arguments. */
    static final int MAX_ARGS = 100;

    /** At most this many characters in one argument. */
    static final int MAX_ARG_LENGTH = 8192;

    /** At most this many characters in all arguments together. */
    static final int MAX_TOTAL_ARGS_LENGTH = 65536;

    /**
     * The most tokens (estimated) a result takes: three quarters of the toolset's budget, for the estimate's error
     * and the toolbox's own margin.
     */
    static final int RESULT_TOKENS = Toolbox.DEFAULT_RESULT_BUDGET * 3 / 4;

    /** A long stream or argument is never shown shorter than this. */
    static final int MIN_SHOWN_CHARS = 200;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static final String DESCRIPTION =
            "Runs one of the user's tasks from .agent/Taskfile.yml (see list_user_tasks) in the project folder"
                    + " and returns its stdout, its stderr, the exit code and the duration. Tasks run real commands"
                    + " with the agent's rights: run only what the user's request calls for.";

    private static final JsonSchema PARAMETERS = JsonSchema.object()
            .requiredString(TASK_NAME, "The task's name, as list_user_tasks shows it")
            .optionalStringArray(
                    ARGS,
                    "Extra command-line arguments for the task, one string each (e.g. [\"-v\", \"my file.txt\"])."
                            + " Each arrives as one literal argument: nothing is expanded by a shell.");

    private final TaskfileSource source;
    private final Settings settings;
    private final ShellLauncher launcher;

    private RunUserTaskTool(TaskfileSource source, Settings settings, ShellLauncher launcher) {
        this.source = source;
        this.settings = settings;
        this.launcher = launcher;
    }

    /**
     * Builds the tool over a Taskfile.
     *
     * @param source the Taskfile, read again when it changes
     * @param settings the project root and the run settings
     * @param launcher starts the commands
     * @return {@code run_user_task}
     */
    static Tool tool(TaskfileSource source, Settings settings, ShellLauncher launcher) {
        RunUserTaskTool runner = new RunUserTaskTool(source, settings, launcher);
        return Tool.of(NAME, DESCRIPTION, PARAMETERS, runner::run)
                .withHints(ToolHints.writing("Run a project's user task")
                        .destructive()
                        .openWorld());
    }

    private ToolResult run(ToolArguments arguments) {
        String name = arguments.requiredName(TASK_NAME);
        List<String> args = args(arguments);
        TaskfileSource.Snapshot snapshot = source.current();
        if (snapshot.problem() != null) {
            return ToolResult.error(ListUserTasksTool.unusable(snapshot.problem()));
        }
        Taskfile taskfile = snapshot.taskfile();
        TaskDef task = taskfile.tasks().get(name);
        if (task == null) {
            return ToolResult.error("Unknown task '" + name + "'. Available tasks: " + runnable(taskfile)
                    + ". Call list_user_tasks to see what each does.");
        }
        if (task.internal()) {
            return ToolResult.error("Task '" + name + "' is internal: only other tasks can call it. Available tasks: "
                    + runnable(taskfile) + ".");
        }
        RunResult result = new TaskRun(taskfile, settings, launcher, args).run(task);
        return new ToolResult(json(result), !result.isSuccess());
    }

    private static String runnable(Taskfile taskfile) {
        List<String> names = taskfile.tasks().values().stream()
                .filter(task -> !task.internal())
                .map(TaskDef::name)
                .sorted(ListUserTasksTool.TASK_ORDER)
                .toList();
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    /**
     * Reads {@code args}: a JSON array of strings, or one string split like a shell splits words. A number
     * or a boolean in the array is taken as its JSON text ({@code 3} is {@code "3"}), since a model that
     * writes {@code ["-n", 3]} means the word {@code 3}. The {@link ToolArguments} getters read the values,
     * with their checks and messages.
     */
    private static List<String> args(ToolArguments arguments) {
        JsonNode value = tree(arguments).path(ARGS);
        List<String> args;
        if (value.isTextual()) {
            args = words(arguments.requiredString(ARGS));
        } else {
            args = scalarsAsText(value).optionalStringList(ARGS).orElse(List.of());
        }
        checkLimits(args);
        return args;
    }

    private static JsonNode tree(ToolArguments arguments) {
        try {
            return MAPPER.readTree(arguments.toJson());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("ToolArguments holds invalid JSON", e);
        }
    }

    /** {@code args} alone, with its numbers and booleans written as strings; other values as sent. */
    private static ToolArguments scalarsAsText(JsonNode value) {
        ObjectNode normalized = JsonNodeFactory.instance.objectNode();
        if (value.isMissingNode()) {
            return ToolArguments.parse(normalized.toString());
        }
        ArrayNode words = normalized.putArray(ARGS);
        for (JsonNode element : value.isArray() ? value : List.of(value)) {
            if (element.isNumber() || element.isBoolean()) {
                words.add(element.asText());
            } else {
                words.add(element);
            }
        }
        return ToolArguments.parse(normalized.toString());
    }

    private static List<String> words(String line) {
        try {
            return ShellWords.split(line);
        } catch (IllegalArgumentException e) {
            throw new ToolArgumentException("Argument '" + ARGS + "' could not be split into words: " + e.getMessage()
                    + ". Send args as a JSON array of strings, e.g. [\"--name\", \"it's\"].");
        }
    }

    private static void checkLimits(List<String> args) {
        if (args.size() > MAX_ARGS) {
            throw new ToolArgumentException(
                    "Too many arguments: " + args.size() + "; at most " + MAX_ARGS + " are accepted.");
        }
        int total = 0;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.length() > MAX_ARG_LENGTH) {
                throw new ToolArgumentException("Argument " + (i + 1) + " in '" + ARGS + "' is " + arg.length()
                        + " characters long; the limit is " + MAX_ARG_LENGTH
                        + ". Pass a file name instead of its content.");
            }
            total += arg.length();
        }
        if (total > MAX_TOTAL_ARGS_LENGTH) {
            throw new ToolArgumentException("The arguments in '" + ARGS + "' are " + total
                    + " characters long together; the limit is " + MAX_TOTAL_ARGS_LENGTH
                    + ". Pass file names instead of contents.");
        }
    }

    /**
     * Renders the result as the JSON text the model reads, within {@link #RESULT_TOKENS}: when the streams make it
     * larger, only the start and the end of each long stream are shown, with a line in the middle that counts the
     * characters left out; long arguments are shortened in the echo as a last resort.
     *
     * @return the JSON text
     */
    static String json(RunResult result) {
        String whole = json(result, result.stdout(), result.stderr(), Integer.MAX_VALUE);
        if (Texts.estimateTokens(whole) <= RESULT_TOKENS) {
            return whole;
        }
        int keep = RESULT_TOKENS * 3 / 2;
        int argChars = Integer.MAX_VALUE;
        while (true) {
            String text = json(result, shown(result.stdout(), keep), shown(result.stderr(), keep), argChars);
            if (Texts.estimateTokens(text) <= RESULT_TOKENS) {
                return text;
            }
            if (keep > MIN_SHOWN_CHARS) {
                keep = Math.max(MIN_SHOWN_CHARS, keep * 3 / 4);
            } else if (argChars > MIN_SHOWN_CHARS) {
                argChars = MIN_SHOWN_CHARS;
            } else {
                return text;
            }
        }
    }

    private static String json(RunResult result, String stdout, String stderr, int argChars) {
        boolean shortened = !stdout.equals(result.stdout()) || !stderr.equals(result.stderr());
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("task", result.task());
        json.put(
                "message",
                shortened
                        ? result.message() + " The output is too long for one answer: the middle of the longer"
                                + " streams is left out; have the task print less (an argument, a filter) to see it."
                        : result.message());
        if (result.exitCode() == null) {
            json.putNull("exit_code");
        } else {
            json.put("exit_code", result.exitCode().intValue());
        }
        json.put("timed_out", result.isTimedOut());
        json.put("truncated", result.isTruncated() || shortened);
        json.put("duration_ms", result.duration().toMillis());
        ArrayNode args = json.putArray("args");
        for (String arg : result.args()) {
            args.add(arg.length() <= argChars ? arg : Texts.abbreviate(arg, argChars));
        }
        json.put("stdout", stdout);
        json.put("stderr", stderr);
        return json.toString();
    }

    /** The text, or its first and last characters around a line that counts what was left out. */
    static String shown(String text, int chars) {
        if (text.length() <= chars) {
            return text;
        }
        int head = Texts.cutIndex(text, chars / 2);
        int tail = text.length() - (chars - head);
        if (tail < text.length() && Character.isLowSurrogate(text.charAt(tail))) {
            tail++;
        }
        return text.substring(0, head)
                + "\n[... " + NumberFormat.getIntegerInstance(Locale.ROOT).format(tail - head)
                + " characters left out here to keep the answer short ...]\n" + text.substring(tail);
    }
}
