package dev.taskagent.steps;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Writes random Markdown documents from a grammar of the constructs that decide what is a task-list item:
 * list markers of every kind and width, nesting by indentation (spaces and tabs), boxes well and badly
 * formed, fences of both characters and several lengths (opened and closed anywhere, or never closed),
 * HTML comments and the other HTML blocks, block quotes, headings, thematic breaks, paragraphs and their
 * lazy continuations, blank lines, form feeds, three kinds of line endings, a byte order mark, and a last
 * line with or without its line ending.
 *
 * <p>Each line is an indentation, up to two container prefixes ({@code > }, {@code - }, {@code 1. } …) and a
 * body. The indentation is drawn mostly from the content columns of the list items written just before,
 * so that items nest, continue and fall out of their lists as often as they stay in them.
 *
 * <p>Deterministic for a seed. Not thread-safe.
 */
final class MarkdownGenerator {
    private static final String[] MARKERS = {
        "-", "-", "-", "*", "+", "1.", "1.", "1)", "2.", "3)", "0.", "10.", "123456789.", "1234567890."
    };
    private static final String[] SEPARATORS = {" ", " ", " ", " ", " ", " ", "  ", "\t", "   ", "     ", "", " \t"};
    private static final String[] BOXES = {
        "[ ]", "[ ]", "[ ]", "[ ]", "[x]", "[x]", "[X]", "[-]", "[\t]", "[  ]", "[]", "[\f]", "[y]"
    };
    private static final String[] AFTER_BOX = {" ", " ", " ", " ", " ", " ", "\t", "\f", "", "  ", "\u000B", "\u00A0"};
    private static final String[] PREFIXES = {"> ", ">", "- ", "* ", "1. ", "2) ", "-\t", "   > ", "+ ", ">\t", "1.\t"};
    private static final String[] FENCE_CHARS = {"`", "~"};
    private static final String[] INFO = {"", "", "", "markdown", " js", "a`b", "~"};
    private static final String[] COMMENTS = {"<!--", "<!--", "<!-- c -->", "-->", "c -->", "<!-->", "<!--->", "<!-- c"
    };
    private static final String[] HTML = {
        "<div>",
        "</div>",
        "<details>",
        "<summary>s</summary>",
        "</details>",
        "<DIV class=\"x\">",
        "<pre>",
        "</pre>",
        "<pre>p</pre>",
        "<script>",
        "</script>",
        "<textarea>",
        "<style>",
        "</style>",
        "<span>",
        "<span class=\"a\" id='b' data-c=d hidden>",
        "</span>",
        "<x-y a='1'/>",
        "<a href=\"u\">link</a> text",
        "<?php",
        "?>",
        "<!DOCTYPE html>",
        "<!doctype",
        "<![CDATA[",
        "]]>",
        "<table><tr><td>",
        "<p>",
        "<b",
        "</ul>"
    };
    private static final String[] HEADINGS = {"# h", "## [ ] h", "#[ ] h", "###### h", "####### h", "#"};
    private static final String[] UNDERLINES = {"---", "===", "-", "=", "--- x", "== =", "----   "};
    private static final String[] BREAKS = {"***", "* * *", "- - -", "___", "-- -", "*\t*\t*"};
    private static final String[] BLANKS = {"", "", "", " ", "\t", "   "};

    private final SplittableRandom random;
    /** Columns where the content of the list items written last starts, innermost last. */
    private final List<Integer> contentColumns = new ArrayList<>();

    private int texts;

    MarkdownGenerator(long seed) {
        random = new SplittableRandom(seed);
    }

    /** @return a new document of 1 to 24 lines */
    String document() {
        contentColumns.clear();
        texts = 0;
        StringBuilder document = new StringBuilder();
        if (chance(0.06)) {
            document.append('\uFEFF');
        }
        String ending = pick("\n", "\n", "\n", "\n", "\n", "\r\n", "\r", "mixed");
        int lines = 1 + random.nextInt(chance(0.2) ? 24 : 12);
        for (int i = 0; i < lines; i++) {
            document.append(line());
            if (i < lines - 1 || chance(0.8)) {
                document.append(ending.equals("mixed") ? pick("\n", "\r\n", "\r") : ending);
            }
        }
        return document.toString();
    }

