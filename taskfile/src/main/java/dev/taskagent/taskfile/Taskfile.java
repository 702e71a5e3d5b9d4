package dev.taskagent.taskfile;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Taskfile as read by {@link TaskfileReader}: only the supported subset, already checked. Every
 * template in it is parsed, so a run never meets an unknown function or a syntax error.
 *
 * <p>Immutable and thread-safe.
 *
 * @param vars the top-level {@code vars}, in file order (later ones may use earlier ones)
 * @param env the top-level {@code env}, in file order
 * @param dotenv the top-level {@code dotenv} file names (templates), in file order
 * @param tasks the tasks by name, in file order
 */
record Taskfile(List<VarDef> vars, List<VarDef> env, List<Template> dotenv, Map<String, TaskDef> tasks) {
    Taskfile {
        vars = List.copyOf(vars);
        env = List.copyOf(env);
        dotenv = List.copyOf(dotenv);
        tasks = Collections.unmodifiableMap(new LinkedHashMap<>(tasks));
    }

    /** A place in the Taskfile, 1-based, for error messages. */
    record Position(int line, int column) {
        @Override
        public String toString() {
            return "line " + line + ", column " + column;
        }
    }

    /**
     * One task.
     *
     * @param name its name, as called
     * @param desc its {@code desc} (a template, rendered when listed), empty when absent (then it is not
     *     listed)
     * @param summary its {@code summary}, empty when absent
     * @param cmds its commands, in order
     * @param deps the tasks run (in parallel) before it
     * @param vars its own {@code vars}, in order
     * @param env its own {@code env}, in order
     * @param dir its {@code dir}, or null for the project root
     * @param silent whether its commands are not echoed
     * @param internal whether it can only be called from other tasks
     * @param ignoreError whether a failing command does not stop it
     * @param requiredVars the names of {@code requires.vars}
     * @param preconditions checks that must pass before its commands run
     * @param status commands that, when all succeed, mark it up to date (nothing runs)
     * @param position where it is defined
     */
    record TaskDef(
            String name,
            Template desc,
            String summary,
            List<Command> cmds,
            List<Call> deps,
            List<VarDef> vars,
            List<VarDef> env,
            Template dir,
            boolean silent,
            boolean internal,
            boolean ignoreError,
            List<String> requiredVars,
            List<Precondition> preconditions,
            List<Template> status,
            Position position) {
        TaskDef {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(desc, "desc");
            Objects.requireNonNull(summary, "summary");
            cmds = List.copyOf(cmds);
            deps = List.copyOf(deps);
            vars = List.copyOf(vars);
            env = List.copyOf(env);
            requiredVars = List.copyOf(requiredVars);
            preconditions = List.copyOf(preconditions);
            status = List.copyOf(status);
            Objects.requireNonNull(position, "position");
        }

        /** @return true when {@code list_user_tasks} shows it: as in go-task, its desc as written decides */
        boolean isListed() {
            return !internal && !desc.source().isBlank();
        }
    }

    /** One entry of {@code cmds}. */
    sealed interface Command {}

    /**
     * A shell command, run with {@code bash -e -c}.
     *
     * @param command the command template
     * @param silent whether it is not echoed
     * @param ignoreError whether its failure is ignored
     * @param position where it is written
     */
    record Shell(Template command, boolean silent, boolean ignoreError, Position position) implements Command {}

    /**
     * A call of another task ({@code task: name}).
     *
     * @param call the call
     * @param ignoreError whether its failure is ignored
     */
    record TaskCall(Call call, boolean ignoreError) implements Command {}

    /**
     * A command run when the task ends, whatever happened ({@code defer:}); defers run in reverse order.
     *
     * @param command a {@link Shell} or a {@link TaskCall}
     */
    record Defer(Command command) implements Command {}

    /**
     * A call of a task, from {@code deps} or {@code cmds}.
     *
     * @param task the name of the task (a template)
     * @param vars the variables passed to it
     * @param silent whether its commands are not echoed
     * @param position where the call is written
     */
    record Call(Template task, List<VarDef> vars, boolean silent, Position position) {
        Call {
            vars = List.copyOf(vars);
        }
    }

    /**
     * A precondition: a command that must succeed, and the message shown when it does not.
     *
     * @param sh the command
     * @param msg the message, or null for the default ("`command` failed")
     */
    record Precondition(Template sh, Template msg) {}

    /**
     * A variable (or an environment variable) definition.
     *
     * @param name its name
     * @param value how its value is made
     * @param position where it is defined
     */
    record VarDef(String name, VarValue value, Position position) {}

    /** How a variable's value is made. */
    sealed interface VarValue {}

    /**
     * A text value, rendered as a template.
     *
     * @param template the text
     */
    record TextValue(Template template) implements VarValue {}

    /**
     * A typed value taken as it is: a Boolean, Long, Double, a List of those or of Strings, or null.
     *
     * @param value the value
     */
    record LiteralValue(Object value) implements VarValue {}

    /**
     * The output of a shell command ({@code sh:}), with one trailing newline removed.
     *
     * @param command the command template
     */
    record ShellValue(Template command) implements VarValue {}
}
