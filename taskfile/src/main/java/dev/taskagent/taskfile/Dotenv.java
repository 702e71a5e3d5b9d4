package dev.taskagent.taskfile;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads a {@code .env} file: {@code NAME=value} lines, optionally starting with {@code export}, with
 * {@code #} comments, single-quoted (literal), double-quoted (with {@code \n \" \\ \$} escapes) or bare
 * values. Variable expansion ({@code $NAME}, {@code ${NAME}}) and multi-line values are refused rather
 * than guessed at.
 *
 * <p>Stateless and thread-safe.
 */
final class Dotenv {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");

    private Dotenv() {}

    /**
     * Parses the content of a {@code .env} file.
     *
     * @param content the file's text
     * @return the variables in file order; a name given twice keeps its first value
     * @throws IllegalArgumentException naming the line of a malformed or unsupported entry
     */
    static Map<String, String> parse(String content) {
        Map<String, String> values = new LinkedHashMap<>();
        List<String> lines = content.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("export ") || line.startsWith("export\t")) {
                line = line.substring(7).strip();
            }
            int equals = line.indexOf('=');
            if (equals <= 0) {
                throw problem(i, "expected NAME=value");
            }
            String name = line.substring(0, equals).strip();
            if (!NAME.matcher(name).matches()) {
                throw problem(i, "'" + name + "' is not a valid variable name");
            }
            values.putIfAbsent(name, value(line.substring(equals + 1).strip(), i));
        }
        return values;
    }

    private static String value(String text, int line) {
        if (text.startsWith("'")) {
            int end = text.indexOf('\'', 1);
            if (end < 0) {
                throw problem(
                        line, "the single quote is not closed on this line (multi-line values are not" + " supported)");
            }
            checkRest(text.substring(end + 1), line);
            return text.substring(1, end);
        }
        if (text.startsWith("\"")) {
            return doubleQuoted(text, line);
        }
        int comment = text.indexOf(" #");
        String value = (comment < 0 ? text : text.substring(0, comment)).strip();
        if (value.contains("$")) {
            throw problem(
                    line,
                    "variable expansion ($NAME) is not supported; write the value in single quotes to"
                            + " keep a literal $");
        }
        return value;
    }

    private static String doubleQuoted(String text, int line) {
        StringBuilder value = new StringBuilder();
        for (int i = 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                checkRest(text.substring(i + 1), line);
                return value.toString();
            }
            if (c == '$') {
                throw problem(line, "variable expansion ($NAME) is not supported; write \\$ or use single quotes");
            }
            if (c == '\\' && i + 1 < text.length()) {
                char escaped = text.charAt(++i);
                switch (escaped) {
                    case 'n' -> value.append('\n');
                    case 't' -> value.append('\t');
                    case 'r' -> value.append('\r');
                    default -> value.append(escaped);
                }
                continue;
            }
            value.append(c);
        }
        throw problem(line, "the double quote is not closed on this line (multi-line values are not supported)");
    }

    private static void checkRest(String rest, int line) {
        String trimmed = rest.strip();
        if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
            throw problem(line, "unexpected text after the closing quote");
        }
    }

    private static IllegalArgumentException problem(int index, String text) {
        return new IllegalArgumentException("line " + (index + 1) + ": " + text);
    }
}
