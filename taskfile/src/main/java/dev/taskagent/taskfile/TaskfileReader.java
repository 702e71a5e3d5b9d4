package dev.taskagent.taskfile;

import dev.taskagent.taskfile.Taskfile.Call;
import dev.taskagent.taskfile.Taskfile.Command;
import dev.taskagent.taskfile.Taskfile.Defer;
import dev.taskagent.taskfile.Taskfile.LiteralValue;
import dev.taskagent.taskfile.Taskfile.Position;
import dev.taskagent.taskfile.Taskfile.Precondition;
import dev.taskagent.taskfile.Taskfile.Shell;
import dev.taskagent.taskfile.Taskfile.ShellValue;
import dev.taskagent.taskfile.Taskfile.TaskCall;
import dev.taskagent.taskfile.Taskfile.TaskDef;
import dev.taskagent.taskfile.Taskfile.TextValue;
import dev.taskagent.taskfile.Taskfile.VarDef;
import dev.taskagent.taskfile.Taskfile.VarValue;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Reads a Taskfile (go-task v3) into a {@link Taskfile}, accepting only the supported subset: every key
 * is either understood or refused by name, with its line and column. Duplicate keys are refused too.
 *
 * <p>Stateless and thread-safe.
 */
final class TaskfileReader {
    /** Variables the runner sets; a Taskfile may not define them. */
    static final Set<String> SPECIAL_VARS =
            Set.of("CLI_ARGS", "CLI_ARGS_LIST", "TASK", "ROOT_DIR", "TASKFILE_DIR", "USER_WORKING_DIR", "EXIT_CODE");

    private static final int MAX_CODE_POINTS = 1_000_000;

    /**
     * How deeply lists and mappings may nest. The supported subset needs seven levels at most (a list
     * variable in the vars of a task call); the YAML composer recurses once per level, so a few kilobytes of
     * {@code [[[[…} would otherwise overflow the stack.
     */
    static final int MAX_NESTING = 50;

    private static final Set<String> TOP_LEVEL_KEYS = Set.of("version", "vars", "env", "dotenv", "tasks");
    private static final Set<String> TASK_KEYS = Set.of(
            "desc",
            "summary",
            "cmds",
            "cmd",
            "deps",
            "vars",
            "env",
            "dir",
            "silent",
            "internal",
            "ignore_error",
            "requires",
            "preconditions",
            "status");

    /** A go-task feature that is deliberately not supported, and what to do instead. */
    private record Refusal(String feature, String instead) {}

    private static final Map<String, Refusal> REFUSED = Map.ofEntries(
            refusal("includes", "'includes' (tasks from other Taskfiles)", "copy the tasks into this file"),
            refusal("output", "'output' (grouped or prefixed output)", "output is captured as it comes"),
            refusal("method", "'method' (fingerprinting of sources)", "use 'status' commands instead"),
            refusal("run", "'run' (run once or when changed)", "tasks always run; use 'status' to skip work"),
            refusal("set", "'set' (shell options)", "commands run with bash -e; write 'set -o …' in a command"),
            refusal("shopt", "'shopt' (bash options)", "write 'shopt -s …' in a command"),
            refusal("interval", "'interval' (watch mode)", "remove it"),
            refusal("watch", "'watch' (watch mode)", "remove it"),
            refusal("sources", "'sources' (up-to-date checks by file fingerprints)", "use 'status' commands instead"),
            refusal("generates", "'generates' (up-to-date checks by file fingerprints)", "use 'status' instead"),
            refusal("platforms", "'platforms'", "test {{OS}} or {{ARCH}} in a command instead"),
            refusal("prompt", "'prompt' (asking for confirmation)", "an agent cannot answer prompts; remove it"),
            refusal("interactive", "'interactive'", "tasks run without a terminal and with an empty stdin"),
            refusal("for", "'for' (loops)", "write the commands out, or loop in bash"),
            refusal("aliases", "'aliases'", "call the task by its name"),
            refusal("label", "'label'", "remove it"),
            refusal("prefix", "'prefix'", "remove it"),
            refusal("failfast", "'failfast'", "remove it"),
            refusal("if", "'if' (conditional tasks and commands)", "use 'preconditions' or test in the command"),
            refusal("silent", "'silent' here", "set silent: true on a task or a {cmd: …}"),
            refusal("dotenv", "'dotenv' here", "put dotenv at the top level of the Taskfile"),
            refusal("ref", "'ref' (variables by reference)", "use a plain value or sh:"),
            refusal("map", "'map' (map variables)", "use plain values"),
            refusal("json", "'json' variables", "use a plain value or sh:"),
            refusal("yaml", "'yaml' variables", "use a plain value or sh:"),
            refusal("enum", "'enum' (allowed values of a required variable)", "check the value in a precondition"));

