package dev.taskagent.taskfile;

import dev.taskagent.internal.Texts;
import dev.taskagent.taskfile.Taskfile.Call;
import dev.taskagent.taskfile.Taskfile.Command;
import dev.taskagent.taskfile.Taskfile.Defer;
import dev.taskagent.taskfile.Taskfile.Precondition;
import dev.taskagent.taskfile.Taskfile.Shell;
import dev.taskagent.taskfile.Taskfile.TaskCall;
import dev.taskagent.taskfile.Taskfile.TaskDef;
import dev.taskagent.taskfile.Taskfile.VarDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a task with its deps, called tasks and defers, within one deadline and with one pair of
 * capped outputs. Implements go-task's order: required variables, deps (in parallel), preconditions,
 * status, then the commands; defers run at the end in reverse order.
 *
 * <p>The variables and environment of each task are layered by {@link Variables}; the run gives them the
 * task's directory and runs their {@code sh:} commands.
 *
 * <p>Used once, by one thread (it starts its own threads for parallel deps).
 */
final class TaskRun {
    private static final Logger LOG = LoggerFactory.getLogger(TaskRun.class);
    private static final int MAX_CALLS_PER_TASK = 100;
    private static final int MAX_COMMAND_IN_MESSAGE = 200;

    /** The quoted arguments of a run are shortened to this many characters in the log. */
    private static final int MAX_ARGS_IN_LOG = 300;

    private final Taskfile taskfile;
    private final Settings settings;
    private final ShellLauncher launcher;
    private final Path root;
    private final List<String> args;
    private final long deadlineNanos;
    private final CappedOutput stdout;
    private final CappedOutput stderr;
    private final Map<String, String> shellValues = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> callCounts = new ConcurrentHashMap<>();
    private Path realRoot;
    private Variables variables;
    private volatile Path workingDirectory;

    /** The state of one task invocation: its variables, directory and environment. */
    private record Scope(TaskDef task, Map<String, Object> vars, Path dir, Map<String, String> env, boolean isSilent) {}

    TaskRun(Taskfile taskfile, Settings settings, ShellLauncher launcher, List<String> args) {
        this.taskfile = taskfile;
        this.settings = settings;
        this.launcher = launcher;
        this.root = settings.projectRoot();
        this.args = List.copyOf(args);
        this.deadlineNanos = System.nanoTime() + settings.timeout().toNanos();
        this.stdout = new CappedOutput(settings.outputLimitBytes());
        this.stderr = new CappedOutput(settings.outputLimitBytes());
    }

    /**
     * Runs a task that the caller has found and checked (it exists and is not internal).
     *
     * @param task the task
     * @return the outcome
     */
    RunResult run(TaskDef task) {
        Instant started = settings.clock().instant();
        TaskFailure failure = null;
        boolean isUpToDate = false;
        try {
            realRoot = root.toRealPath();
            variables = Variables.load(taskfile, settings, args, realRoot, shellRunner(task), deadlineNanos);
            isUpToDate = !runTask(task, Map.of(), false);
        } catch (TaskFailure e) {
            failure = e;
        } catch (IOException e) {
            failure = TaskFailure.refused("The project root " + root + " cannot be read: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = TaskFailure.refused(
                    "The run of task '" + task.name() + "' was interrupted; its processes" + " were stopped.");
        }
        Duration duration = Duration.between(started, settings.clock().instant());
        RunResult result = new RunResult(
                task.name(),
                args,
                failure == null,
                failure == null ? Integer.valueOf(0) : failure.exitCode(),
                failure != null && failure.isTimedOut(),
                duration,
                stdout.render(),
                stderr.render(),
                stdout.droppedBytes(),
                stderr.droppedBytes(),
                message(task, failure, isUpToDate));
        log(result);
        return result;
    }

