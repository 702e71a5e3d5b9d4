package dev.taskagent.taskfile;

import dev.taskagent.internal.Texts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A go-task template: text with {@code {{ … }}} actions, in the subset of Go's {@code text/template}
 * that the Taskfile module supports. Parsing checks everything (syntax, function names, argument counts),
 * so rendering never fails.
 *
 * <p>Supported: {@code {{.VAR}}} (a missing variable renders as nothing), string, number and boolean
 * literals, pipelines ({@code {{.X | default "y"}}}), parentheses, {@code {{if}} / {{else if}} /
 * {{else}} / {{end}}}, trim markers ({@code {{-} and {@code -}}}), comments, and the functions
 * {@code default}, {@code eq}, {@code OS}, {@code ARCH}, {@code join} and {@code trim}. Anything else is
 * refused with a {@link TaskfileException} that names it.
 *
 * <p>Immutable and thread-safe.
 */
final class Template {
    /** The template functions, as in go-task (sprig's {@code default}, {@code join}, {@code trim}). */
    static final List<String> FUNCTIONS = List.of("default", "eq", "OS", "ARCH", "join", "trim");

    /**
     * How deeply {@code {{if}}} blocks and parentheses may nest. Parsing and rendering recurse once per
     * level, so thousands of levels would overflow the stack; real templates use two or three.
     */
    static final int MAX_NESTING = 50;

    /** An error message shows the template it is about up to this many characters. */
    private static final int MAX_SOURCE_IN_MESSAGE = 80;

    private static final Set<String> UNSUPPORTED_KEYWORDS =
            Set.of("range", "with", "define", "template", "block", "break", "continue", "nil");

    private final String source;
    private final Taskfile.Position position;
    private final List<Node> nodes;

    /** Rendering would produce more characters than the caller allows. */
    static final class TooLongException extends Exception {
        private static final long serialVersionUID = 1L;

        TooLongException() {
            super(null, null, false, false);
        }
    }

    private Template(String source, Taskfile.Position position, List<Node> nodes) {
        this.source = source;
        this.position = position;
        this.nodes = nodes;
    }

    /**
     * Parses a template.
     *
     * @param source the text as written in the Taskfile
     * @param position where it is written, for error messages
     * @return the parsed template
     * @throws TaskfileException if it is malformed or uses something outside the subset
     */
    static Template parse(String source, Taskfile.Position position) throws TaskfileException {
        Objects.requireNonNull(source, "source");
        return new Template(source, position, new Parser(source, position).parse());
    }

    /**
     * A template of plain text without actions.
     *
     * @param text the text
     * @param position where it stands in the Taskfile
     * @return a template that renders as the text
     */
    static Template text(String text, Taskfile.Position position) {
        return new Template(text, position, text.isEmpty() ? List.of() : List.of(new Text(text)));
    }

    /** @return the text when the template has no action (so it always renders the same), else null */
    String constantText() {
        StringBuilder text = new StringBuilder();
        for (Node node : nodes) {
            if (!(node instanceof Text plain)) {
                return null;
            }
            text.append(plain.text());
        }
        return text.toString();
    }

    /** @return the text as written */
    String source() {
        return source;
    }

    /** @return where the template is written in the Taskfile */
    Taskfile.Position position() {
        return position;
    }

    /**
     * Renders the template, stopping as soon as the text grows past a limit: variables that repeat each
     * other ({@code B: '{{.A}}{{.A}}'}, {@code C: '{{.B}}{{.B}}'} …) grow exponentially.
     *
     * @param vars the variables by name; values are Strings, Booleans, Longs, Doubles, Lists or null
     * @param maxChars how many characters the text may have
     * @return the text
     * @throws TooLongException if the text would have more than maxChars characters
     */
    String render(Map<String, ?> vars, long maxChars) throws TooLongException {
        Output out = new Output(maxChars);
        renderNodes(nodes, vars, out);
        return out.text.toString();
    }

    /** The text being rendered, with its limit. */
    private static final class Output {
        private final StringBuilder text = new StringBuilder();
        private final long maxChars;

        Output(long maxChars) {
            this.maxChars = maxChars;
        }

        void append(String more) throws TooLongException {
            if (text.length() + (long) more.length() > maxChars) {
                throw new TooLongException();
            }
            text.append(more);
        }
    }