    private static Map.Entry<String, Refusal> refusal(String key, String feature, String instead) {
        return Map.entry(key, new Refusal(feature, instead));
    }

    private TaskfileReader() {}

    /**
     * Reads a Taskfile.
     *
     * @param text the file's content
     * @return the Taskfile
     * @throws TaskfileException if it is not valid YAML, not a version 3 Taskfile, or uses anything outside
     *     the supported subset
     */
    static Taskfile read(String text) throws TaskfileException {
        if (text.codePointCount(0, text.length()) > MAX_CODE_POINTS) {
            throw new TaskfileException(
                    new Position(1, 1), "the file is larger than " + MAX_CODE_POINTS + " characters; keep it short");
        }
        Node root = compose(text);
        if (!(root instanceof MappingNode mapping)) {
            throw new TaskfileException(
                    position(root), "a Taskfile is a mapping that starts with version: '3' and has tasks:");
        }
        Map<String, NodeTuple> entries = entries(mapping, TOP_LEVEL_KEYS, "at the top level");
        NodeTuple version = entries.get("version");
        if (version == null) {
            throw new TaskfileException(position(root), "'version' is missing; start the file with version: '3'");
        }
        checkVersion(version.getValueNode());
        List<VarDef> vars = varDefs(value(entries, "vars"), "vars");
        List<VarDef> env = envDefs(value(entries, "env"));
        List<Template> dotenv = templates(value(entries, "dotenv"), "dotenv");
        Map<String, TaskDef> tasks = tasks(value(entries, "tasks"));
        checkCalls(tasks);
        return new Taskfile(vars, env, dotenv, tasks);
    }

    private static Node compose(String text) throws TaskfileException {
        LoadSettings settings = LoadSettings.builder()
                .setLabel("Taskfile")
                .setSchema(new CoreSchema())
                .setAllowDuplicateKeys(false)
                .setAllowRecursiveKeys(false)
                .setMaxAliasesForCollections(50)
                .setCodePointLimit(MAX_CODE_POINTS * 4)
                .build();
        Parser parser = new NestingLimit(new ParserImpl(settings, new StreamReader(settings, text)));
        try {
            return new Composer(settings, parser)
                    .getSingleNode()
                    .orElseThrow(() -> new TaskfileException(
                            new Position(1, 1), "the file is empty; write version: '3' and a tasks: mapping"));
        } catch (MarkedYamlEngineException e) {
            Mark mark = e.getProblemMark().or(e::getContextMark).orElse(null);
            Position position = mark == null ? new Position(1, 1) : position(mark);
            String problem = e.getProblem() == null ? "invalid YAML" : e.getProblem();
            String context = e.getContext() == null ? "" : " (" + e.getContext() + ")";
            throw new TaskfileException(position, "invalid YAML: " + problem + context);
        } catch (YamlEngineException e) {
            throw new TaskfileException(new Position(1, 1), "invalid YAML: " + e.getMessage());
        } catch (NestingTooDeep e) {
            throw new TaskfileException(
                    e.position,
                    "lists and mappings nest more than " + MAX_NESTING + " levels deep here; a Taskfile needs a"
                            + " handful: flatten the structure");
        }
    }

    /**
     * Stops the YAML events as soon as lists and mappings nest deeper than {@link #MAX_NESTING}, before the
     * composer (which recurses once per level) can overflow the stack. The parser itself does not recurse.
     */
    private static final class NestingLimit implements Parser {
        private final Parser parser;
        private int depth;