    private String message(TaskDef task, TaskFailure failure, boolean isUpToDate) {
        String truncation = stdout.isTruncated() || stderr.isTruncated()
                ? " The output was longer than " + settings.outputLimitBytes() + " bytes: its middle was dropped."
                : "";
        if (failure != null) {
            return failure.getMessage() + truncation;
        }
        if (isUpToDate) {
            return "Task '" + task.name() + "' is up to date (its status checks passed); nothing ran.";
        }
        return "Task '" + task.name() + "' succeeded." + truncation;
    }

    private void log(RunResult result) {
        String quotedArgs = Texts.abbreviate(ShellWords.quoteAll(result.args()), MAX_ARGS_IN_LOG);
        LOG.info(
                "Ran user task '{}' with args [{}] in {}: exit code {}, {} ms, timed out: {}, stdout dropped {} bytes,"
                        + " stderr dropped {} bytes",
                Texts.forLog(result.task()),
                Texts.forLog(quotedArgs),
                Texts.forLog(String.valueOf(workingDirectory == null ? root : workingDirectory)),
                result.exitCode(),
                result.duration().toMillis(),
                result.isTimedOut(),
                result.stdoutDroppedBytes(),
                result.stderrDroppedBytes());
    }

    // ---- tasks -----------------------------------------------------------------------------------

    /** Runs a task; returns false when its status checks found it up to date. */
    private boolean runTask(TaskDef task, Map<String, Object> callVars, boolean isCallSilent)
            throws TaskFailure, InterruptedException {
        countCall(task);
        Scope scope = prepare(task, callVars, isCallSilent);
        checkRequiredVars(scope);
        runDeps(scope);
        checkPreconditions(scope);
        if (isUpToDate(scope)) {
            if (!scope.isSilent()) {
                stderr.write("task: Task \"" + task.name() + "\" is up to date\n");
            }
            return false;
        }
        runCommands(scope);
        return true;
    }

    private void countCall(TaskDef task) throws TaskFailure {
        int calls = callCounts
                .computeIfAbsent(task.name(), name -> new AtomicInteger())
                .incrementAndGet();
        if (calls > MAX_CALLS_PER_TASK) {
            throw TaskFailure.refused("Task '" + task.name() + "' was called more than " + MAX_CALLS_PER_TASK
                    + " times in one run; check the Taskfile for a cycle of deps or task calls.");
        }
    }

    private Scope prepare(TaskDef task, Map<String, Object> callVars, boolean isCallSilent)
            throws TaskFailure, InterruptedException {
        Variables.Shell shell = shellRunner(task);
        Variables.Values values = variables.taskfileValues(task, shell);
        values.vars().putAll(callVars);
        Path varsDir = directory(task, values.vars(), false);
        variables.addVars(task.vars(), values, varsDir, shell);
        Path dir = directory(task, values.vars(), true);
        variables.addEnv(task.env(), values, dir, shell);
        if (workingDirectory == null) {
            workingDirectory = dir; // the first task prepared is the one the model asked for
        }
        return new Scope(task, values.vars(), dir, values.env(), task.silent() || isCallSilent);
    }

    private void checkRequiredVars(Scope scope) throws TaskFailure {
        List<String> missing = new ArrayList<>();
        for (String name : scope.task().requiredVars()) {
            if (!scope.vars().containsKey(name)) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            throw TaskFailure.refused("Task '" + scope.task().name() + "' did not run: it requires variables that"
                    + " are not set: " + String.join(", ", missing) + ". They come from the Taskfile's vars, the"
                    + " passed environment, or the vars of the task that calls it; ask the user to set them.");
        }
    }