    private String line() {
        String indentation = indentation();
        StringBuilder prefixes = new StringBuilder();
        int count = weighted(10, 3, 1);
        for (int i = 0; i < count; i++) {
            prefixes.append(pick(PREFIXES));
        }
        String start = indentation + prefixes;
        return start
                + switch (weighted(14, 2, 2, 2, 4, 3, 2, 2, 2, 4, 1, 1, 1, 1)) {
                    case 0 -> item(start, box() + pick(AFTER_BOX) + text());
                    case 1 -> item(start, text());
                    case 2 -> pick(MARKERS) + pick("", "", " ", "  ");
                    case 3 -> box() + pick(AFTER_BOX) + text();
                    case 4 -> paragraph();
                    case 5 -> pick(BLANKS);
                    case 6 -> fence() + pick(INFO);
                    case 7 -> fence() + pick("", "", " ", "\t", " x");
                    case 8 -> pick(COMMENTS);
                    case 9 -> pick(HTML);
                    case 10 -> pick(HEADINGS);
                    case 11 -> pick(UNDERLINES);
                    case 12 -> pick(BREAKS);
                    default -> pick("\f", "\fx", "x\f", "\f- [ ] t");
                };
    }

    /** Writes a list item and remembers the column where its content starts. */
    private String item(String start, String content) {
        String marker = pick(MARKERS) + pick(SEPARATORS);
        int column = columns(start + marker);
        while (!contentColumns.isEmpty() && contentColumns.get(contentColumns.size() - 1) >= column) {
            contentColumns.remove(contentColumns.size() - 1);
        }
        contentColumns.add(column);
        return marker + content;
    }

    private String indentation() {
        int known = contentColumns.isEmpty() ? 0 : contentColumns.get(random.nextInt(contentColumns.size()));
        return switch (weighted(6, 6, 2, 2, 1, 1, 1, 1)) {
            case 0 -> "";
            case 1 -> " ".repeat(known);
            case 2 -> " ".repeat(Math.max(0, known - 1));
            case 3 -> " ".repeat(known + 1);
            case 4 -> " ".repeat(known + 4);
            case 5 -> "\t".repeat(1 + random.nextInt(2));
            case 6 -> pick(" \t", "  \t", "\t ", "   \t");
            default -> " ".repeat(random.nextInt(9));
        };
    }

    private String paragraph() {
        return switch (weighted(4, 2, 1, 1, 1, 1, 1)) {
            case 0 -> "para " + text();
            case 1 -> "lazy";
            case 2 -> "2. [ ] " + text();
            case 3 -> "10) [x] " + text();
            case 4 -> "1. [ ] " + text();
            case 5 -> "- [ ] " + text() + " - [ ] inline";
            default -> "[x]: /url";
        };
    }

    private String box() {
        return pick(BOXES);
    }

    private String fence() {
        return pick(FENCE_CHARS).repeat(weighted(0, 0, 1, 6, 3, 1));
    }

    private String text() {
        String name = "t" + ++texts;
        return switch (weighted(12, 1, 1, 1, 1, 1, 1, 1, 1, 1)) {
            case 0 -> name;
            case 1 -> name + " *em*";
            case 2 -> "";
            case 3 -> " ";
            case 4 -> "\u2003";
            case 5 -> name + " <!-- c";
            case 6 -> name + " `x`";
            case 7 -> "```";
            case 8 -> "<div>";
            default -> name + "\f";
        };
    }

    /** Counts the columns a line prefix takes, with tab stops of 4. */
    private static int columns(String prefix) {
        int column = 0;
        for (int i = 0; i < prefix.length(); i++) {
            column = prefix.charAt(i) == '\t' ? column + 4 - column % 4 : column + 1;
        }
        return column;
    }

    private boolean chance(double probability) {
        return random.nextDouble() < probability;
    }

    private String pick(String... choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** Picks an index with the given relative weights. */
    private int weighted(int... weights) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int draw = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            draw -= weights[i];
            if (draw < 0) {
                return i;
            }
        }
        throw new AssertionError("unreachable");
    }
}