    @Override
    public String toString() {
        return source;
    }

    /**
     * Prints a value the way Go's templates do: lists as {@code [a b c]}, nothing for null.
     *
     * @param value a template value
     * @return its text
     */
    static String print(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof List<?> list) {
            StringBuilder out = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(' ');
                }
                out.append(print(list.get(i)));
            }
            return out.append(']').toString();
        }
        if (value instanceof Double number) {
            double d = number;
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return Long.toString((long) d);
            }
            return Double.toString(d);
        }
        return value.toString();
    }

    /**
     * Tells whether a value counts as true in {@code if} and as present for {@code default}.
     *
     * @param value a template value
     * @return false for null, false, zero, the empty string and the empty list
     */
    static boolean isTruthy(Object value) {
        if (value == null) {
            return false;
        }
        if (value instanceof Boolean bool) {
            return bool;
        }
        if (value instanceof String text) {
            return !text.isEmpty();
        }
        if (value instanceof Number number) {
            return number.doubleValue() != 0;
        }
        if (value instanceof List<?> list) {
            return !list.isEmpty();
        }
        return true;
    }

    /** @return the operating system as go-task names it ({@code runtime.GOOS}) */
    static String operatingSystem() {
        String name = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (name.startsWith("mac") || name.startsWith("darwin")) {
            return "darwin";
        }
        if (name.startsWith("windows")) {
            return "windows";
        }
        return name.replace(" ", "");
    }

    /** @return the CPU architecture as go-task names it ({@code runtime.GOARCH}) */
    static String architecture() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        switch (arch) {
            case "amd64", "x86_64":
                return "amd64";
            case "aarch64", "arm64":
                return "arm64";
            case "x86", "i386", "i486", "i586", "i686":
                return "386";
            default:
                return arch;
        }
    }

    private static void renderNodes(List<Node> nodes, Map<String, ?> vars, Output out) throws TooLongException {
        for (Node node : nodes) {
            if (node instanceof Text text) {
                out.append(text.text());
            } else if (node instanceof Action action) {
                out.append(print(evaluate(action.pipeline(), vars)));
            } else if (node instanceof If conditional) {
                renderIf(conditional, vars, out);
            }
        }
    }

    private static void renderIf(If conditional, Map<String, ?> vars, Output out) throws TooLongException {
        for (Branch branch : conditional.branches()) {
            if (isTruthy(evaluate(branch.condition(), vars))) {
                renderNodes(branch.body(), vars, out);
                return;
            }
        }
        renderNodes(conditional.otherwise(), vars, out);
    }

    private static Object evaluate(Pipeline pipeline, Map<String, ?> vars) {
        Object piped = null;
        boolean isPiped = false;
        for (Command command : pipeline.commands()) {
            piped = evaluate(command, piped, isPiped, vars);
            isPiped = true;
        }
        return piped;
    }

    private static Object evaluate(Command command, Object piped, boolean isPiped, Map<String, ?> vars) {
        Operand first = command.operands().get(0);
        if (!(first instanceof Function function)) {
            return evaluate(first, vars);
        }
        List<Object> arguments = new ArrayList<>();
        for (Operand operand : command.operands().subList(1, command.operands().size())) {
            arguments.add(evaluate(operand, vars));
        }
        if (isPiped) {
            arguments.add(piped);
        }
        return call(function.name(), arguments);
    }

    private static Object evaluate(Operand operand, Map<String, ?> vars) {
        if (operand instanceof Field field) {
            return vars.get(field.name());
        }
        if (operand instanceof Literal literal) {
            return literal.value();
        }
        if (operand instanceof Group group) {
            return evaluate(group.pipeline(), vars);
        }
        return call(((Function) operand).name(), List.of());
    }

    private static Object call(String function, List<Object> arguments) {
        switch (function) {
            case "default":
                if (arguments.size() == 1) {
                    return arguments.get(0);
                }
                return isTruthy(arguments.get(1)) ? arguments.get(1) : arguments.get(0);
            case "eq":
                for (Object other : arguments.subList(1, arguments.size())) {
                    if (isEqual(arguments.get(0), other)) {
                        return true;
                    }
                }
                return false;
            case "OS":
                return operatingSystem();
            case "ARCH":
                return architecture();
            case "join":
                return join(print(arguments.get(0)), arguments.get(1));
            case "trim":
                return print(arguments.get(0)).strip();
            default:
                throw new IllegalStateException("unchecked template function " + function);
        }
    }

    private static String join(String separator, Object value) {
        if (value instanceof List<?> list) {
            List<String> parts = new ArrayList<>(list.size());
            for (Object element : list) {
                parts.add(print(element));
            }
            return String.join(separator, parts);
        }
        return print(value);
    }

    private static boolean isEqual(Object left, Object right) {
        if (left instanceof Number a && right instanceof Number b) {
            if (a instanceof Long && b instanceof Long) {
                return a.longValue() == b.longValue();
            }
            return a.doubleValue() == b.doubleValue();
        }
        return print(left).equals(print(right));
    }

    // ---- the tree --------------------------------------------------------------------------------

    private sealed interface Node {}

    private record Text(String text) implements Node {}

    private record Action(Pipeline pipeline) implements Node {}

    private record If(List<Branch> branches, List<Node> otherwise) implements Node {}

    private record Branch(Pipeline condition, List<Node> body) {}

    private record Pipeline(List<Command> commands) {}

    private record Command(List<Operand> operands) {}

    private sealed interface Operand {}

    private record Field(String name) implements Operand {}

    private record Literal(Object value) implements Operand {}

    private record Function(String name) implements Operand {}

    private record Group(Pipeline pipeline) implements Operand {}

    // ---- parsing ---------------------------------------------------------------------------------

    private enum Kind {
        FIELD,
        STRING,
        NUMBER,
        IDENT,
        LEFT,
        RIGHT,
        PIPE
    }

    private record Token(Kind kind, String text, Object value) {}

    /** A piece of the source: text, or the inside of one action. */
    private record Piece(String text, String action) {}

    private enum End {
        END_OF_TEXT,
        ELSE,
        END
    }

    private record Block(List<Node> nodes, End end, List<Token> elseTokens) {}

    private static final class Parser {
        private final String source;
        private final Taskfile.Position position;
        private List<Piece> pieces;
        private int next;
        private List<Token> tokens;
        private int cursor;
        private int depth;

        Parser(String source, Taskfile.Position position) {
            this.source = source;
            this.position = position;
        }

        List<Node> parse() throws TaskfileException {
            pieces = split();
            next = 0;
            Block block = parseBlock(false);
            return List.copyOf(block.nodes());
        }

        private List<Piece> split() throws TaskfileException {
            List<Piece> result = new ArrayList<>();
            int i = 0;
            boolean trimNextText = false;
            while (i <= source.length()) {
                int open = source.indexOf("{{", i);
                String text = open < 0 ? source.substring(i) : source.substring(i, open);
                if (trimNextText) {
                    text = text.stripLeading();
                }
                if (open < 0) {
                    addText(result, text);
                    break;
                }
                int start = open + 2;
                boolean trimLeft = start + 1 < source.length()
                        && source.charAt(start) == '-'
                        && Character.isWhitespace(source.charAt(start + 1));
                if (trimLeft) {
                    text = text.stripTrailing();
                    start += 2;
                }
                addText(result, text);
                int close = findClose(start);
                int bodyEnd = close;
                trimNextText = bodyEnd - 2 >= start
                        && source.charAt(bodyEnd - 1) == '-'
                        && Character.isWhitespace(source.charAt(bodyEnd - 2));
                if (trimNextText) {
                    bodyEnd -= 2;
                }
                String body = source.substring(start, bodyEnd).strip();
                if (!(body.startsWith("/*") && body.endsWith("*/"))) {
                    result.add(new Piece(null, body));
                }
                i = close + 2;
            }
            return result;
        }

        private static void addText(List<Piece> pieces, String text) {
            if (!text.isEmpty()) {
                pieces.add(new Piece(text, null));
            }
        }

        private int findClose(int from) throws TaskfileException {
            int i = from;
            while (i < source.length()) {
                char c = source.charAt(i);
                if (c == '"') {
                    i = skipQuoted(i);
                } else if (c == '`') {
                    int end = source.indexOf('`', i + 1);
                    if (end < 0) {
                        throw error("a raw string (`...`) is not closed");
                    }
                    i = end + 1;
                } else if (source.startsWith("/*", i)) {
                    int end = source.indexOf("*/", i + 2);
                    if (end < 0) {
                        throw error("a comment (/* ... */) is not closed");
                    }
                    i = end + 2;
                } else if (source.startsWith("}}", i)) {
                    return i;
                } else {
                    i++;
                }
            }
            throw error("an action is not closed: '{{' without '}}'");
        }

        private int skipQuoted(int open) throws TaskfileException {
            int i = open + 1;
            while (i < source.length()) {
                char c = source.charAt(i);
                if (c == '\\') {
                    i += 2;
                } else if (c == '"') {
                    return i + 1;
                } else if (c == '\n') {
                    break;
                } else {
                    i++;
                }
            }
            throw error("a string (\"...\") is not closed");
        }

        private Block parseBlock(boolean insideIf) throws TaskfileException {
            List<Node> nodes = new ArrayList<>();
            while (next < pieces.size()) {
                Piece piece = pieces.get(next++);
                if (piece.text() != null) {
                    nodes.add(new Text(piece.text()));
                    continue;
                }
                tokens = tokenize(piece.action());
                cursor = 0;
                if (tokens.isEmpty()) {
                    throw error("an action is empty: '{{}}'");
                }
                Token first = tokens.get(0);
                if (first.kind() == Kind.IDENT) {
                    switch (first.text()) {
                        case "if":
                            cursor = 1;
                            nodes.add(parseIf());
                            continue;
                        case "else":
                            if (!insideIf) {
                                throw error("{{else}} without {{if}}");
                            }
                            return new Block(nodes, End.ELSE, tokens.subList(1, tokens.size()));
                        case "end":
                            if (!insideIf) {
                                throw error("{{end}} without {{if}}");
                            }
                            if (tokens.size() > 1) {
                                throw error("{{end}} takes nothing after it");
                            }
                            return new Block(nodes, End.END, List.of());
                        default:
                            if (UNSUPPORTED_KEYWORDS.contains(first.text())) {
                                throw error("'" + first.text() + "' is not supported in templates (supported: "
                                        + "{{.VAR}}, {{if}}/{{else}}/{{end}} and the functions "
                                        + String.join(", ", FUNCTIONS) + ")");
                            }
                    }
                }
                nodes.add(new Action(parseWholePipeline()));
            }
            if (insideIf) {
                throw error("{{if}} without {{end}}");
            }
            return new Block(nodes, End.END_OF_TEXT, List.of());
        }

        private If parseIf() throws TaskfileException {
            enterNesting();
            If conditional = parseIfBranches();
            depth--;
            return conditional;
        }

        private If parseIfBranches() throws TaskfileException {
            List<Branch> branches = new ArrayList<>();
            Pipeline condition = parseWholePipeline();
            while (true) {
                Block body = parseBlock(true);
                branches.add(new Branch(condition, List.copyOf(body.nodes())));
                if (body.end() == End.END) {
                    return new If(List.copyOf(branches), List.of());
                }
                List<Token> rest = body.elseTokens();
                if (rest.isEmpty()) {
                    Block otherwise = parseBlock(true);
                    if (otherwise.end() != End.END) {
                        throw error("{{else}} after {{else}}; an {{if}} has at most one plain {{else}}");
                    }
                    return new If(List.copyOf(branches), List.copyOf(otherwise.nodes()));
                }
                if (rest.get(0).kind() != Kind.IDENT || !rest.get(0).text().equals("if")) {
                    throw error("{{else}} may only be followed by 'if'");
                }
                tokens = rest;
                cursor = 1;
                condition = parseWholePipeline();
            }
        }

        private Pipeline parseWholePipeline() throws TaskfileException {
            if (cursor >= tokens.size()) {
                throw error("an action is missing its value");
            }
            Pipeline pipeline = parsePipeline();
            if (cursor < tokens.size()) {
                throw error("unexpected '" + tokens.get(cursor).text() + "'");
            }
            return pipeline;
        }

        private Pipeline parsePipeline() throws TaskfileException {
            List<Command> commands = new ArrayList<>();
            commands.add(parseCommand(false));
            while (cursor < tokens.size() && tokens.get(cursor).kind() == Kind.PIPE) {
                cursor++;
                commands.add(parseCommand(true));
            }
            return new Pipeline(List.copyOf(commands));
        }

        private Command parseCommand(boolean isPiped) throws TaskfileException {
            List<Operand> operands = new ArrayList<>();
            while (cursor < tokens.size()
                    && tokens.get(cursor).kind() != Kind.PIPE
                    && tokens.get(cursor).kind() != Kind.RIGHT) {
                operands.add(parseOperand());
            }
            if (operands.isEmpty()) {
                throw error("a pipeline has an empty command");
            }
            check(operands, isPiped);
            return new Command(List.copyOf(operands));
        }

        private void check(List<Operand> operands, boolean isPiped) throws TaskfileException {
            Operand first = operands.get(0);
            if (first instanceof Function function) {
                int count = operands.size() - 1 + (isPiped ? 1 : 0);
                checkArity(function.name(), count);
            } else if (operands.size() > 1) {
                throw error("'" + describe(first) + "' is not a function; only " + String.join(", ", FUNCTIONS)
                        + " take arguments");
            } else if (isPiped) {
                throw error("cannot pipe into '" + describe(first) + "'; only a function can follow '|'");
            }
            for (Operand operand : operands.subList(1, operands.size())) {
                if (operand instanceof Function function) {
                    checkArity(function.name(), 0);
                }
            }
        }

        private void checkArity(String function, int count) throws TaskfileException {
            boolean isValid =
                    switch (function) {
                        case "default" -> count == 1 || count == 2;
                        case "eq" -> count >= 2;
                        case "OS", "ARCH" -> count == 0;
                        case "join" -> count == 2;
                        case "trim" -> count == 1;
                        default -> false;
                    };
            if (!isValid) {
                String expected =
                        switch (function) {
                            case "default" -> "a default and a value ({{.X | default \"y\"}})";
                            case "eq" -> "two or more values";
                            case "OS", "ARCH" -> "no argument (use it in parentheses inside other calls)";
                            case "join" -> "a separator and a list ({{join \" \" .CLI_ARGS_LIST}})";
                            default -> "one value";
                        };
                throw error("function '" + function + "' gets " + count + " argument" + (count == 1 ? "" : "s")
                        + "; it takes " + expected);
            }
        }

        private Operand parseOperand() throws TaskfileException {
            Token token = tokens.get(cursor++);
            switch (token.kind()) {
                case FIELD:
                    return new Field(token.text());
                case STRING:
                case NUMBER:
                    return new Literal(token.value());
                case LEFT:
                    enterNesting();
                    Pipeline inner = parsePipeline();
                    if (cursor >= tokens.size() || tokens.get(cursor).kind() != Kind.RIGHT) {
                        throw error("a '(' is not closed");
                    }
                    cursor++;
                    depth--;
                    return new Group(inner);
                case IDENT:
                    return identifier(token.text());
                default:
                    throw error("unexpected '" + token.text() + "'");
            }
        }

        private void enterNesting() throws TaskfileException {
            if (++depth > MAX_NESTING) {
                throw error("{{if}} blocks and parentheses nest more than " + MAX_NESTING + " levels deep; flatten"
                        + " the template");
            }
        }

        private Operand identifier(String name) throws TaskfileException {
            if (name.equals("true") || name.equals("false")) {
                return new Literal(Boolean.valueOf(name));
            }
            if (FUNCTIONS.contains(name)) {
                return new Function(name);
            }
            if (UNSUPPORTED_KEYWORDS.contains(name) || name.equals("if") || name.equals("else")) {
                throw error("'" + name + "' is not supported here");
            }
            throw error("unknown template function '" + name + "' (supported: " + String.join(", ", FUNCTIONS) + ")");
        }

        private List<Token> tokenize(String body) throws TaskfileException {
            List<Token> result = new ArrayList<>();
            int i = 0;
            while (i < body.length()) {
                char c = body.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '.') {
                    int end = identifierEnd(body, i + 1);
                    if (end == i + 1) {
                        throw error("'.' alone (the whole data) is not supported; name a variable: {{.NAME}}");
                    }
                    if (end < body.length() && body.charAt(end) == '.') {
                        throw error("nested fields such as '" + body.substring(i, identifierEnd(body, end + 1))
                                + "' are not supported; variables are plain values");
                    }
                    result.add(new Token(Kind.FIELD, body.substring(i + 1, end), null));
                    i = end;
                } else if (c == '"') {
                    int end = findQuoteEnd(body, i);
                    result.add(new Token(Kind.STRING, body.substring(i, end), unquote(body.substring(i + 1, end - 1))));
                    i = end;
                } else if (c == '`') {
                    int end = body.indexOf('`', i + 1) + 1;
                    result.add(new Token(Kind.STRING, body.substring(i, end), body.substring(i + 1, end - 1)));
                    i = end;
                } else if (c == '(') {
                    result.add(new Token(Kind.LEFT, "(", null));
                    i++;
                } else if (c == ')') {
                    result.add(new Token(Kind.RIGHT, ")", null));
                    i++;
                } else if (c == '|') {
                    result.add(new Token(Kind.PIPE, "|", null));
                    i++;
                } else if (Character.isDigit(c)
                        || ((c == '-' || c == '+') && i + 1 < body.length() && Character.isDigit(body.charAt(i + 1)))) {
                    int end = i + 1;
                    while (end < body.length() && (isWordChar(body.charAt(end)) || body.charAt(end) == '.')) {
                        end++;
                    }
                    String text = body.substring(i, end);
                    result.add(new Token(Kind.NUMBER, text, number(text)));
                    i = end;
                } else if (Character.isLetter(c) || c == '_') {
                    int end = identifierEnd(body, i);
                    result.add(new Token(Kind.IDENT, body.substring(i, end), null));
                    i = end;
                } else if (c == '$') {
                    throw error("template variables ($name) are not supported; use Taskfile vars: {{.NAME}}");
                } else {
                    throw error("unexpected '" + c + "' in an action");
                }
            }
            return result;
        }

        private static int identifierEnd(String text, int from) {
            int end = from;
            while (end < text.length() && isWordChar(text.charAt(end))) {
                end++;
            }
            return end;
        }

        private static boolean isWordChar(char c) {
            return Character.isLetterOrDigit(c) || c == '_';
        }

        private static int findQuoteEnd(String body, int open) {
            int i = open + 1;
            while (body.charAt(i) != '"') {
                i += body.charAt(i) == '\\' ? 2 : 1;
            }
            return i + 1;
        }

        private Object number(String text) throws TaskfileException {
            try {
                String unsigned = text.charAt(0) == '+' || text.charAt(0) == '-' ? text.substring(1) : text;
                int dot = unsigned.indexOf('.');
                if (dot < 0 && isDigits(unsigned)) {
                    return Long.parseLong(text);
                }
                if (dot > 0 && isDigits(unsigned.substring(0, dot)) && isDigits(unsigned.substring(dot + 1))) {
                    return Double.parseDouble(text);
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw error("the number '" + text + "' is not supported; write a decimal integer or a decimal fraction");
        }

        private static boolean isDigits(String text) {
            return !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
        }

        private static boolean isHexDigit(int c) {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        }

        private String unquote(String text) throws TaskfileException {
            StringBuilder out = new StringBuilder(text.length());
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char escaped = text.charAt(++i);
                switch (escaped) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case '\\' -> out.append('\\');
                    case '"' -> out.append('"');
                    case '\'' -> out.append('\'');
                    case 'a' -> out.append('\u0007');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'v' -> out.append('\u000b');
                    case 'x', 'u', 'U' -> {
                        int digits = escaped == 'x' ? 2 : escaped == 'u' ? 4 : 8;
                        String hex = text.substring(i + 1, Math.min(text.length(), i + 1 + digits));
                        if (hex.length() != digits || !hex.chars().allMatch(Parser::isHexDigit)) {
                            throw error("the escape '\\" + escaped + hex + "' needs " + digits + " hex digits");
                        }
                        long codePoint = Long.parseLong(hex, 16);
                        if (codePoint > Character.MAX_CODE_POINT) {
                            throw error("the escape '\\" + escaped + hex + "' is not a Unicode code point");
                        }
                        out.appendCodePoint((int) codePoint);
                        i += digits;
                    }
                    default -> throw error("the escape '\\" + escaped + "' is not supported in a string");
                }
            }
            return out.toString();
        }

        private static String describe(Operand operand) {
            if (operand instanceof Field field) {
                return "." + field.name();
            }
            if (operand instanceof Literal literal) {
                return print(literal.value());
            }
            return "(...)";
        }

        private TaskfileException error(String problem) {
            String shown = Texts.abbreviate(source, MAX_SOURCE_IN_MESSAGE);
            return new TaskfileException(position, problem + " in the template \"" + shown.replace("\n", "\\n") + "\"");
        }
    }
}
