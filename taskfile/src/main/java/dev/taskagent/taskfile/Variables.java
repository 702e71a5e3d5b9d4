package dev.taskagent.taskfile;

import dev.taskagent.taskfile.Taskfile.LiteralValue;
import dev.taskagent.taskfile.Taskfile.ShellValue;
import dev.taskagent.taskfile.Taskfile.TaskDef;
import dev.taskagent.taskfile.Taskfile.TextValue;
import dev.taskagent.taskfile.Taskfile.VarDef;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The variables and environment of tasks, layered as go-task layers them.
 *
 * <p>Variables, lowest precedence first: the passed host environment and dotenv, the special variables, the
 * Taskfile's {@code env} and {@code vars}, the caller's {@code vars}, the task's {@code vars}. The
 * environment of a command, lowest first: the passed host environment, dotenv, the Taskfile's {@code env},
 * the task's {@code env}. Values are computed in file order, so a value may use the ones before it.
 *
 * <p>{@code sh:} values get their value from a {@link Shell} that the caller passes: a run runs the
 * command, a listing does not.
 *
 * <p>Every template of a run (or a listing) is rendered here, against one budget of
 * {@link #MAX_RENDERED_CHARS} characters in all, so that variables that repeat each other cannot fill the
 * heap: ten of them, each twice the one before, already make a thousand times the text.
 *
 * <p>Thread-safe: the parallel deps of a run share one. Its only state is the render budget, an atomic
 * counter; everything else is fixed when it is made.
 */
final class Variables {
    /** Gives an {@code sh:} value its value. */
    interface Shell {
        /**
         * Returns the value of an {@code sh:} variable.
         *
         * @param def the variable
         * @param command its command, rendered
         * @param dir the directory to run it in
         * @param env the environment to run it with
         * @return the value
         * @throws TaskFailure if the command fails
         * @throws InterruptedException if the thread is interrupted
         */
        String output(VarDef def, String command, Path dir, Map<String, String> env)
                throws TaskFailure, InterruptedException;
    }

    /** For listing: runs nothing, and every {@code sh:} value is empty, as {@code task --list} has them. */
    static final Shell NOT_RUN = (def, command, dir, env) -> "";

    /**
     * The variables and environment of one task invocation, filled layer by layer.
     *
     * @param vars the template variables
     * @param env the environment of its commands
     */
    record Values(Map<String, Object> vars, Map<String, String> env) {}

    /**
     * How many characters the templates of one run (or one listing) may render together: 16 Mi, far more
     * than commands can take (Linux limits one argument to 128 KiB) and little enough for any heap.
     */
    static final long MAX_RENDERED_CHARS = 16L * 1024 * 1024;

    private final Taskfile taskfile;
    private final Settings settings;
    private final List<String> args;
    private final Map<String, String> dotenv;
    private final AtomicLong renderBudget;

    private Variables(
            Taskfile taskfile,
            Settings settings,
            List<String> args,
            Map<String, String> dotenv,
            AtomicLong renderBudget) {
        this.taskfile = taskfile;
        this.settings = settings;
        this.args = List.copyOf(args);
        this.dotenv = Map.copyOf(dotenv);
        this.renderBudget = renderBudget;
    }

    /**
     * Reads the Taskfile's dotenv files and returns the variables of a run or a listing.
     *
     * @param taskfile the Taskfile
     * @param settings the settings (host environment, project root)
     * @param args the run's arguments, for {@code CLI_ARGS}
     * @param realRoot the project root with its links resolved
     * @param shell what gives {@code sh:} values their value
     * @param deadlineNanos the {@link System#nanoTime()} by which the dotenv files must be read
     * @return the variables
     * @throws TaskFailure if a dotenv file is outside the project root, not a small regular file, malformed,
     *     or not read by the deadline (then the failure says it timed out), or an {@code sh:} value fails
     * @throws InterruptedException if the thread is interrupted
     */
    static Variables load(
            Taskfile taskfile, Settings settings, List<String> args, Path realRoot, Shell shell, long deadlineNanos)
            throws TaskFailure, InterruptedException {
        AtomicLong renderBudget = new AtomicLong(MAX_RENDERED_CHARS);
        Variables withoutDotenv = new Variables(taskfile, settings, args, Map.of(), renderBudget);
        Map<String, String> dotenv = withoutDotenv.readDotenv(realRoot, shell, deadlineNanos);
        return new Variables(taskfile, settings, args, dotenv, renderBudget);
    }

    /**
     * Renders a template, counting its text against the budget of the run.
     *
     * @param template the template
     * @param vars its variables
     * @return the text
     * @throws TaskFailure if the run's templates would render more than {@link #MAX_RENDERED_CHARS}
     */
    String render(Template template, Map<String, ?> vars) throws TaskFailure {
        try {
            String text = template.render(vars, Math.max(0, renderBudget.get()));
            if (renderBudget.addAndGet(-text.length()) >= 0) {
                return text;
            }
        } catch (Template.TooLongException e) {
            // reported below
        }
        renderBudget.set(-1); // parallel deps stop too
        throw TaskFailure.refused("The Taskfile's templates expand to more than "
                + String.format("%,d", MAX_RENDERED_CHARS)
                + " characters (the last one at " + template.position() + "); look for variables that repeat each"
                + " other.");
    }

    /**
     * Returns what every task starts from: the passed host environment and dotenv, the special variables, and
     * the Taskfile's {@code env} and {@code vars}.
     *
     * @param task the task, for {@code TASK}
     * @param shell what gives {@code sh:} values their value (they run in the project root)
     * @return new, modifiable maps
     * @throws TaskFailure if an {@code sh:} value fails
     * @throws InterruptedException if the thread is interrupted
     */
    Values taskfileValues(TaskDef task, Shell shell) throws TaskFailure, InterruptedException {
        Map<String, Object> special = specialVars();
        special.put("TASK", task.name());
        return taskfileValues(special, shell);
    }

    private Values taskfileValues(Map<String, Object> special, Shell shell) throws TaskFailure, InterruptedException {
        Map<String, String> env = new LinkedHashMap<>(settings.environment());
        env.putAll(dotenv);
        Map<String, Object> vars = new LinkedHashMap<>(env);
        vars.putAll(special);
        Values values = new Values(vars, env);
        addEnv(taskfile.env(), values, settings.projectRoot(), shell);
        addVars(taskfile.vars(), values, settings.projectRoot(), shell);
        return values;
    }

    /**
     * Adds variable definitions, in order, each one seeing the ones before it.
     *
     * @param defs the definitions
     * @param values where to add them
     * @param dir where their {@code sh:} commands run
     * @param shell what gives {@code sh:} values their value
     * @throws TaskFailure if an {@code sh:} value fails
     * @throws InterruptedException if the thread is interrupted
     */
    void addVars(List<VarDef> defs, Values values, Path dir, Shell shell) throws TaskFailure, InterruptedException {
        for (VarDef def : defs) {
            values.vars().put(def.name(), value(def, values.vars(), dir, values.env(), shell));
        }
    }

    /**
     * Adds environment definitions, in order; each becomes a variable too.
     *
     * @param defs the definitions
     * @param values where to add them
     * @param dir where their {@code sh:} commands run
     * @param shell what gives {@code sh:} values their value
     * @throws TaskFailure if an {@code sh:} value fails
     * @throws InterruptedException if the thread is interrupted
     */
    void addEnv(List<VarDef> defs, Values values, Path dir, Shell shell) throws TaskFailure, InterruptedException {
        for (VarDef def : defs) {
            String value = Template.print(value(def, values.vars(), dir, values.env(), shell));
            values.env().put(def.name(), value);
            values.vars().put(def.name(), value);
        }
    }

    /**
     * Computes one value.
     *
     * @param def the definition
     * @param vars the variables its templates see
     * @param dir where an {@code sh:} command runs
     * @param env the environment an {@code sh:} command gets
     * @param shell what gives {@code sh:} values their value
     * @return a String, Boolean, Long, Double, List or null
     * @throws TaskFailure if an {@code sh:} value fails
     * @throws InterruptedException if the thread is interrupted
     */
    Object value(VarDef def, Map<String, Object> vars, Path dir, Map<String, String> env, Shell shell)
            throws TaskFailure, InterruptedException {
        if (def.value() instanceof TextValue text) {
            return render(text.template(), vars);
        }
        if (def.value() instanceof LiteralValue literal) {
            return literal.value();
        }
        return shell.output(def, render(((ShellValue) def.value()).command(), vars), dir, env);
    }

    /**
     * Returns the special variables of the run ({@code TASK} is added per task). The directories are those
     * of {@code task --dir <project root> --taskfile .agent/Taskfile.yml} run from the project root: commands
     * run in {@code ROOT_DIR}, the project root; {@code TASKFILE_DIR} is the {@code .agent/} folder.
     */
    private Map<String, Object> specialVars() {
        String projectRoot = settings.projectRoot().toString();
        Map<String, Object> special = new LinkedHashMap<>();
        special.put("ROOT_DIR", projectRoot);
        special.put("TASKFILE_DIR", settings.taskfilePath().getParent().toString());
        special.put("USER_WORKING_DIR", projectRoot);
        special.put("CLI_ARGS", ShellWords.quoteAll(args));
        special.put("CLI_ARGS_LIST", args);
        return special;
    }

    /**
     * Reads the dotenv files. As in go-task, their names are rendered with the Taskfile's variables as they
     * are before any dotenv file is read: the host environment, the special variables (no {@code TASK}),
     * and the Taskfile's {@code env} and {@code vars}.
     */
    private Map<String, String> readDotenv(Path realRoot, Shell shell, long deadlineNanos)
            throws TaskFailure, InterruptedException {
        if (taskfile.dotenv().isEmpty()) {
            return Map.of();
        }
        Path root = settings.projectRoot();
        Map<String, Object> vars = taskfileValues(specialVars(), shell).vars();
        Map<String, String> values = new LinkedHashMap<>();
        for (Template template : taskfile.dotenv()) {
            String name = render(template, vars);
            if (name.isBlank()) {
                continue;
            }
            Path file;
            try {
                file = root.resolve(name).normalize();
            } catch (InvalidPathException e) {
                throw TaskFailure.refused("The dotenv file name at " + template.position() + " is not a valid path: "
                        + e.getReason() + ".");
            }
            try {
                if (!Files.exists(file)) {
                    continue;
                }
                if (!file.startsWith(root) || !file.toRealPath().startsWith(realRoot)) {
                    throw TaskFailure.refused("The dotenv file '" + name + "' is outside the project root " + root
                            + "; keep .env files beneath it.");
                }
                String content = StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(SmallFile.read(file, deadlineNanos)))
                        .toString();
                Dotenv.parse(content).forEach(values::putIfAbsent);
            } catch (CharacterCodingException e) {
                throw TaskFailure.refused("The dotenv file '" + name + "' is not UTF-8 text.");
            } catch (SmallFile.RefusedFileException e) {
                throw TaskFailure.refused("The dotenv file '" + name + "' " + e.getMessage() + "; dotenv files must be"
                        + " regular files of at most " + SmallFile.MAX_SIZE_TEXT + ".");
            } catch (TimeoutException e) {
                throw TaskFailure.timedOut("Reading the dotenv file '" + name + "' did not finish before the deadline"
                        + " (is it a named pipe?).");
            } catch (IOException e) {
                throw TaskFailure.refused("The dotenv file '" + name + "' cannot be read: " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw TaskFailure.refused("The dotenv file '" + name + "' is malformed at " + e.getMessage() + ".");
            }
        }
        return values;
    }
}
