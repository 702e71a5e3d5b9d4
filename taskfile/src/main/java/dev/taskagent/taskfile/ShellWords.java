package dev.taskagent.taskfile;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a line into words the way a POSIX shell does, and quotes words for a POSIX shell, without ever
 * expanding anything: no variables, no command substitution, no globs, no tilde.
 *
 * <p>Stateless and thread-safe.
 */
final class ShellWords {
    private ShellWords() {}

    /**
     * Splits a line into words: blanks separate words; single quotes keep everything literally; double
     * quotes keep everything except that a backslash escapes {@code " \ $ `} and a newline; outside quotes
     * a backslash escapes the next character. {@code $}, backticks, {@code *}, {@code ~}, {@code ;} and
     * the like stay literal text.
     *
     * @param line the line
     * @return the words; {@code ''} and {@code ""} give empty words
     * @throws IllegalArgumentException if a quote is not closed or the line ends with a lone backslash
     */
    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("a single quote (') is not closed");
                }
                word.append(line, i + 1, end);
                inWord = true;
                i = end + 1;
            } else if (c == '"') {
                i = appendDoubleQuoted(line, i, word);
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 >= line.length()) {
                    throw new IllegalArgumentException("the text ends with a lone backslash (\\)");
                }
                char escaped = line.charAt(i + 1);
                if (escaped != '\n') {
                    word.append(escaped);
                    inWord = true;
                }
                i += 2;
            } else {
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    private static int appendDoubleQuoted(String line, int open, StringBuilder word) {
        int i = open + 1;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\' && i + 1 < line.length()) {
                char escaped = line.charAt(i + 1);
                if (escaped == '"' || escaped == '\\' || escaped == '$' || escaped == '`') {
                    word.append(escaped);
                    i += 2;
                    continue;
                }
                if (escaped == '\n') {
                    i += 2;
                    continue;
                }
            }
            word.append(c);
            i++;
        }
        throw new IllegalArgumentException("a double quote (\") is not closed");
    }

    /**
     * Quotes a word for a POSIX shell: the result is one word whose value is exactly the input.
     *
     * @param word any text without NUL
     * @return the word in single quotes, with each {@code '} written as {@code '\''}
     */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /**
     * Quotes words and joins them with spaces, as {@code CLI_ARGS} holds them.
     *
     * @param words the words
     * @return the quoted, space-separated words; empty for no words
     */
    static String quoteAll(List<String> words) {
        List<String> quoted = new ArrayList<>(words.size());
        for (String word : words) {
            quoted.add(quote(word));
        }
        return String.join(" ", quoted);
    }
}