    private void runDeps(Scope scope) throws TaskFailure, InterruptedException {
        List<Call> deps = scope.task().deps();
        if (deps.isEmpty()) {
            return;
        }
        List<TaskDef> tasks = new ArrayList<>();
        List<Map<String, Object>> callVars = new ArrayList<>();
        for (Call dep : deps) {
            tasks.add(calledTask(scope, dep));
            callVars.add(callVars(scope, dep));
        }
        if (deps.size() == 1) {
            runTask(tasks.get(0), callVars.get(0), deps.get(0).silent());
            return;
        }
        Object[] outcomes = new Object[deps.size()];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < deps.size(); i++) {
            int index = i;
            Thread thread = new Thread(
                    () -> {
                        try {
                            runTask(
                                    tasks.get(index),
                                    callVars.get(index),
                                    deps.get(index).silent());
                        } catch (TaskFailure | RuntimeException | Error e) {
                            outcomes[index] = e;
                        } catch (InterruptedException e) {
                            outcomes[index] = TaskFailure.refused(
                                    "A dep of task '" + scope.task().name() + "' was interrupted.");
                        }
                    },
                    "taskfile-dep-" + tasks.get(i).name());
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        try {
            for (Thread thread : threads) {
                thread.join();
            }
        } catch (InterruptedException e) {
            threads.forEach(Thread::interrupt);
            throw e;
        }
        rethrowFirst(outcomes);
    }

    private static void rethrowFirst(Object[] outcomes) throws TaskFailure {
        for (Object outcome : outcomes) {
            if (outcome instanceof TaskFailure failure && failure.isTimedOut()) {
                throw failure;
            }
        }
        for (Object outcome : outcomes) {
            if (outcome instanceof TaskFailure failure) {
                throw failure;
            }
            if (outcome instanceof RuntimeException e) {
                throw e;
            }
            if (outcome instanceof Error e) {
                throw e;
            }
        }
    }

    private void checkPreconditions(Scope scope) throws TaskFailure, InterruptedException {
        for (Precondition precondition : scope.task().preconditions()) {
            String command = variables.render(precondition.sh(), scope.vars());
            ShellLauncher.Outcome outcome =
                    launch(scope, command, ShellLauncher.Sink.DISCARD, ShellLauncher.Sink.DISCARD);
            if (outcome.exitCode() != 0) {
                String message = precondition.msg() == null
                        ? "`" + command + "` failed"
                        : variables.render(precondition.msg(), scope.vars());
                stderr.write("task: " + message + "\n");
                throw TaskFailure.exited(
                        "Task '" + scope.task().name() + "' did not run: a precondition was not met: " + message
                                + " (exit code " + outcome.exitCode() + ").",
                        outcome.exitCode());
            }
        }
    }

    private boolean isUpToDate(Scope scope) throws TaskFailure, InterruptedException {
        if (scope.task().status().isEmpty()) {
            return false;
        }
        for (Template status : scope.task().status()) {
            String command = variables.render(status, scope.vars());
            if (launch(scope, command, ShellLauncher.Sink.DISCARD, ShellLauncher.Sink.DISCARD)
                            .exitCode()
                    != 0) {
                return false;
            }
        }
        return true;
    }

    // ---- commands --------------------------------------------------------------------------------

    private void runCommands(Scope scope) throws TaskFailure, InterruptedException {
        Deque<Command> defers = new ArrayDeque<>();
        TaskFailure failure = null;
        for (Command command : scope.task().cmds()) {
            if (command instanceof Defer defer) {
                defers.push(defer.command());
                continue;
            }
            try {
                runCommand(scope, command, scope.vars());
            } catch (TaskFailure e) {
                if (e.isIgnorable() && (ignoresError(command) || scope.task().ignoreError())) {
                    continue;
                }
                failure = e;
                break;
            }
        }
        runDefers(scope, defers, failure);
        if (failure != null) {
            throw failure;
        }
    }

    private static boolean ignoresError(Command command) {
        if (command instanceof Shell shell) {
            return shell.ignoreError();
        }
        return command instanceof TaskCall call && call.ignoreError();
    }