        NestingLimit(Parser parser) {
            this.parser = parser;
        }

        @Override
        public boolean checkEvent(Event.ID id) {
            return parser.checkEvent(id);
        }

        @Override
        public Event peekEvent() {
            return parser.peekEvent();
        }

        @Override
        public boolean hasNext() {
            return parser.hasNext();
        }

        @Override
        public Event next() {
            Event event = parser.next();
            switch (event.getEventId()) {
                case SequenceStart, MappingStart -> {
                    if (++depth > MAX_NESTING) {
                        throw new NestingTooDeep(event.getStartMark()
                                .map(TaskfileReader::position)
                                .orElse(new Position(1, 1)));
                    }
                }
                case SequenceEnd, MappingEnd -> depth--;
                default -> {
                    // scalars, aliases, comments and document markers do not nest
                }
            }
            return event;
        }
    }

    /** Thrown through the composer by {@link NestingLimit}; turned into a {@link TaskfileException}. */
    private static final class NestingTooDeep extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final transient Position position;

        NestingTooDeep(Position position) {
            super(null, null, false, false);
            this.position = position;
        }
    }

    private static void checkVersion(Node node) throws TaskfileException {
        String version = scalar(node, "'version'");
        if (version.equals("3") || version.startsWith("3.")) {
            return;
        }
        throw new TaskfileException(
                position(node),
                "version '" + version + "' is not supported; this reader implements Taskfile version 3: write"
                        + " version: '3'");
    }

    // ---- tasks -----------------------------------------------------------------------------------

    private static Map<String, TaskDef> tasks(Node node) throws TaskfileException {
        Map<String, TaskDef> tasks = new LinkedHashMap<>();
        if (node == null || isNull(node)) {
            return tasks;
        }
        MappingNode mapping = mapping(node, "'tasks'");
        for (NodeTuple tuple : tuples(mapping)) {
            String name = ((ScalarNode) tuple.getKeyNode()).getValue();
            Position position = position(tuple.getKeyNode());
            if (name.isBlank()) {
                throw new TaskfileException(position, "a task has an empty name");
            }
            if (name.contains("*")) {
                throw new TaskfileException(
                        position, "wildcard task names ('" + name + "') are not supported; name each task");
            }
            tasks.put(name, task(name, position, tuple.getValueNode()));
        }
        return tasks;
    }

    private static TaskDef task(String name, Position position, Node node) throws TaskfileException {
        if (isNull(node)) {
            throw new TaskfileException(position, "task '" + name + "' is empty; give it cmds:");
        }
        if (node instanceof ScalarNode scalar) {
            List<Command> cmds = List.of(new Shell(template(scalar), false, false, position(scalar)));
            return simpleTask(name, position, cmds);
        }
        if (node instanceof SequenceNode sequence) {
            return simpleTask(name, position, commands(sequence));
        }
        Map<String, NodeTuple> entries = entries((MappingNode) node, TASK_KEYS, "in task '" + name + "'");
        if (entries.containsKey("cmds") && entries.containsKey("cmd")) {
            throw new TaskfileException(
                    position(entries.get("cmd").getKeyNode()),
                    "task '" + name + "' has both 'cmd' and 'cmds'; keep one");
        }
        List<Command> cmds = new ArrayList<>();
        if (entries.containsKey("cmd")) {
            cmds.add(command(value(entries, "cmd")));
        } else if (value(entries, "cmds") != null && !isNull(value(entries, "cmds"))) {
            cmds.addAll(commands(sequence(value(entries, "cmds"), "'cmds' of task '" + name + "'")));
        }
        Node dir = value(entries, "dir");
        return new TaskDef(
                name,
                optionalTemplate(value(entries, "desc"), "'desc'", position),
                optionalScalar(value(entries, "summary"), "'summary'"),
                cmds,
                deps(value(entries, "deps")),
                varDefs(value(entries, "vars"), "vars"),
                envDefs(value(entries, "env")),
                dir == null || isNull(dir) ? null : template(scalarNode(dir, "'dir'")),
                flag(value(entries, "silent"), "silent"),
                flag(value(entries, "internal"), "internal"),
                flag(value(entries, "ignore_error"), "ignore_error"),
                requires(value(entries, "requires")),
                preconditions(value(entries, "preconditions")),
                templates(value(entries, "status"), "status"),
                position);
    }

    private static TaskDef simpleTask(String name, Position position, List<Command> cmds) {
        return new TaskDef(
                name,
                Template.text("", position),
                "",
                cmds,
                List.of(),
                List.of(),
                List.of(),
                null,
                false,
                false,
                false,
                List.of(),
                List.of(),
                List.of(),
                position);
    }

    private static List<Command> commands(SequenceNode sequence) throws TaskfileException {
        List<Command> cmds = new ArrayList<>();
        for (Node item : sequence.getValue()) {
            cmds.add(command(item));
        }
        return cmds;
    }

    private static Command command(Node node) throws TaskfileException {
        if (node instanceof ScalarNode scalar && !isNull(scalar)) {
            return new Shell(template(scalar), false, false, position(scalar));
        }
        if (!(node instanceof MappingNode mapping)) {
            throw new TaskfileException(
                    position(node), "a command must be a string, {cmd: …}, {task: …, vars: …} or {defer: …}");
        }
        Map<String, NodeTuple> entries =
                entries(mapping, Set.of("cmd", "task", "vars", "defer", "silent", "ignore_error"), "in a command");
        if (entries.containsKey("defer")) {
            only(entries, Set.of("defer"), "a {defer: …} command");
            Node deferred = value(entries, "defer");
            if (deferred instanceof MappingNode deferredCall) {
                Map<String, NodeTuple> callEntries =
                        entries(deferredCall, Set.of("task", "vars", "silent"), "in a deferred task call");
                if (!callEntries.containsKey("task")) {
                    throw new TaskfileException(
                            position(deferred), "a deferred call needs 'task'; or write the command as a string");
                }
                return new Defer(new TaskCall(call(deferredCall, callEntries), false));
            }
            ScalarNode scalar = scalarNode(deferred, "'defer'");
            return new Defer(new Shell(template(scalar), false, false, position(scalar)));
        }
        boolean ignoreError = flag(value(entries, "ignore_error"), "ignore_error");
        if (entries.containsKey("task")) {
            if (entries.containsKey("cmd")) {
                throw new TaskfileException(position(mapping), "a command has both 'cmd' and 'task'; keep one");
            }
            return new TaskCall(call(mapping, entries), ignoreError);
        }
        if (!entries.containsKey("cmd")) {
            throw new TaskfileException(position(mapping), "a command mapping needs 'cmd', 'task' or 'defer'");
        }
        only(entries, Set.of("cmd", "silent", "ignore_error"), "a {cmd: …} command");
        ScalarNode cmd = scalarNode(value(entries, "cmd"), "'cmd'");
        return new Shell(template(cmd), flag(value(entries, "silent"), "silent"), ignoreError, position(cmd));
    }

    private static Call call(MappingNode node, Map<String, NodeTuple> entries) throws TaskfileException {
        ScalarNode task = scalarNode(value(entries, "task"), "'task'");
        return new Call(
                template(task),
                varDefs(value(entries, "vars"), "vars"),
                flag(value(entries, "silent"), "silent"),
                position(node));
    }

    private static List<Call> deps(Node node) throws TaskfileException {
        List<Call> deps = new ArrayList<>();
        if (node == null || isNull(node)) {
            return deps;
        }
        for (Node item : sequence(node, "'deps'").getValue()) {
            if (item instanceof ScalarNode scalar && !isNull(scalar)) {
                deps.add(new Call(template(scalar), List.of(), false, position(scalar)));
            } else if (item instanceof MappingNode mapping) {
                Map<String, NodeTuple> entries = entries(mapping, Set.of("task", "vars", "silent"), "in a dep");
                if (!entries.containsKey("task")) {
                    throw new TaskfileException(position(item), "a dep needs 'task': the name of the task to run");
                }
                deps.add(call(mapping, entries));
            } else {
                throw new TaskfileException(position(item), "a dep is a task name or {task: name, vars: …}");
            }
        }
        return deps;
    }

    private static List<String> requires(Node node) throws TaskfileException {
        List<String> names = new ArrayList<>();
        if (node == null || isNull(node)) {
            return names;
        }
        Map<String, NodeTuple> entries = entries(mapping(node, "'requires'"), Set.of("vars"), "in 'requires'");
        Node vars = value(entries, "vars");
        if (vars == null || isNull(vars)) {
            return names;
        }
        for (Node item : sequence(vars, "'requires.vars'").getValue()) {
            if (item instanceof MappingNode mapping) {
                Map<String, NodeTuple> required = entries(mapping, Set.of("name"), "in a required variable");
                Node name = value(required, "name");
                if (name == null) {
                    throw new TaskfileException(position(item), "a required variable needs 'name'");
                }
                names.add(scalar(name, "'name'"));
            } else {
                names.add(scalar(item, "a required variable"));
            }
        }
        return names;
    }

    private static List<Precondition> preconditions(Node node) throws TaskfileException {
        List<Precondition> preconditions = new ArrayList<>();
        if (node == null || isNull(node)) {
            return preconditions;
        }
        for (Node item : sequence(node, "'preconditions'").getValue()) {
            if (item instanceof MappingNode mapping) {
                Map<String, NodeTuple> entries = entries(mapping, Set.of("sh", "msg"), "in a precondition");
                Node sh = value(entries, "sh");
                if (sh == null) {
                    throw new TaskfileException(position(item), "a precondition needs 'sh': the command to check");
                }
                Node msg = value(entries, "msg");
                preconditions.add(new Precondition(
                        template(scalarNode(sh, "'sh'")), msg == null ? null : template(scalarNode(msg, "'msg'"))));
            } else {
                preconditions.add(new Precondition(template(scalarNode(item, "a precondition")), null));
            }
        }
        return preconditions;
    }

    private static void checkCalls(Map<String, TaskDef> tasks) throws TaskfileException {
        for (TaskDef task : tasks.values()) {
            List<Call> calls = new ArrayList<>(task.deps());
            for (Command command : task.cmds()) {
                Command inner = command instanceof Defer defer ? defer.command() : command;
                if (inner instanceof TaskCall taskCall) {
                    calls.add(taskCall.call());
                }
            }
            for (Call call : calls) {
                String name = call.task().constantText();
                if (name != null && !tasks.containsKey(name)) {
                    throw new TaskfileException(
                            call.position(),
                            "task '" + task.name() + "' calls '" + name + "', which is not defined; defined tasks: "
                                    + String.join(", ", tasks.keySet()));
                }
            }
        }
    }

    // ---- variables -------------------------------------------------------------------------------

    private static List<VarDef> varDefs(Node node, String what) throws TaskfileException {
        List<VarDef> defs = new ArrayList<>();
        if (node == null || isNull(node)) {
            return defs;
        }
        for (NodeTuple tuple : tuples(mapping(node, "'" + what + "'"))) {
            String name = varName(tuple.getKeyNode());
            defs.add(new VarDef(name, varValue(tuple.getValueNode()), position(tuple.getKeyNode())));
        }
        return defs;
    }

    private static VarValue varValue(Node node) throws TaskfileException {
        if (node instanceof ScalarNode scalar) {
            return typedScalar(scalar);
        }
        if (node instanceof SequenceNode sequence) {
            List<Object> values = new ArrayList<>();
            for (Node item : sequence.getValue()) {
                if (!(item instanceof ScalarNode scalar)) {
                    throw new TaskfileException(
                            position(item), "list variables may only hold plain values, not lists or mappings");
                }
                VarValue value = typedScalar(scalar);
                if (value instanceof LiteralValue literal && literal.value() == null) {
                    throw new TaskfileException(
                            position(item), "a list variable holds an empty (null) entry; remove it or quote it ('')");
                }
                values.add(value instanceof LiteralValue literal ? literal.value() : scalar.getValue());
            }
            return new LiteralValue(List.copyOf(values));
        }
        return new ShellValue(shell((MappingNode) node));
    }

    private static VarValue typedScalar(ScalarNode scalar) throws TaskfileException {
        Tag tag = scalar.getTag();
        String text = scalar.getValue();
        if (tag.equals(Tag.NULL)) {
            return new LiteralValue(null);
        }
        if (tag.equals(Tag.BOOL)) {
            return new LiteralValue(Boolean.valueOf(text.toLowerCase(Locale.ROOT)));
        }
        if (tag.equals(Tag.INT)) {
            Long number = parseInteger(text);
            if (number != null) {
                return new LiteralValue(number);
            }
        }
        if (tag.equals(Tag.FLOAT)) {
            try {
                return new LiteralValue(Double.valueOf(text));
            } catch (NumberFormatException e) {
                // .inf, .nan and friends stay text
            }
        }
        return new TextValue(template(scalar));
    }

    private static Long parseInteger(String text) {
        try {
            String digits = text.startsWith("+") ? text.substring(1) : text;
            BigInteger value;
            if (digits.startsWith("0x")) {
                value = new BigInteger(digits.substring(2), 16);
            } else if (digits.startsWith("0o")) {
                value = new BigInteger(digits.substring(2), 8);
            } else {
                value = new BigInteger(digits);
            }
            return value.bitLength() < 64 ? value.longValue() : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static List<VarDef> envDefs(Node node) throws TaskfileException {
        List<VarDef> defs = new ArrayList<>();
        if (node == null || isNull(node)) {
            return defs;
        }
        for (NodeTuple tuple : tuples(mapping(node, "'env'"))) {
            String name = varName(tuple.getKeyNode());
            Node value = tuple.getValueNode();
            Position position = position(tuple.getKeyNode());
            if (value instanceof MappingNode mapping) {
                defs.add(new VarDef(name, new ShellValue(shell(mapping)), position));
            } else if (value instanceof ScalarNode scalar) {
                defs.add(new VarDef(name, new TextValue(template(scalar)), position));
            } else {
                throw new TaskfileException(position(value), "env '" + name + "' must be a plain value or {sh: …}");
            }
        }
        return defs;
    }

    private static Template shell(MappingNode mapping) throws TaskfileException {
        Map<String, NodeTuple> entries = entries(mapping, Set.of("sh"), "in a variable");
        Node sh = value(entries, "sh");
        if (sh == null) {
            throw new TaskfileException(position(mapping), "a variable mapping needs 'sh': the command to run");
        }
        return template(scalarNode(sh, "'sh'"));
    }

    private static String varName(Node key) throws TaskfileException {
        String name = ((ScalarNode) key).getValue();
        if (name.isEmpty() || name.contains("=") || name.indexOf('\0') >= 0) {
            throw new TaskfileException(position(key), "'" + name + "' is not a valid variable name");
        }
        if (SPECIAL_VARS.contains(name)) {
            throw new TaskfileException(
                    position(key), "'" + name + "' is a special variable set by the runner; choose another name");
        }
        return name;
    }

    // ---- YAML helpers ----------------------------------------------------------------------------

    /** The entries of a mapping by key, after checking every key is allowed. */
    private static Map<String, NodeTuple> entries(MappingNode mapping, Set<String> allowed, String where)
            throws TaskfileException {
        Map<String, NodeTuple> entries = new LinkedHashMap<>();
        for (NodeTuple tuple : tuples(mapping)) {
            String key = ((ScalarNode) tuple.getKeyNode()).getValue();
            if (!allowed.contains(key)) {
                Refusal refusal = REFUSED.get(key);
                if (refusal != null) {
                    throw new TaskfileException(
                            position(tuple.getKeyNode()),
                            refusal.feature() + " is not supported (taskagent runs a subset of go-task); "
                                    + refusal.instead());
                }
                throw new TaskfileException(
                        position(tuple.getKeyNode()),
                        "unknown key '" + key + "' " + where + "; supported keys: "
                                + String.join(", ", sorted(allowed)));
            }
            entries.put(key, tuple);
        }
        return entries;
    }

    private static void only(Map<String, NodeTuple> entries, Set<String> allowed, String what)
            throws TaskfileException {
        for (Map.Entry<String, NodeTuple> entry : entries.entrySet()) {
            if (!allowed.contains(entry.getKey())) {
                throw new TaskfileException(
                        position(entry.getValue().getKeyNode()),
                        "'" + entry.getKey() + "' does not belong in " + what + "; it takes "
                                + String.join(", ", sorted(allowed)));
            }
        }
    }

    /** The tuples of a mapping, with every key a plain scalar and no key twice. */
    private static List<NodeTuple> tuples(MappingNode mapping) throws TaskfileException {
        Map<String, Node> seen = new LinkedHashMap<>();
        for (NodeTuple tuple : mapping.getValue()) {
            Node key = tuple.getKeyNode();
            if (!(key instanceof ScalarNode scalar)) {
                throw new TaskfileException(position(key), "a key must be plain text");
            }
            String name = scalar.getValue();
            if (name.equals("<<")) {
                throw new TaskfileException(
                        position(key), "YAML merge keys ('<<') are not supported; write the entries out");
            }
            Node first = seen.putIfAbsent(name, key);
            if (first != null) {
                throw new TaskfileException(
                        position(key), "duplicate key '" + name + "' (first at " + position(first) + ")");
            }
        }
        return mapping.getValue();
    }

    private static Node value(Map<String, NodeTuple> entries, String key) {
        NodeTuple tuple = entries.get(key);
        return tuple == null ? null : tuple.getValueNode();
    }

    private static MappingNode mapping(Node node, String what) throws TaskfileException {
        if (node instanceof MappingNode mapping) {
            return mapping;
        }
        throw new TaskfileException(position(node), what + " must be a mapping (name: value lines)");
    }

    private static SequenceNode sequence(Node node, String what) throws TaskfileException {
        if (node instanceof SequenceNode sequence) {
            return sequence;
        }
        throw new TaskfileException(position(node), what + " must be a list (lines starting with '- ')");
    }

    private static ScalarNode scalarNode(Node node, String what) throws TaskfileException {
        if (node instanceof ScalarNode scalar && !isNull(scalar)) {
            return scalar;
        }
        throw new TaskfileException(position(node), what + " must be a plain value (text)");
    }

    private static String scalar(Node node, String what) throws TaskfileException {
        return scalarNode(node, what).getValue();
    }

    private static String optionalScalar(Node node, String what) throws TaskfileException {
        return node == null || isNull(node) ? "" : scalar(node, what);
    }

    private static Template optionalTemplate(Node node, String what, Position absent) throws TaskfileException {
        if (node == null || isNull(node)) {
            return Template.text("", absent);
        }
        return template(scalarNode(node, what));
    }

    private static boolean flag(Node node, String what) throws TaskfileException {
        if (node == null || isNull(node)) {
            return false;
        }
        if (node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.BOOL)) {
            return Boolean.parseBoolean(scalar.getValue().toLowerCase(Locale.ROOT));
        }
        throw new TaskfileException(position(node), "'" + what + "' must be true or false");
    }

    private static List<Template> templates(Node node, String what) throws TaskfileException {
        List<Template> templates = new ArrayList<>();
        if (node == null || isNull(node)) {
            return templates;
        }
        for (Node item : sequence(node, "'" + what + "'").getValue()) {
            templates.add(template(scalarNode(item, "an entry of '" + what + "'")));
        }
        return templates;
    }

    private static Template template(ScalarNode scalar) throws TaskfileException {
        return Template.parse(scalar.getValue(), position(scalar));
    }

    private static boolean isNull(Node node) {
        return node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.NULL);
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }

    private static Position position(Node node) {
        return node.getStartMark().map(TaskfileReader::position).orElse(new Position(1, 1));
    }

    private static Position position(Mark mark) {
        return new Position(mark.getLine() + 1, mark.getColumn() + 1);
    }
}