    private void runDefers(Scope scope, Deque<Command> defers, TaskFailure failure) throws InterruptedException {
        if (defers.isEmpty()) {
            return;
        }
        if (failure != null && failure.isTimedOut()) {
            stderr.write("task: the deferred commands of '" + scope.task().name() + "' did not run: the run timed"
                    + " out\n");
            return;
        }
        Map<String, Object> vars = scope.vars();
        if (failure != null && failure.exitCode() != null && failure.exitCode() > 0) {
            vars = new LinkedHashMap<>(vars);
            vars.put("EXIT_CODE", failure.exitCode().toString());
        }
        for (Command deferred : defers) {
            try {
                runCommand(scope, deferred, vars);
            } catch (TaskFailure e) {
                if (e.isTimedOut()) {
                    return;
                }
                stderr.write("task: [" + scope.task().name() + "] a deferred command failed (ignored): "
                        + e.getMessage() + "\n");
            }
        }
    }

    private void runCommand(Scope scope, Command command, Map<String, Object> vars)
            throws TaskFailure, InterruptedException {
        if (command instanceof Shell shell) {
            runShell(scope, shell, vars);
        } else if (command instanceof TaskCall taskCall) {
            Call call = taskCall.call();
            Scope callerScope = new Scope(scope.task(), vars, scope.dir(), scope.env(), scope.isSilent());
            runTask(calledTask(callerScope, call), callVars(callerScope, call), call.silent());
        }
    }

    private void runShell(Scope scope, Shell shell, Map<String, Object> vars) throws TaskFailure, InterruptedException {
        String command = variables.render(shell.command(), vars);
        if (!scope.isSilent() && !shell.silent()) {
            stderr.write("task: [" + scope.task().name() + "] " + command + "\n");
        }
        ShellLauncher.Outcome outcome = launch(scope, command, stdout::write, stderr::write);
        if (outcome.exitCode() != 0) {
            throw TaskFailure.exited(
                    "Task '" + scope.task().name() + "' failed: the command `" + abbreviate(command)
                            + "` exited with code " + outcome.exitCode() + ".",
                    outcome.exitCode());
        }
    }

    private TaskDef calledTask(Scope scope, Call call) throws TaskFailure {
        String name = variables.render(call.task(), scope.vars());
        TaskDef task = taskfile.tasks().get(name);
        if (task == null) {
            throw TaskFailure.refused("Task '" + scope.task().name() + "' calls task '" + name + "' (" + call.position()
                    + "), which is not defined in the Taskfile.");
        }
        return task;
    }

    private Map<String, Object> callVars(Scope scope, Call call) throws TaskFailure, InterruptedException {
        Map<String, Object> values = new LinkedHashMap<>();
        for (VarDef def : call.vars()) {
            values.put(
                    def.name(),
                    variables.value(def, scope.vars(), scope.dir(), scope.env(), shellRunner(scope.task())));
        }
        return values;
    }

    // ---- values and processes --------------------------------------------------------------------

    /** @return what runs the {@code sh:} values of a task: once per directory and command in a run */
    private Variables.Shell shellRunner(TaskDef task) {
        return (def, command, dir, env) -> shellValue(task, def, command, dir, env);
    }

    private String shellValue(TaskDef task, VarDef def, String command, Path dir, Map<String, String> env)
            throws TaskFailure, InterruptedException {
        String key = dir + "\0" + command;
        String cached = shellValues.get(key);
        if (cached != null) {
            return cached;
        }
        CappedOutput output = new CappedOutput(settings.outputLimitBytes());
        ShellLauncher.Outcome outcome = launch(task, command, dir, env, output::write, stderr::write);
        if (outcome.exitCode() != 0) {
            throw TaskFailure.exited(
                    "Task '" + task.name() + "' failed: the command of variable " + def.name() + " (`"
                            + abbreviate(command) + "`, " + def.position() + ") exited with code "
                            + outcome.exitCode() + ".",
                    outcome.exitCode());
        }
        if (output.isTruncated()) {
            throw TaskFailure.refused("Task '" + task.name() + "' failed: the command of variable " + def.name()
                    + " printed more than " + settings.outputLimitBytes() + " bytes.");
        }
        String value = output.rawText();
        if (value.endsWith("\r\n")) {
            value = value.substring(0, value.length() - 2);
        } else if (value.endsWith("\n")) {
            value = value.substring(0, value.length() - 1);
        }
        shellValues.put(key, value);
        return value;
    }

    private ShellLauncher.Outcome launch(Scope scope, String command, ShellLauncher.Sink out, ShellLauncher.Sink err)
            throws TaskFailure, InterruptedException {
        return launch(scope.task(), command, scope.dir(), scope.env(), out, err);
    }

    private ShellLauncher.Outcome launch(
            TaskDef task,
            String command,
            Path dir,
            Map<String, String> env,
            ShellLauncher.Sink out,
            ShellLauncher.Sink err)
            throws TaskFailure, InterruptedException {
        if (System.nanoTime() - deadlineNanos >= 0) {
            throw timeout(task);
        }
        ShellLauncher.Outcome outcome;
        try {
            outcome = launcher.run(command, dir, env, out, err, deadlineNanos);
        } catch (IOException e) {
            throw TaskFailure.refused("Task '" + task.name() + "' failed: the command `" + abbreviate(command)
                    + "` could not be started: " + e.getMessage());
        }
        if (outcome.timedOut()) {
            throw timeout(task);
        }
        return outcome;
    }

    private TaskFailure timeout(TaskDef task) {
        return TaskFailure.timedOut("Task '" + task.name() + "' timed out after " + describe(settings.timeout())
                + "; all its processes were stopped (exit code 124).");
    }

    /** Resolves a task's {@code dir} beneath the project root, refusing anything that leaves it. */
    private Path directory(TaskDef task, Map<String, Object> vars, boolean isFinal) throws TaskFailure {
        if (task.dir() == null) {
            return realRoot;
        }
        String text = variables.render(task.dir(), vars);
        if (text.isBlank()) {
            return realRoot;
        }
        Path candidate;
        try {
            candidate = root.resolve(text).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw TaskFailure.refused("Task '" + task.name() + "': dir '" + text + "' is not a valid path.");
        }
        if (!candidate.startsWith(root)) {
            throw outside(task, text, candidate.toString());
        }
        try {
            Path existing = candidate;
            while (!Files.exists(existing)) {
                existing = existing.getParent();
            }
            Path real = existing.toRealPath();
            if (!real.startsWith(realRoot)) {
                throw outside(task, text, real + " (through a symbolic link)");
            }
            if (!existing.equals(candidate)) {
                if (!isFinal) {
                    return realRoot;
                }
                Files.createDirectories(candidate);
            }
            Path resolved = candidate.toRealPath();
            if (!resolved.startsWith(realRoot)) {
                throw outside(task, text, resolved + " (through a symbolic link)");
            }
            if (!Files.isDirectory(resolved)) {
                throw TaskFailure.refused("Task '" + task.name() + "': dir '" + text + "' is not a directory.");
            }
            return resolved;
        } catch (IOException e) {
            throw TaskFailure.refused(
                    "Task '" + task.name() + "': dir '" + text + "' cannot be used: " + e.getMessage());
        }
    }

    private TaskFailure outside(TaskDef task, String dir, String resolved) {
        return TaskFailure.refused("Task '" + task.name() + "' did not run: its dir '" + dir + "' resolves to "
                + resolved + ", outside the project root " + root + ". A task's dir must stay beneath the project"
                + " root.");
    }

    private static String abbreviate(String command) {
        return Texts.abbreviate(command.strip().replace("\n", "\\n"), MAX_COMMAND_IN_MESSAGE);
    }

    static String describe(Duration duration) {
        if (duration.toMillis() < 1000) {
            return duration.toMillis() + " ms";
        }
        if (duration.toSeconds() < 120 || duration.toSecondsPart() != 0) {
            return duration.toSeconds() + " s";
        }
        return duration.toMinutes() + " min";
    }
}
